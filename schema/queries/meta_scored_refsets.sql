-- The reference sets of kind $2 (e.g. 'reference') that test bed $1 holds scores against,
-- by name.
select distinct refset
from scores
where testbed = $1
  and refset_kind = $2
order by refset
