-- The metrics of the list $3 with scores on test bed $1 (variant $2) at level $4 against a
-- reference set of the list $5: QUEEN's inputs that are there.
select distinct metric
from scores
where testbed = $1
  and variant = $2
  and level = $4
  and list_contains($3, metric)
  and list_contains($5, refset)
