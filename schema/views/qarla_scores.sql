-- Staging for QARLA: the scores (stored and derived, from `score_rows`) of a metric set at
-- one level, with integer keys (QARLA's macros compare many rows; names are joined back at
-- the end).
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys).  value: the score;
-- x: the score oriented so that higher means more similar (negated where the metric's
-- higher_is_better is false; Asiya's error metrics such as -PER are already negative).
-- segs (a list of seg_id, or null) restricts segment rows.  Only doc rows are joined with
-- their document (a join over every segment score cost a third of a KING query).
-- Usage: select * from qarla_scores(['BLEU', 'NIST'], 'seg');
create or replace macro qarla_scores(metric_names, lvl, segs := null) as table
with metrics as (
    select metric_id, higher_is_better
    from metric
    where list_contains(metric_names, name)
),
picked as (
    select t.testbed_id, u.variant, u.metric_id, u.translator_id, u.refset_id, u.doc_id,
           u.seg_id, u.value,
           case when m.higher_is_better then u.value else -u.value end as x
    from score_rows u
    join metrics m using (metric_id)
    join translator t using (translator_id)
    where u.level = lvl
      and (lvl <> 'seg' or segs is null or list_contains(segs, u.seg_id))
),
final as (
    select testbed_id, variant, metric_id, translator_id, refset_id, seg_id as unit, value, x
    from picked
    where lvl = 'seg'
    union all
    select p.testbed_id, p.variant, p.metric_id, p.translator_id, p.refset_id, d.doc_index,
           p.value, p.x
    from picked p
    left join document d on d.testbed_id = p.testbed_id and d.doc_id = p.doc_id
    where lvl = 'doc'
    union all
    select testbed_id, variant, metric_id, translator_id, refset_id, 0, value, x
    from picked
    where lvl not in ('seg', 'doc')
)
select * from final;
