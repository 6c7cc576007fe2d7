-- `ulcdb compare`: the variants under which metric $2 has scores against the reference set
-- named $3 in test bed $1.
select distinct variant
from scores
where testbed = $1
  and metric = $2
  and refset = $3
order by variant
