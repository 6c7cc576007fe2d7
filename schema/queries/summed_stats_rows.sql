-- The segment statistics of metric $metric for every translator of test bed $testbed against
-- reference set $refset under $variant, a list per translator in segment order (`ulcdb eval`
-- sums them with sacrebleu's own sum_of_lists to print sacrebleu's scores).
select t.name as translator, list(s.stats order by s.seg_id) as stats
from seg_stats([$metric]) s
join translator t using (translator_id)
join refset r using (refset_id)
join metric m using (metric_id)
join testbed b on b.testbed_id = r.testbed_id
where b.name = $testbed and m.name = $metric and r.name = $refset and s.variant = $variant
group by t.name
