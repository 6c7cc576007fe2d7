-- The names of the stored test beds, in ingest order (importers: the default test bed, and a
-- new name checked against the others).
select name from testbed order by testbed_id
