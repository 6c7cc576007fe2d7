-- QUEEN_{X,R}(a) (IQMT manual 3.1.1): the share of reference triples <r, r', r''> for which
-- every metric x in X has x(a, r) >= x(r', r'').  seg: hits / triples of the segment;
-- doc: over the document's segments; sys: all hits / all triples; all: the three levels.
-- Targets are the systems and the references, each reference against the other references
-- (refset: the references its triples came from).  Parameters: see `queen_hits` (refs,
-- systems, strict, trans_topic, segs) and `queen_units` (doc_cumulative: Asiya 3.0's
-- cumulative document QUEEN).
-- Needs 3+ references (ulcdb.qarla.measures checks it).
-- Usage: select * from queen(['BLEU', 'NIST'], 'sys');
--        select * from queen(['BLEU', 'NIST', 'GTM-2'], 'seg', strict := true);
create or replace macro queen(metric_names, lvl, refs := null, systems := null, strict := false,
                              trans_topic := false, segs := null, doc_cumulative := false,
                              testbeds := null)
as table
with units as (
    select * from queen_units(metric_names, lvl, refs := refs, systems := systems,
                              strict := strict, trans_topic := trans_topic, segs := segs,
                              doc_cumulative := doc_cumulative, testbeds := testbeds)
),
final as (
    select
        tb.name as testbed,
        u.variant,
        t.name as translator,
        t.role,
        u.refset,
        u.level,
        coalesce(g.doc_id, d.doc_id) as doc_id,
        case when u.level = 'seg' then u.unit end as seg_id,
        u.hits,
        u.triples,
        u.queen
    from units u
    join translator t using (translator_id)
    join testbed tb on tb.testbed_id = u.testbed_id
    left join segment g on u.level = 'seg' and g.testbed_id = u.testbed_id and g.seg_id = u.unit
    left join document d on u.level = 'doc' and d.testbed_id = u.testbed_id
     and d.doc_index = u.unit
)
select * from final;
