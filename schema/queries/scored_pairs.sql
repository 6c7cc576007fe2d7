-- Per (target, reference set) of test bed $1 under variant $2: how many of the metrics $3
-- (ids) scoring counts as done for it (scored_keys); a pair is done when all of them are.
select t.name as target, r.name as refset, count(distinct s.metric_id) as metrics
from scored_keys(testbed_ids := [$1], var := $2, metric_ids := $3) s
join translator t using (translator_id)
join refset r using (refset_id)
group by all
