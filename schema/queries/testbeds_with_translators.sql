-- The test beds other than the one of id $1 that hold every name of the list $2 (of $3
-- distinct names) as a system or reference, by name.
select b.name
from testbed b
join translator t using (testbed_id)
where b.testbed_id <> $1
  and list_contains($2, t.name)
group by b.name
having count(*) = $3
order by b.name
