-- The scores (stored and derived) of a metric set at one level with integer keys, as
-- `qarla_scores` gives them but without the test bed: a caller that knows it from the
-- reference set (KING's held-out references) saves a join per score row.
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys); value: the score; x: the
-- score oriented so that higher means more similar (see `qarla_scores`).
-- The rows are those of `score_rows`, read from its parts: the level's own table (seg_score,
-- doc_score or sys_score) and `qarla_extra_rows` (reference rows, and derived metrics' rows
-- when the set can hold one).  With the names and the level known when the query is planned,
-- the other parts drop out of the plan (`score_rows` would keep every part's joins in it).
-- Only doc rows are joined (with their translator and document).
-- Usage: select * from qarla_values(['BLEU', 'NIST'], 'seg');
create or replace macro qarla_values(metric_names, lvl, segs := null) as table
with metrics as (
    select metric_id, higher_is_better
    from metric
    where list_contains(metric_names, name)
),
stored as (
    select metric_id, translator_id, refset_id, variant, null::varchar as doc_id, seg_id, value
    from seg_score
    where lvl = 'seg'
    union all
    select metric_id, translator_id, refset_id, variant, doc_id, null, value
    from doc_score
    where lvl = 'doc'
    union all
    select metric_id, translator_id, refset_id, variant, null, null, value
    from sys_score
    where lvl not in ('seg', 'doc')
    union all
    select * from qarla_extra_rows(metric_names, lvl)
),
picked as (
    select u.variant, u.metric_id, u.translator_id, u.refset_id, u.doc_id,
           u.seg_id, u.value,
           case when m.higher_is_better then u.value else -u.value end as x
    from stored u
    join metrics m using (metric_id)
    where lvl <> 'seg' or segs is null or list_contains(segs, u.seg_id)
),
final as (
    select variant, metric_id, translator_id, refset_id, seg_id as unit, value, x
    from picked
    where lvl = 'seg'
    union all
    select p.variant, p.metric_id, p.translator_id, p.refset_id, d.doc_index,
           p.value, p.x
    from picked p
    join translator t using (translator_id)
    left join document d on d.testbed_id = t.testbed_id and d.doc_id = p.doc_id
    where lvl = 'doc'
    union all
    select variant, metric_id, translator_id, refset_id, 0, value, x
    from picked
    where lvl not in ('seg', 'doc')
)
select * from final;
