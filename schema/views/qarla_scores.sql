-- Staging for QARLA: the scores (stored and derived) of a metric set at one level, with
-- integer keys (QARLA's macros compare many rows; names are joined back at the end).
-- unit: seg_id (seg), the document's doc_index (doc) or 0 (sys).  value: the score;
-- x: the score oriented so that higher means more similar (negated where the metric's
-- higher_is_better is false; Asiya's error metrics such as -PER are already negative).
-- segs (a list of seg_id, or null) restricts segment rows.
-- The rows are `qarla_values`' (which documents how the score tables are read), with the
-- test bed of the target.
-- Usage: select * from qarla_scores(['BLEU', 'NIST'], 'seg');
create or replace macro qarla_scores(metric_names, lvl, segs := null) as table
with final as (
    select t.testbed_id, v.*
    from qarla_values(metric_names, lvl, segs := segs) v
    join translator t using (translator_id)
)
select * from final;
