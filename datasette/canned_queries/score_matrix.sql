-- title: Score matrix
-- description: Metrics x systems at system level against one reference set: one row per metric, one column per system (and reference), with the direction that is better. Defaults: the largest reference set, every test bed. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored.
-- params: testbed, refset, variant
-- pivot: translator value
with p as (
    select coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
),
s as (
    select s.* from scores s, p
    where s.level = 'sys' and s.refset = p.refset and s.variant = p.variant and (:testbed = '' or s.testbed = :testbed)
)
select testbed, metric, case max(higher_is_better) when 1 then 'higher' else 'lower' end as better,
       {{pivot}}
from s
group by testbed, metric
order by testbed, metric
