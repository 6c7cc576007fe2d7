-- Per target, reference set (with its number of references) and metric of the list
-- $metrics, the segment statistics under $variant on test bed $tid (an id) as a list in
-- segment order, and whether every segment has them: what a sacrebleu JSON export sums.
-- Empty lists $targets / $refsets mean every target / reference set.
select t.name as target, r.name as refset, r.size, m.name as metric,
       list(s.stats order by s.seg_id) as stats,
       bool_and(s.stats is not null) as complete
from seg_stats($metrics) s
join translator t using (translator_id)
join refset r using (refset_id)
join metric m using (metric_id)
where r.testbed_id = $tid
  and s.variant = $variant
  and list_contains($metrics, m.name)
  and (len($targets) = 0 or list_contains($targets, t.name))
  and (len($refsets) = 0 or list_contains($refsets, r.name))
group by all
order by 1, 2
