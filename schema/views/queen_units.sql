-- QUEEN per unit of a level with integer keys (what `queen` and `king_quality` read): the
-- counts of `queen_hits` (which documents its parameters) summed over the unit's segments.
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys); lvl 'all' gives the rows of
-- the three levels (column level), from one computation: segment rows pass through as they
-- are, documents and the system are summed.
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
seg_units as (  -- a segment is its own unit: its row as it is, no aggregation
    select testbed_id, variant, held_out, translator_id, refset, pool_size, 'seg' as level,
           seg_id as unit, hits, triples
    from hits
    where lvl in ('all', 'seg')
),
doc_units as (  -- refset and pool_size follow from (held_out, translator_id)
    select h.testbed_id, h.variant, h.held_out, h.translator_id,
           any_value(h.refset) as refset, any_value(h.pool_size) as pool_size, 'doc' as level,
           d.doc_index as unit, sum(h.hits) as hits, sum(h.triples) as triples
    from hits h
    join segment g using (testbed_id, seg_id)
    join document d on d.testbed_id = g.testbed_id and d.doc_id = g.doc_id
    where lvl in ('all', 'doc')
    group by h.testbed_id, h.variant, h.held_out, h.translator_id, d.doc_index
),
sys_units as (
    select testbed_id, variant, held_out, translator_id,
           any_value(refset) as refset, any_value(pool_size) as pool_size,
           case when lvl = 'all' then 'sys' else lvl end as level,
           0 as unit, sum(hits) as hits, sum(triples) as triples
    from hits
    where lvl not in ('seg', 'doc')
    group by testbed_id, variant, held_out, translator_id
),
per_unit as (
    select * from seg_units
    union all select * from doc_units
    union all select * from sys_units
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
