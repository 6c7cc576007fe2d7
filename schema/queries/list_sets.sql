-- `ulcdb list sets` (after the built-in metric sets): every named set the store holds, with
-- its test bed ('*': any), kind, name and members in their order.
select coalesce(tb.name, '*') as testbed, s.kind, s.name,
       list(m.member order by m.position) as members
from named_set s
left join testbed tb using (testbed_id)
join named_set_member m using (set_id)
group by all
order by all
