-- `ulcdb describe METRIC` (after the built-in sets): the names of the stored metric sets
-- that hold metric $1.
select distinct s.name
from named_set s
join named_set_member m using (set_id)
where s.kind = 'metric'
  and m.member = $1
order by 1
