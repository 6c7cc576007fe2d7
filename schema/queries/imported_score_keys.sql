-- The keys (metric, target, reference set, variant) of test bed $1 under variant $2 whose
-- scores for the metrics $3 (ids) are imported: scoring leaves them as they are.
select k.metric_id, k.translator_id, k.refset_id, k.variant
from imported_keys k
join refset r using (refset_id)
where r.testbed_id = $1
  and k.variant = $2
  and list_contains($3, k.metric_id)
