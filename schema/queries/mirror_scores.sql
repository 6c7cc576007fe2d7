-- The rows of `scores` the SQLite mirror keeps: system scores of every metric, segment scores
-- only of the metrics $2 and document scores only of the metrics $3 (those browsing shows,
-- within the mirror's budgets of rows: every metric's document scores on stores up to 1M),
-- always against the full reference set or one reference (the leave-one-out sets KING needs
-- and the system-vs-system scores JACK needs stay in the store), and no rows of the derived
-- metrics $1 (the x-b / x-i variants of metrics outside the mirrored metric sets).
select s.*
from scores s
join stg_refset r on r.testbed = s.testbed and r.refset = s.refset
where not list_contains($1::varchar[], s.metric)
  and s.refset_kind = 'reference'
  and (r.size = 1 or r.size = (select max(x.size) from stg_refset x
                               where x.testbed = s.testbed
                                 and x.refset_kind = 'reference'))
  and (s.level <> 'seg' or list_contains($2::varchar[], s.metric))
  and (s.level <> 'doc' or list_contains($3::varchar[], s.metric))
