-- ULC: the uniform average of a metric set's normalised scores (ULC manual section 3), per
-- level, for every (target, reference set, variant) that has all the metrics.
-- Normalisation as Asiya 3.0 does it (method 'asiya'), per metric, reference set and level:
--   hi = max(0, every system's value), lo = min(0, every system's value), over all units of
--   the level, for the systems in scope (all systems of the test bed unless `systems` names
--   them); norm = x / hi when lo = 0, else (x - lo) / (hi - lo); 0 when the denominator is 0.
-- method 'raw' averages the raw scores without normalisation.
-- Usage: select * from ulc(['BLEU', 'NIST'], 'sys');
--        select * from ulc(['BLEU', 'NIST'], 'seg', method := 'raw');
create or replace macro ulc(metric_names, lvl, method := 'asiya', systems := null) as table
with scope as (
    select * from scores
    where level = lvl and list_contains(metric_names, metric)
),
bounds as (
    select testbed, refset, variant, metric,
           greatest(0, max(value)) as hi,
           least(0, min(value)) as lo
    from scope
    where role = 'system' and refset_kind = 'reference'
      and (systems is null or list_contains(systems, translator))
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
    left join bounds b using (testbed, refset, variant, metric)
),
per_unit as (  -- one sorted list per unit: an ordered avg and a distinct count cost 3x
    select testbed, translator, role, refset, refset_kind, variant, level, doc_id, seg_id,
           list_sort(list(struct_pack(metric := metric, norm := norm))) as normed
    from normed
    group by all
),
final as (
    select testbed, translator, role, refset, refset_kind, variant, level, doc_id, seg_id,
           list_avg([x.norm for x in normed]) as ulc,  -- metric order: equal inputs, equal ULC
           len(list_distinct([x.metric for x in normed])) as n_metrics
    from per_unit
    where len(list_distinct([x.metric for x in normed])) = len(list_distinct(metric_names))
)
select * from final;
