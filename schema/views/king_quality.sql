-- The qualities KING compares, with integer keys: for each reference h of R held out in turn
-- (held_out = h's translator_id), the quality q of every system in scope and of h itself
-- against R - {h}, per unit of the level (unit: seg_id, doc_index or 0, as `qarla_scores`).
-- measures lists what q is (IQMT manual 3.1.2; Asiya 3.0's -metaeval single,ulc,queen):
--   'single'  each metric on its own (measure_id = its metric_id): the stored score against
--             the refset R - {h}, oriented as `qarla_scores`' x; needs 2+ references;
--   'ulc'     (measure_id 0) ULC of the metric set against R - {h}, normalised with the bounds
--             of the systems in scope against the full R at the same level, as Asiya does:
--             hi = max(0, values), lo = min(0, values); x / hi when lo = 0, else
--             (x - lo) / (hi - lo); 0 when hi = lo.  The normalised values are summed in
--             fixed point (units of 2^-40, exact), so that equal sums tie whatever the order
--             DuckDB adds them in (KING counts ties) and unequal ones stay apart;
--   'queen'   (measure_id -1) QUEEN_{X,R-{h}} (`queen_units` with holdout; strict,
--             trans_topic, doc_cumulative apply); only with 4+ references, since QUEEN needs
--             3 references in R - {h}.
-- segs restricts segment rows (seg level); doc and sys scores are the stored ones.
-- Usage: select * from king_quality(['BLEU', 'NIST'], 'sys', measures := ['single', 'ulc']);
create or replace macro king_quality(metric_names, lvl, measures := ['single', 'ulc'],
                                     refs := null, systems := null, strict := false,
                                     trans_topic := false, segs := null,
                                     doc_cumulative := false, testbeds := null)
as table
with r as (
    select * from qarla_refs(refs := refs, testbeds := testbeds)
),
rest as (
    select h.testbed_id, h.translator_id as held_out,
           array_to_string(list_sort(list(o.name)), '+') as name
    from r h
    join r o on o.testbed_id = h.testbed_id and o.translator_id <> h.translator_id
    group by all
),
held as (
    select t.testbed_id, t.held_out, s.refset_id
    from rest t
    join refset s on s.testbed_id = t.testbed_id and s.name = t.name
),
in_scope as (
    select translator_id, role
    from translator
    where role = 'system' and (systems is null or list_contains(systems, name))
),
scope as (  -- the test bed from the held-out reference: no join per row with translator
    select h.testbed_id, s.*, h.held_out, coalesce(t.role, 'reference') as role
    from qarla_values(metric_names, lvl, segs := segs) s
    join held h on h.refset_id = s.refset_id
    left join in_scope t on t.translator_id = s.translator_id
    where t.role = 'system' or s.translator_id = h.held_out
),
single as (
    select testbed_id, variant, metric_id as measure_id, held_out, translator_id, role, unit,
           x as q
    from scope
    where list_contains(measures, 'single')
),
bounds as (
    select f.testbed_id, s.variant, s.metric_id,
           greatest(0, max(s.value)) as hi,
           least(0, min(s.value)) as lo
    from qarla_values(metric_names, lvl, segs := segs) s
    join (select distinct testbed_id, refset_id from r) f using (refset_id)
    join in_scope t using (translator_id)
    where list_contains(measures, 'ulc')
    group by all
),
ulc as (
    select s.testbed_id, s.variant, 0 as measure_id, s.held_out, s.translator_id,
           case when s.translator_id = s.held_out then 'reference' else 'system' end as role,
           s.unit,
           sum(round(case
                         when b.hi - b.lo = 0 then 0
                         when b.lo = 0 then s.value / b.hi
                         else (s.value - b.lo) / (b.hi - b.lo)
                     end * 1099511627776)::bigint) / 1099511627776 / count(*) as q
    from scope s
    join bounds b using (testbed_id, variant, metric_id)
    group by s.testbed_id, s.variant, s.held_out, s.translator_id, s.unit
    having count(*) = len(list_distinct(metric_names))  -- one score per metric and refset
),
queen_q as (
    select q.testbed_id, q.variant, -1 as measure_id, q.held_out, q.translator_id,
           coalesce(t.role, 'reference') as role, q.unit, q.queen as q
    from queen_units(metric_names, lvl, refs := refs, systems := systems, strict := strict,
                     trans_topic := trans_topic, segs := segs, holdout := true,
                     doc_cumulative := doc_cumulative, testbeds := testbeds) q
    left join in_scope t using (translator_id)
    where list_contains(measures, 'queen')
      and q.testbed_id in (select testbed_id from r where n_refs >= 4)
),
final as (
    select * from single
    union all select * from ulc
    union all select * from queen_q
)
select * from final;
