-- The rows of WMT metrics-task score files (`ulcdb export wmt`): the scores `export_scores`
-- selects (stored and derived, one variant and level; an empty list selects all) that have
-- a value, with the language pair (the test-bed name without languages), the test set (the
-- test-bed name without a ':LP' ending), the reference set (members joined with '+'), and a
-- segment's document and position in it.
-- Usage: select * from wmt_export('case:mixed', 'seg', [], ['BLEU'], [], []);
create or replace macro wmt_export(var, lvl, testbeds, metrics, targets, refsets) as table
with scores as (
    select * from export_scores(var, [lvl], testbeds, metrics, targets, refsets)
    where value is not null
),

located as (
    select x.metric, coalesce(tb.src_lang || '-' || tb.tgt_lang, tb.name) as lp,
           x.testbed, array_to_string(x.refs, '+') as refset, x.target,
           coalesce(x.doc_id, s.doc_id) as doc_id, s.seg_in_doc, x.value
    from scores x
    join testbed tb on tb.name = x.testbed
    left join segment s on s.testbed_id = tb.testbed_id and s.seg_id = x.seg_id
),

final as (
    select *, case when ends_with(testbed, ':' || lp)
                   then left(testbed, length(testbed) - length(lp) - 1)
                   else testbed end as testset
    from located
)

select * from final
