-- ULC: the uniform average of a metric set's normalised scores (ULC manual section 3), per
-- level, for every (target, reference set, variant) that has all the metrics.
-- Normalisation as Asiya 3.0 does it (method 'asiya'), per metric, reference set and level:
--   hi = max(0, every system's value), lo = min(0, every system's value), over all units of
--   the level, for the systems in scope (all systems of the test bed unless `systems` names
--   them); norm = x / hi when lo = 0, else (x - lo) / (hi - lo); 0 when the denominator is 0.
-- method 'raw' averages the raw scores without normalisation.
-- The rows are grouped on integer keys (`score_rows`) and named at the end: grouping the
-- `scores` view's nine name columns cost most of the macro's time.
-- Usage: select * from ulc(['BLEU', 'NIST'], 'sys');
--        select * from ulc(['BLEU', 'NIST'], 'seg', method := 'raw');
create or replace macro ulc(metric_names, lvl, method := 'asiya', systems := null) as table
with metrics as (  -- pos: the metric's place in name order (ULC adds the metrics in it)
    select metric_id, row_number() over (order by name) as pos
    from metric
    where list_contains(metric_names, name)
),
scope as (
    select u.translator_id, u.refset_id, u.variant, u.level, u.doc_id, u.seg_id, u.value,
           m.pos as metric, t.role, r.refset_kind,
           t.role = 'system' and r.refset_kind = 'reference'
               and (systems is null or list_contains(systems, t.name)) as bounded
    from score_rows u
    join metrics m using (metric_id)
    join translator t using (translator_id)
    join stg_refset r using (refset_id)
    where u.level = lvl
),
bounds as (  -- refset_id stands for (test bed, refset name): unique per test bed
    select refset_id, variant, metric,
           greatest(0, max(value)) as hi,
           least(0, min(value)) as lo
    from scope
    where bounded
    group by all
),
normed as (
    select s.*,
           case
               when method = 'raw' then s.value
               when b.hi - b.lo = 0 then 0
               when b.lo = 0 then s.value / b.hi
               else (s.value - b.lo) / (b.hi - b.lo)
           end as norm
    from scope s
    left join bounds b using (refset_id, variant, metric)
),
per_unit as (  -- one sorted list per unit: an ordered avg and a distinct count cost 3x
    select translator_id, refset_id, variant, level, doc_id, seg_id,
           list_sort(list(struct_pack(metric := metric, norm := norm))) as normed
    from normed
    group by all
),
final as (
    select r.testbed, t.name as translator, t.role, r.refset, r.refset_kind, p.variant,
           p.level, coalesce(p.doc_id, g.doc_id) as doc_id, p.seg_id,
           list_avg([x.norm for x in p.normed]) as ulc,  -- metric order: equal inputs, equal ULC
           len(list_distinct([x.metric for x in p.normed])) as n_metrics
    from per_unit p
    join translator t using (translator_id)
    join stg_refset r using (refset_id)
    left join segment g on g.testbed_id = t.testbed_id and g.seg_id = p.seg_id
    where len(list_distinct([x.metric for x in p.normed])) = len(list_distinct(metric_names))
)
select * from final;
