-- The signatures of the scores a table shows: each (metric, signature) of test bed $1 at
-- level $2 (any level when null) against the reference sets $3 under variant $4, for the
-- metrics $5 and the translators $6.
-- The names are turned into ids first and `score_rows` read by them: through the `scores`
-- view (names joined to every score row) it took 0.4 s on a store of 40M scores, 0.05 s so
-- (issue 30).
with ids as (
    select m.metric_id, m.name as metric, t.translator_id, r.refset_id
    from testbed g
    join translator t using (testbed_id)
    join refset r using (testbed_id)
    cross join metric m
    where g.name = $1
      and list_contains($3, r.name)
      and list_contains($5, m.name)
      and list_contains($6, t.name)
)
select distinct i.metric, b.signature
from score_rows s
join ids i using (metric_id, translator_id, refset_id)
join score_batch b using (batch_id)
where (s.level = $2 or $2 is null)
  and s.variant = $4
