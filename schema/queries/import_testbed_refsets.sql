-- The reference sets (test bed id, name, id) of the test beds named $names: those one import
-- finds stored, in one query instead of one per reference set and part (issue 30).
select r.testbed_id, r.name, r.refset_id
from refset r
join testbed b using (testbed_id)
where list_contains($names, b.name)
