-- Which of the metrics $3 hold imported scores against the reference set named $2 of test
-- bed $1 (commands that use them say so).
-- The rows of `imported_keys` (batches not 'computed'), read from that reference set's rows
-- only: the view takes the distinct keys of every stored score first (0.6 s of a one-pair
-- `meta` at 40M scores; issue 30).
select distinct m.name
from stored_scores s
join refset r using (refset_id)
join metric m using (metric_id)
where r.testbed_id = $1
  and r.name = $2
  and list_contains($3, m.name)
  and s.batch_id in (select batch_id from score_batch where origin <> 'computed')
