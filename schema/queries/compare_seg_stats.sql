-- `ulcdb compare`: the stored segment statistics (null for a metric without them) of metric
-- $2 against the reference set $3 under variant $4 of the translators $5 in test bed $1
-- (an id).
select t.name, s.seg_id, s.stats
from seg_stats([$2]) s
join metric m using (metric_id)
join translator t using (translator_id)
join refset r using (refset_id)
where t.testbed_id = $1
  and r.testbed_id = t.testbed_id
  and m.name = $2
  and r.name = $3
  and s.variant = $4
  and list_contains($5, t.name)
