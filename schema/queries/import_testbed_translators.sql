-- The test beds named $names with their translators (name and id; null where a test bed has
-- none): what ulcdb.interchange.load resolves one import's test beds and references by, in
-- one query instead of one per test bed and part (issue 30).
select b.name, b.testbed_id, t.name, t.translator_id
from testbed b
left join translator t using (testbed_id)
where list_contains($names, b.name)
order by b.testbed_id, t.translator_id
