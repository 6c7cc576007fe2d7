-- Pearson correlation between every two metrics of a list over the same system scores
-- (systems against reference sets of references), per test bed, level and reference set:
-- how alike two metrics are.  n: the units both scored.
-- Usage: select * from metric_corr(['BLEU', 'chrF'], 'sys');
create or replace macro metric_corr(metric_names, lvl) as table
with s as (
    select testbed, level, refset, metric, translator, coalesce(doc_id, '') as doc_id,
           coalesce(seg_id, 0) as seg_id, value
    from scores
    where role = 'system' and refset_kind = 'reference' and level = lvl
      and value is not null and list_contains(metric_names, metric)
)
select a.testbed, a.level, a.refset, a.metric as metric_a, b.metric as metric_b,
       corr(a.value, b.value) as pearson, count(*) as n
from s a
join s b using (testbed, level, refset, translator, doc_id, seg_id)
group by all
