-- The set of kind $1 named $2 that a command on test bed $3 means (the test bed's own set
-- first, then a global one): its id and its members in order (an empty list when it has
-- none); no row when the store holds no such set.
select s.set_id,
       coalesce(list(m.member order by m.position) filter (where m.member is not null),
                []::varchar[]) as members
from named_set s
left join named_set_member m using (set_id)
where s.kind = $1
  and s.name = $2
  and (s.testbed_id = $3 or s.testbed_id is null)
group by s.set_id, s.testbed_id
order by s.testbed_id nulls last
limit 1
