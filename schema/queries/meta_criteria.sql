-- The criteria of the human assessments of test bed $1, by name.
select distinct criterion
from assessments
where testbed = $1
order by criterion
