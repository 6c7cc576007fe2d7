-- The stored metric sets the SQLite mirror materialises ULC, QUEEN and KING for, in the order
-- they were defined, each with its members in order (a set without members is left out).
select s.name, list(m.member order by m.position) as members
from named_set s
join named_set_member m using (set_id)
where s.kind = 'metric'
group by s.set_id, s.name
order by s.set_id
