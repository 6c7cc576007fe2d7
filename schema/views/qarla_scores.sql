-- Staging for QARLA: the scores (stored and derived, from `score_rows`) of a metric set at
-- one level, with integer keys (QARLA's macros compare many rows; names are joined back at
-- the end).
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys).  value: the score;
-- x: the score oriented so that higher means more similar (negated where the metric's
-- higher_is_better is false; Asiya's error metrics such as -PER are already negative).
-- segs (a list of seg_id, or null) restricts segment rows.
-- Usage: select * from qarla_scores(['BLEU', 'NIST'], 'seg');
create or replace macro qarla_scores(metric_names, lvl, segs := null) as table
with metrics as (
    select metric_id, higher_is_better
    from metric
    where list_contains(metric_names, name)
),
picked as (
    select u.*
    from score_rows u
    semi join metrics m using (metric_id)
    where u.level = lvl
      and (lvl <> 'seg' or segs is null or list_contains(segs, u.seg_id))
),
final as (
    select
        t.testbed_id,
        u.variant,
        u.metric_id,
        u.translator_id,
        u.refset_id,
        case u.level when 'seg' then u.seg_id when 'doc' then d.doc_index else 0 end as unit,
        u.value,
        case when m.higher_is_better then u.value else -u.value end as x
    from picked u
    join metrics m using (metric_id)
    join translator t using (translator_id)
    left join document d on d.testbed_id = t.testbed_id and d.doc_id = u.doc_id
)
select * from final;
