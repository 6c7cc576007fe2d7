-- The keys (metric, target, reference set, variant) of test bed $1 under variant $2 whose
-- scores for the metrics $3 (ids) are imported: scoring leaves them as they are.
-- The keys of `imported_keys` (rows whose batch is not 'computed'), read from the test bed's
-- rows only: the view takes the distinct keys of every stored score first (0.7 s for 40M
-- scores, where the test bed's own take 0.03 s; issue 30).
select distinct s.metric_id, s.translator_id, s.refset_id, s.variant
from stored_scores s
join refset r using (refset_id)
where r.testbed_id = $1
  and s.variant = $2
  and list_contains($3, s.metric_id)
  and s.batch_id in (select batch_id from score_batch where origin <> 'computed')
