-- title: System ranking
-- description: Systems of a test bed ranked by ULC (the uniform average of the metric set's normalised scores; higher is better) at system level, with QUEEN (the share of reference triples where the system is at least as close to a reference as the other references are to each other) and every metric's own score. Empty parameters take the defaults: metric set metrics_LEX, the largest reference set, the only test bed. The variant (e.g. case:mixed, case:lc) defaults to case:mixed when stored.
-- params: testbed, metric_set, refset, variant
with v as (
    select coalesce(nullif(:variant, ''), (select variant from sys_score group by variant order by variant = 'case:mixed' desc, variant limit 1)) as variant
),
p as (
    select coalesce(nullif(:metric_set, ''), (select metric_set from ulc where variant = (select variant from v) order by metric_set = 'metrics_LEX' desc, metric_set limit 1)) as metric_set,
           coalesce(nullif(:refset, ''), (select refset from stg_refset where refset_kind = 'reference' order by size desc, refset limit 1)) as refset,
           (select variant from v) as variant
),
u as (
    select u.testbed, u.translator, u.role, u.ulc, u.n_metrics
    from ulc u, p
    where u.level = 'sys' and u.metric_set = p.metric_set and u.refset = p.refset
      and u.variant = p.variant
      and (:testbed = '' or u.testbed = :testbed)
),
members as (
    select m.member as metric
    from named_set s join named_set_member m using (set_id), p
    where s.kind = 'metric' and s.name = p.metric_set
),
per_metric as (
    select s.testbed, s.translator,
           group_concat(s.metric || ' ' || printf('%.4f', s.value), '; ') as metric_scores
    from scores s, p
    where s.level = 'sys' and s.refset = p.refset and s.variant = p.variant
      and (not exists (select 1 from members) or s.metric in (select metric from members))
    group by s.testbed, s.translator
)
select rank() over (partition by u.testbed order by u.ulc desc) as rank,
       u.testbed, u.translator as system, u.role, round(u.ulc, 4) as ulc,
       round(q.queen, 4) as queen, u.n_metrics, p.metric_set, p.refset, m.metric_scores
from u
cross join p
left join queen q on q.metric_set = p.metric_set and q.level = 'sys' and q.variant = p.variant
    and q.testbed = u.testbed and q.translator = u.translator
left join per_metric m on m.testbed = u.testbed and m.translator = u.translator
order by u.testbed, u.ulc desc
