-- The signatures of the scores a table shows: each (metric, signature) of test bed $1 at
-- level $2 (any level when null) against the reference sets $3 under variant $4, for the
-- metrics $5 and the translators $6.
select distinct s.metric, b.signature
from scores s
join score_batch b using (batch_id)
where s.testbed = $1
  and (s.level = $2 or $2 is null)
  and list_contains($3, s.refset)
  and s.variant = $4
  and list_contains($5, s.metric)
  and list_contains($6, s.translator)
