-- QUEEN per unit of a level with integer keys (what `queen` and `king_quality` read): the
-- counts of `queen_hits` (which documents its parameters) summed over the unit's segments.
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys); lvl 'all' gives the rows of
-- the three levels (column level), from one computation.
-- doc_cumulative := true gives Asiya 3.0's document QUEEN instead: document k counts the hits
-- and triples of documents 1..k in test-bed order (its per-document counters are never reset).
-- Usage: select * from queen_units(['BLEU', 'NIST'], 'doc', doc_cumulative := true);
create or replace macro queen_units(metric_names, lvl, refs := null, systems := null,
                                    strict := false, trans_topic := false, segs := null,
                                    holdout := false, doc_cumulative := false,
                                    testbeds := null)
as table
with hits as (
    select * from queen_hits(metric_names, refs := refs, systems := systems, strict := strict,
                             trans_topic := trans_topic, segs := segs, holdout := holdout,
                             testbeds := testbeds)
),
docs as (
    select g.testbed_id, g.seg_id, d.doc_index
    from segment g
    join document d on d.testbed_id = g.testbed_id and d.doc_id = g.doc_id
),
levels as (
    select unnest(case when lvl = 'all' then ['seg', 'doc', 'sys'] else [lvl] end) as level
),
per_unit as (
    select
        h.testbed_id, h.variant, h.held_out, h.translator_id, h.refset, h.pool_size, l.level,
        case l.level when 'seg' then h.seg_id when 'doc' then d.doc_index else 0 end as unit,
        sum(h.hits) as hits,
        sum(h.triples) as triples
    from hits h
    join docs d using (testbed_id, seg_id)
    cross join levels l
    group by all
),
cumulated as (
    select *,
           sum(hits) over w as cum_hits,
           sum(triples) over w as cum_triples
    from per_unit
    window w as (partition by testbed_id, variant, held_out, translator_id, level order by unit)
),
picked as (
    select testbed_id, variant, held_out, translator_id, refset, pool_size, level, unit,
           case when doc_cumulative and level = 'doc' then cum_hits else hits end as hits,
           case when doc_cumulative and level = 'doc' then cum_triples else triples end
               as triples
    from cumulated
),
final as (
    select *, case when triples > 0 then hits / triples end as queen
    from picked
)
select * from final;
