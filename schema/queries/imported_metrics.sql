-- Which of the metrics $3 hold imported scores against the reference set named $2 of test
-- bed $1 (commands that use them say so).
select distinct m.name
from imported_keys k
join metric m using (metric_id)
join refset r using (refset_id)
where r.testbed_id = $1
  and r.name = $2
  and list_contains($3, m.name)
