-- Every row of `score_rows` (the scores by ids) with the names `scores` gives it and whether
-- the SQLite mirror keeps it (mirror_kept: the condition of mirror_scores.sql, same
-- parameters): one pass fingerprints both the kept rows per batch and all rows per test bed
-- and metric (what the analyses read).  Without the segment join of `scores` (a segment
-- row's document: the mirror fingerprints the segment table on its own), which cost a third
-- of the pass.
with widest as (
    select testbed, max(size) as size
    from stg_refset
    where refset_kind = 'reference'
    group by testbed
),
refsets as (
    select r.*, r.size = w.size as widest
    from stg_refset r
    left join widest w using (testbed)
)
select u.*, r.testbed, r.refset, r.refset_kind, m.name as metric, m.higher_is_better,
       t.name as translator, t.role,
       coalesce(not list_contains($1::varchar[], m.name)
                and r.refset_kind = 'reference'
                and (r.size = 1 or r.widest)
                and (u.level <> 'seg' or list_contains($2::varchar[], m.name))
                and (u.level <> 'doc' or list_contains($3::varchar[], m.name)),
                false) as mirror_kept
from score_rows u
join metric m using (metric_id)
join refsets r using (refset_id)
join translator t using (translator_id)
