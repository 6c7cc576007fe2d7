-- The stored segment scores per metric that the SQLite mirror would keep (those against the
-- full reference set or one reference, as mirror_scores.sql keeps them), largest first: what
-- the mirror's budget of segment rows is spent on.
select m.name as metric, count(*) as n
from seg_score s
join metric m using (metric_id)
join stg_refset r using (refset_id)
where r.refset_kind = 'reference'
  and (r.size = 1 or r.size = (select max(x.size) from stg_refset x
                               where x.testbed = r.testbed and x.refset_kind = 'reference'))
group by m.name
