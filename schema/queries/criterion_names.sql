-- The criteria of test bed $tid (its human assessments and recorded scales): a new criterion
-- is checked against them ('da' beside 'DA' is refused, as a translator's look-alike is).
select distinct criterion as name from assessment where testbed_id = $tid
union
select name from criterion where testbed_id = $tid
order by name
