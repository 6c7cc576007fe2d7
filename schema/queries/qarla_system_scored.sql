-- The metrics of the list $4 that have scores on test bed $1 (variant $2) at level $3 of
-- one system against another (reference sets of kind $5, 'system'), as JACK needs.
select distinct metric
from scores
where testbed = $1
  and variant = $2
  and level = $3
  and refset_kind = $5
  and list_contains($4, metric)
