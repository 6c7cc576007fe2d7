-- KING_{A,R}(X) and ORANGE per measure (IQMT manual 3.1.2; Asiya 3.0's definitions): for each
-- reference h held out in turn and each unit of the level (the system, each document, each
-- segment), compare the quality q of h with that of every system, both against R - {h}
-- (qualities from `king_quality`, which documents measures and the other parameters).
--   king    share of (h, unit) cases where every system has q(s) <= q(h) (ties count);
--   orange  share of (h, system, unit) cases with q(s) <= q(h).
-- A system without a quality for a unit does not count as beaten.
-- measure: the metric's name ('single'), 'ULC' or 'QUEEN'.
-- Usage: select * from king(['BLEU', 'NIST'], 'seg');
--        select * from king(['BLEU', 'NIST', 'GTM-2'], 'sys', measures := ['queen']);
create or replace macro king(metric_names, lvl, measures := ['single', 'ulc'], refs := null,
                             systems := null, strict := false, trans_topic := false,
                             segs := null, doc_cumulative := false, testbeds := null)
as table
with q as (
    select * from king_quality(metric_names, lvl, measures := measures, refs := refs,
                               systems := systems, strict := strict,
                               trans_topic := trans_topic, segs := segs,
                               doc_cumulative := doc_cumulative, testbeds := testbeds)
),
n_systems as (
    select testbed_id, count(*) as n_systems
    from translator
    where role = 'system' and (systems is null or list_contains(systems, name))
    group by all
),
cases as (  -- the reference's row is the held-out one (an integer test, not role's text)
    select vid, measure_id, held_out, unit,
           max(q) filter (where translator_id = held_out) as q_ref,
           list(q) filter (where translator_id <> held_out) as system_qs
    from q
    group by all
),
compared as (
    select *, len(list_filter(system_qs, lambda v: v <= q_ref)) as beaten
    from cases
    where q_ref is not null
),
per_measure as (
    select
        t.testbed_id,
        c.vid,
        c.measure_id,
        avg(case when c.beaten = n.n_systems then 1.0 else 0.0 end) as king,
        sum(c.beaten) / (count(*) * any_value(n.n_systems)) as orange,
        count(distinct c.held_out) as n_refs,
        any_value(n.n_systems) as n_systems,
        count(*) as cases
    from compared c
    join translator t on t.translator_id = c.held_out
    join n_systems n on n.testbed_id = t.testbed_id
    group by all
),
final as (
    select
        tb.name as testbed,
        v.names[p.vid] as variant,
        lvl as level,
        case p.measure_id when 0 then 'ULC' when -1 then 'QUEEN' else m.name end as measure,
        p.king,
        p.orange,
        p.n_refs,
        p.n_systems,
        p.cases
    from per_measure p
    join testbed tb using (testbed_id)
    cross join score_variants v
    left join metric m on m.metric_id = p.measure_id
)
select * from final;
