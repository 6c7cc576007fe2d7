-- JACK(A, R, X) (IQMT manual 3.1.3): the share of (reference r, unit) cases for which two
-- systems a != a' exist with QUEEN_{X,R}(a) > 0, QUEEN_{X,R}(a') > 0 and, for every metric x,
-- x(a, a') <= x(a, r): system outputs close to the references and spread around them.
-- x(a, a') is a scored against a' alone (`ulcdb score --jack` / `ulcdb jack` compute it);
-- QUEEN is `queen_units` at the same level (a document's QUEEN over its own segments);
-- refs, systems, strict, trans_topic and segs are passed to it (see `queen_hits`).
-- Counting as in `queen_hits`: per (a, unit, metric) the values x(a, r) sorted make steps
-- holding 1 in the 8-bit counter of every reference r with x(a, r) >= y; each x(a, a') = y
-- falls in one step, and summing over the metrics counts, per r, the metrics where
-- x(a, a') <= x(a, r).  r is covered when its counter reaches the metric count.
-- Usage: select * from jack(['BLEU', 'NIST'], 'seg');
create or replace macro jack(metric_names, lvl := 'seg', refs := null, systems := null,
                             strict := false, trans_topic := false, segs := null,
                             testbeds := null)
as table
with r as (
    select * from qarla_refs(refs := refs, testbeds := testbeds)
),
quality as (
    select q.testbed_id, q.variant, q.translator_id, q.unit, q.queen
    from queen_units(metric_names, lvl, refs := refs, systems := systems, strict := strict,
                     trans_topic := trans_topic, segs := segs, testbeds := testbeds) q
    join translator t using (translator_id)
    where t.role = 'system'
),
candidates as (
    select variant, translator_id, unit from quality where queen > 0
),
sims as (
    select s.*, m.translator_id as other_id
    from qarla_scores(metric_names, lvl, segs := segs) s
    join refset f using (refset_id)
    join refset_member m using (refset_id)
    semi join candidates c on c.variant = s.variant and c.translator_id = s.translator_id
     and c.unit = s.unit
    where f.size = 1
),
consts as (
    select sum((128 - len(list_distinct(metric_names)))::hugeint << (8 * f)::hugeint) as lift,
           sum(1::hugeint << (8 * f + 7)::hugeint) as top_bits
    from range(15) t(f)
),
thresholds as (
    select s.variant, s.translator_id, s.unit, s.metric_id, r.pos // 15 as word, s.x,
           sum(1::hugeint << (8 * (r.pos % 15))::hugeint) as bits
    from sims s
    join r on r.translator_id = s.other_id
    group by all
),
steps as (
    select variant, translator_id, unit, metric_id, word, x as hi,
           lag(x, 1, '-infinity'::double) over w as lo,
           sum(bits) over (w rows between current row and unbounded following) as counts
    from thresholds
    window w as (partition by variant, translator_id, unit, metric_id, word order by x)
),
to_system as (
    select s.*
    from sims s
    semi join candidates c on c.variant = s.variant and c.translator_id = s.other_id
     and c.unit = s.unit
    where s.other_id <> s.translator_id
),
counters as (
    select t.testbed_id, t.variant, t.unit, t.translator_id, t.other_id, p.word,
           sum(p.counts) as counts
    from to_system t
    join steps p on p.variant = t.variant and p.translator_id = t.translator_id
     and p.unit = t.unit and p.metric_id = t.metric_id and t.x > p.lo and t.x <= p.hi
    group by all
),
covered as (
    select c.testbed_id, c.variant, c.unit,
           sum(bit_count(c.covered)) as hits
    from (
        select testbed_id, variant, unit, word, bit_or((counts + k.lift) & k.top_bits) as covered
        from counters
        cross join consts k
        group by all
    ) c
    group by all
),
cases as (
    select u.testbed_id, u.variant, u.unit, any_value(r.n_refs) as n
    from (select distinct testbed_id, variant, unit from quality) u
    join r using (testbed_id)
    group by all
),
final as (
    select
        tb.name as testbed,
        c.variant,
        lvl as level,
        coalesce(sum(h.hits), 0) / sum(c.n) as jack,
        coalesce(sum(h.hits), 0) as hits,
        sum(c.n) as cases
    from cases c
    join testbed tb using (testbed_id)
    left join covered h on h.testbed_id = c.testbed_id and h.variant = c.variant
     and h.unit = c.unit
    group by tb.name, c.variant
)
select * from final;
