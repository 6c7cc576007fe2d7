-- The stored scores of level $1 (seg or doc) per metric that the SQLite mirror would keep
-- (those against the full reference set or one reference, as mirror_scores.sql keeps them):
-- what the mirror's budgets of segment and document rows are spent on.
select m.name as metric, count(*) as n
from stored_scores s
join metric m using (metric_id)
join stg_refset r using (refset_id)
where s.level = $1
  and r.refset_kind = 'reference'
  and (r.size = 1 or r.size = (select max(x.size) from stg_refset x
                               where x.testbed = r.testbed and x.refset_kind = 'reference'))
group by m.name
order by m.name
