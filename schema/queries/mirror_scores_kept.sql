-- Every row of `scores` with whether the SQLite mirror keeps it (mirror_kept: the condition
-- of mirror_scores.sql, same parameters): one pass over the view fingerprints both the kept
-- rows per batch and all rows per test bed and metric (what the analyses read).
select s.*,
       coalesce(not list_contains($1::varchar[], s.metric)
                and s.refset_kind = 'reference'
                and (r.size = 1 or r.size = (select max(x.size) from stg_refset x
                                             where x.testbed = s.testbed
                                               and x.refset_kind = 'reference'))
                and (s.level <> 'seg' or list_contains($2::varchar[], s.metric))
                and (s.level <> 'doc' or list_contains($3::varchar[], s.metric)),
                false) as mirror_kept
from scores s
left join stg_refset r on r.testbed = s.testbed and r.refset = s.refset
