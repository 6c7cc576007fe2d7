-- title: Documents ranked by score
-- description: Document-level scores of one metric against one reference set, best documents first for the metric's direction (the worst documents are at the end: sort the column the other way, or name a system). Defaults: metric BLEU, the largest reference set, every system. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored.
-- params: testbed, metric, refset, system, variant
with p as (
    select coalesce(nullif(:metric, ''), (select name from metric where name = 'BLEU' union all select min(metric) from scores limit 1)) as metric,
           coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
)
select rank() over (partition by s.testbed, s.translator
                    order by case when s.higher_is_better then -s.value else s.value end) as rank,
       s.testbed, s.translator, s.doc_id, round(s.value, 4) as score, s.metric, s.refset,
       case when s.higher_is_better then 'higher' else 'lower' end as better
from scores s join p using (metric, refset, variant)
where s.level = 'doc' and s.role = 'system' and (:testbed = '' or s.testbed = :testbed)
  and (:system = '' or s.translator = :system)
order by case when s.higher_is_better then -s.value else s.value end, s.testbed, s.translator
limit 1000
