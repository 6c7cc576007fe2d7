-- The qualities KING compares, with integer keys: for each reference h of R held out in turn
-- (held_out = h's translator_id), the quality q of every system in scope and of h itself
-- against R - {h}, per unit of the level (unit: seg_id, doc_index or 0, as `qarla_scores`);
-- vid: the variant's position in `score_variants` (its text is joined back in `king`).
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
--             3 references in R - {h}.  Planned only when asked (QUEEN's macros take a third
--             of KING's planning otherwise).
-- segs restricts segment rows (seg level); doc and sys scores are the stored ones.
-- Rows: vid, measure_id, held_out, translator_id, unit, q.
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
held as (  -- per held-out reference h: the refset R - {h}, and R (full_id: ULC's bounds)
    select t.held_out, s.refset_id, f.refset_id as full_id
    from rest t
    join refset s on s.testbed_id = t.testbed_id and s.name = t.name
    left join (select distinct testbed_id, refset_id from r) f on f.testbed_id = t.testbed_id
),
in_scope as (
    select translator_id
    from translator
    where role = 'system' and (systems is null or list_contains(systems, name))
),
vals as (
    select list_position(v.names, s.variant) as vid, s.* exclude (variant)
    from qarla_values(metric_names, lvl, segs := segs) s, score_variants v
),
sets as (  -- the refsets read: R - {h} per h, and R itself (held_out = -R's refset_id) for
           -- ULC's bounds, so that `vals` is planned and read once
    select held_out, refset_id from held
    union all
    select distinct -full_id, full_id from held where list_contains(measures, 'ulc')
),
scope as (  -- the test bed and h from the reference set: no join per row with translator
    select s.vid, s.metric_id, h.held_out, s.translator_id, s.unit, s.value, s.x
    from vals s
    join sets h on h.refset_id = s.refset_id
    where s.translator_id = h.held_out or s.translator_id in (select translator_id from in_scope)
),
single as (
    select vid, metric_id as measure_id, held_out, translator_id, unit, x as q
    from scope
    where list_contains(measures, 'single') and held_out > 0
),
bounds as (  -- per metric and test bed (the systems against R), given to each h of the test bed
    select f.vid, f.metric_id, h.held_out, f.hi, f.lo
    from (
        select vid, metric_id, -held_out as full_id,
               greatest(0, max(value)) as hi,
               least(0, min(value)) as lo
        from scope
        where held_out < 0
        group by all
    ) f
    join held h on h.full_id = f.full_id
),
ulc as (
    select s.vid, 0 as measure_id, s.held_out, s.translator_id, s.unit,
           sum(round(case
                         when b.hi - b.lo = 0 then 0
                         when b.lo = 0 then s.value / b.hi
                         else (s.value - b.lo) / (b.hi - b.lo)
                     end * 1099511627776)::bigint) / 1099511627776 / count(*) as q
    from scope s
    join bounds b using (vid, metric_id, held_out)
    group by s.vid, s.held_out, s.translator_id, s.unit
    having count(*) = len(list_distinct(metric_names))  -- one score per metric and refset
),
queen_q as (  -- planned only when asked: query() plans the statement its arguments make
              -- (each written by `sql_literal`), an empty one without 'queen'
    select * from query(case
        when list_contains(measures, 'queen') then
            'select list_position(v.names, q.variant) as vid, -1 as measure_id, q.held_out,
                    q.translator_id, q.unit, q.queen as q
             from queen_units(' || sql_literal(metric_names) || ', ' || sql_literal(lvl)
            || ', refs := ' || sql_literal(refs) || ', systems := ' || sql_literal(systems)
            || ', strict := ' || sql_literal(strict) || ', trans_topic := '
            || sql_literal(trans_topic) || ', segs := ' || sql_literal(segs)
            || ', holdout := true, doc_cumulative := ' || sql_literal(doc_cumulative)
            || ', testbeds := ' || sql_literal(testbeds) || ') q, score_variants v
             where q.testbed_id in (select testbed_id from qarla_refs(refs := '
            || sql_literal(refs) || ', testbeds := ' || sql_literal(testbeds)
            || ') where n_refs >= 4)'
        else 'select null::integer as vid, -1 as measure_id, null::integer as held_out,
                     null::integer as translator_id, null::integer as unit, null::double as q
              where false'
    end)
),
final as (
    select * from single
    union all select * from ulc
    union all select * from queen_q
)
select * from final;
