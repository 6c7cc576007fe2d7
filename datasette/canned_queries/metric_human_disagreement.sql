-- title: Where a metric disagrees with the humans
-- description: System outputs whose metric score and human score disagree most: both are turned into percentile ranks over every scored segment (oriented so that higher is better), and the rows are ordered by the gap. A positive gap: the metric likes the output more than the humans do. Defaults: metric BLEU, the first criterion, the largest reference set. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored. Large stores: the served copy keeps the segment scores of the metric sets' metrics first, up to 600,000 rows; a metric left out has no segment score here, and /-/segments reads its scores from the store.
-- params: testbed, metric, criterion, refset, variant
with p as (
    select coalesce(nullif(:metric, ''), (select name from metric where name = 'BLEU' union all select min(metric) from scores limit 1)) as metric,
           coalesce(nullif(:criterion, ''), (select min(criterion) from assessments)) as criterion,
           coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
),
h as (
    select a.testbed, a.translator, a.seg_id, avg(a.value) as human
    from assessments a, p
    where a.level = 'seg' and a.criterion = p.criterion and (:testbed = '' or a.testbed = :testbed)
    group by a.testbed, a.translator, a.seg_id
),
m as (
    select s.testbed, s.translator, s.seg_id,
           case when s.higher_is_better then s.value else -s.value end as score, s.value
    from scores s, p
    where s.level = 'seg' and s.metric = p.metric and s.refset = p.refset and s.variant = p.variant
      and (:testbed = '' or s.testbed = :testbed) and s.value is not null
),
j as (
    select m.*, h.human,
           percent_rank() over (partition by m.testbed order by m.score) as metric_pct,
           percent_rank() over (partition by m.testbed order by h.human) as human_pct
    from m join h using (testbed, translator, seg_id)
)
select j.testbed, j.seg_id, j.translator, round(j.value, 4) as metric_score,
       round(j.human, 2) as human, round(j.metric_pct - j.human_pct, 3) as gap,
       t.text as output, g.source, p.metric, p.criterion, p.refset
from j
cross join p
join translations t on t.testbed = j.testbed and t.translator = j.translator and t.seg_id = j.seg_id
join segment g on g.seg_id = j.seg_id
    and g.testbed_id = (select testbed_id from testbed where name = j.testbed)
order by abs(j.metric_pct - j.human_pct) desc
limit 100
