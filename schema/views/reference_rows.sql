-- Reference-vs-reference scores that a release stores only as a human system's scores, read
-- as the reference's own: target = the reference, refset = what the system was scored
-- against.  WMT20's metrics task scores reference B against reference A only as system
-- `Human-B.0` against newstest2020 (mt-metrics-eval gives the reference and its system one
-- name, `refb`); QARLA's macros (`queen_hits`, `qarla_values`) read these rows, so QUEEN and
-- KING have x(r', r'').  Nothing else reads them: meta-evaluation and the `scores` view keep
-- the Human-* rows as the system's, as they are stored.
-- Which system is which reference's text: `reference_copies`.
-- Left out: rows against a reference set that holds the reference itself (a self-score, or
-- WMT20 en-de's Human-A.0 / Human-B.0 against newstestM2020, stored as ref-A+ref-B: BLEU 39.1
-- and 36.1, not 100, so not against their own text), and every key the reference has a
-- stored score of (a stored score is never shadowed).
-- Columns as `stored_scores`'; from_id is the human system the row is stored under.
create or replace view reference_rows as
with moved as (
    select u.metric_id, c.translator_id, u.refset_id, u.variant, u.level, u.doc_id,
           u.seg_id, u.value, u.batch_id, c.from_id
    from stored_scores u
    join reference_copies c on c.from_id = u.translator_id
    anti join refset_member m on m.refset_id = u.refset_id and m.translator_id = c.translator_id
),
final as (
    select v.*
    from moved v
    anti join stored_scores s on s.translator_id = v.translator_id
     and s.metric_id = v.metric_id and s.refset_id = v.refset_id and s.variant = v.variant
     and s.level = v.level and s.doc_id is not distinct from v.doc_id
     and s.seg_id is not distinct from v.seg_id
)
select * from final;
