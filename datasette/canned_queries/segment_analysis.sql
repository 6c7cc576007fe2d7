-- title: Segment analysis
-- description: One segment as the IQMT manual's Table 13 shows it: the source, then every system output and every reference side by side, each with its score for the chosen metric against the reference set (a reference scored against a set holding it has no score), ULC over the metric set and the mean human judgment per criterion. Defaults: segment 1, metric BLEU, the largest reference set, metric set metrics_LEX. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored. Large stores: the served copy keeps the segment scores of the metric sets' metrics first, up to 600,000 rows; a metric left out has no segment score here, and /-/segments reads its scores from the store.
-- params: testbed, seg_id, metric, refset, metric_set, variant
with v as (
    select coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
),
p as (
    select coalesce(nullif(:seg_id, ''), 1) + 0 as seg_id,
           coalesce(nullif(:metric, ''), (select name from metric where name = 'BLEU' union all select min(metric) from scores limit 1)) as metric,
           coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           coalesce(nullif(:metric_set, ''), (select metric_set from ulc where variant = (select variant from v) order by metric_set = 'metrics_LEX' desc, metric_set limit 1)) as metric_set,
           (select variant from v) as variant
),
src as (
    select t.name as testbed, s.doc_id, s.seg_id, s.seg_in_doc, 0 as ord, 'source' as role,
           'source' as translator, s.source as text
    from segment s join testbed t using (testbed_id), p
    where s.seg_id = p.seg_id and (:testbed = '' or t.name = :testbed)
),
outs as (
    select tr.testbed, tr.doc_id, tr.seg_id, tr.seg_in_doc,
           case tr.role when 'system' then 1 else 2 end as ord, tr.role, tr.translator, tr.text
    from translations tr, p
    where tr.seg_id = p.seg_id and (:testbed = '' or tr.testbed = :testbed)
),
human as (
    select testbed, translator, group_concat(criterion || ' ' || printf('%.2f', value), '; ') as human
    from (select a.testbed, a.translator, a.criterion, avg(a.value) as value
          from assessments a, p
          where a.level = 'seg' and a.seg_id = p.seg_id
          group by a.testbed, a.translator, a.criterion)
    group by testbed, translator
),
rows as (
    select * from src union all select * from outs
)
select r.testbed, r.doc_id, r.seg_id, r.seg_in_doc, r.role, r.translator, r.text,
       p.metric, round(s.value, 4) as score, round(u.ulc, 4) as ulc, h.human, p.refset
from rows r
cross join p
left join scores s on s.level = 'seg' and s.seg_id = r.seg_id and s.metric = p.metric
    and s.refset = p.refset and s.variant = p.variant and s.translator = r.translator
    and s.testbed = r.testbed
left join ulc u on u.level = 'seg' and u.seg_id = r.seg_id and u.metric_set = p.metric_set
    and u.refset = p.refset and u.variant = p.variant and u.translator = r.translator
    and u.testbed = r.testbed
left join human h on h.testbed = r.testbed and h.translator = r.translator
order by r.testbed, r.ord, s.value desc, r.translator
