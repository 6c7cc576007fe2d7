-- ORANGE per measure: the share of (held-out reference h, system s, unit) cases where
-- q(s) <= q(h) against R - {h}; KING requires every system at once.  Same parameters as
-- `king` (see `king_quality`).
-- Usage: select * from orange(['BLEU', 'NIST'], 'doc');
create or replace macro orange(metric_names, lvl, measures := ['single', 'ulc'], refs := null,
                               systems := null, strict := false, trans_topic := false,
                               segs := null, doc_cumulative := false, testbeds := null)
as table
with k as (
    select * from king(metric_names, lvl, measures := measures, refs := refs,
                       systems := systems, strict := strict, trans_topic := trans_topic,
                       segs := segs, doc_cumulative := doc_cumulative, testbeds := testbeds)
),
final as (
    select testbed, variant, level, measure, orange, n_refs, n_systems, cases from k
)
select * from final;
