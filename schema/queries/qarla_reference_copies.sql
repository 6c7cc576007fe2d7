-- The systems of the list $2 in test bed $1 that are the text of a reference of the list $3
-- (`reference_copies`): system, reference, in the references' order.
select s.name as system, r.name as reference
from reference_copies c
join translator s on s.translator_id = c.from_id
join translator r on r.translator_id = c.translator_id
join testbed t on t.testbed_id = s.testbed_id
where t.name = $1
  and list_contains($2, s.name)
  and list_contains($3, r.name)
order by r.name
