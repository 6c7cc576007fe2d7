-- Reference-vs-reference scores that a release stores only as a human system's scores, read
-- as the reference's own: target = the reference, refset = what the system was scored
-- against.  WMT20's metrics task scores reference B against reference A only as system
-- `Human-B.0` against newstest2020 (mt-metrics-eval gives the reference and its system one
-- name, `refb`); QARLA's macros (`queen_hits`, `qarla_values`) read these rows, so QUEEN and
-- KING have x(r', r'').  Nothing else reads them: meta-evaluation and the `scores` view keep
-- the Human-* rows as the system's, as they are stored.
-- A system is a reference's copy when it is in its test bed's system set 'human' (the WMT20
-- importer saves it), is named Human-<X>.<n> and the test bed's reference ref-<X> has no
-- other such system (in WMT20, Human-X.0's text is reference X's: parbleu gives it 100
-- against X on every segment of every language pair).
-- Left out: rows against a reference set that holds the reference itself (a self-score, or
-- WMT20 en-de's human rows against newstestM2020, which are not scores against ref-A+ref-B),
-- and every key the reference has a stored score of (a stored score is never shadowed).
-- Columns as `stored_scores`'; from_id is the human system the row is stored under.
create or replace view reference_rows as
with human as (
    select s.testbed_id, m.member as name
    from named_set s
    join named_set_member m using (set_id)
    where s.kind = 'system' and s.name = 'human'
),
copies as (
    select t.translator_id as from_id, r.translator_id
    from translator t
    semi join human h on h.testbed_id = t.testbed_id and h.name = t.name
    join translator r on r.testbed_id = t.testbed_id and r.role = 'reference'
     and r.name = 'ref-' || regexp_extract(t.name, '^Human-([A-Za-z0-9]+)\.[0-9]+$', 1)
    where t.role = 'system'
    qualify count(*) over (partition by r.translator_id) = 1
),
moved as (
    select u.metric_id, c.translator_id, u.refset_id, u.variant, u.level, u.doc_id,
           u.seg_id, u.value, u.batch_id, c.from_id
    from stored_scores u
    join copies c on c.from_id = u.translator_id
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
