-- title: Metric-human correlation
-- description: How well each metric agrees with a human criterion (meta-evaluation): Pearson and Spearman correlations of metric scores with the human scores at one level, against one reference set, ranked by Pearson. grouping_by 'flat' correlates all items at once, 'item' per segment or document then averages (as mt-metrics-eval). Higher is better. Bootstrap intervals: `ulcdb meta --bootstrap 1000`. Defaults: the first criterion, seg level, the largest reference set, flat. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored.
-- params: testbed, criterion, level, refset, grouping_by, variant
with p as (
    select coalesce(nullif(:criterion, ''), (select min(criterion) from meta_corr)) as criterion,
           coalesce(nullif(:level, ''), 'seg') as level,
           coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           coalesce(nullif(:grouping_by, ''), 'flat') as grouping_by,
           coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
)
select rank() over (partition by c.testbed order by c.pearson desc) as rank,
       c.testbed, c.metric, round(c.pearson, 4) as pearson, round(c.spearman, 4) as spearman,
       c.n_items, c.n_groups, c.criterion, c.level, c.refset, c.grouping_by, c.variant
from meta_corr c join p using (criterion, level, refset, grouping_by, variant)
where (:testbed = '' or c.testbed = :testbed)
order by c.testbed, c.pearson desc
