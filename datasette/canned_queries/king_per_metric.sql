-- title: KING per metric
-- description: KING of each metric, of ULC over the metric set and (with 4+ references) of QUEEN: the share of cases where a held-out human reference scores at least as high as every system against the remaining references, i.e. how well the measure tells human from machine translations; ORANGE counts each (reference, system) pair. Higher is better. Defaults: metric set metrics_LEX, sys level. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored.
-- params: testbed, metric_set, level, variant
with v as (
    select coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
),
p as (
    select coalesce(nullif(:metric_set, ''), (select metric_set from king where variant = (select variant from v) order by metric_set = 'metrics_LEX' desc, metric_set limit 1)) as metric_set,
           coalesce(nullif(:level, ''), 'sys') as level,
           (select variant from v) as variant
)
select rank() over (partition by k.testbed order by k.king desc, k.orange desc) as rank,
       k.testbed, k.measure, round(k.king, 4) as king, round(k.orange, 4) as orange,
       k.n_refs, k.n_systems, k.cases, k.metric_set, k.level, k.variant
from king k join p using (metric_set, level, variant)
where (:testbed = '' or k.testbed = :testbed)
order by k.testbed, k.king desc, k.orange desc, k.measure
