-- Per (target, reference set) of test bed $1 under variant $2: how many of the metrics $3
-- (ids) scoring counts as done for it (scored_keys); a pair is done when all of them are.
select t.name as target, r.name as refset, count(distinct s.metric_id) as metrics
from scored_keys s
join translator t using (translator_id)
join refset r using (refset_id)
where r.testbed_id = $1
  and s.variant = $2
  and list_contains($3, s.metric_id)
group by all
