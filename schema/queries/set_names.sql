-- The names of the stored sets of kind $1 that a command on test bed $2 sees (the test bed's
-- own and the global ones): a new set named like one of them but for case is refused.
select distinct name from named_set
where kind = $1 and (testbed_id = $2 or testbed_id is null)
order by name
