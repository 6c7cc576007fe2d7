-- The metrics with scores on test bed $1 against reference set $2 at level $3, by name.
select distinct metric
from scores
where testbed = $1
  and refset = $2
  and level = $3
order by metric
