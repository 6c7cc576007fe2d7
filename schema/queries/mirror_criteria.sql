-- The human criteria of every test bed the SQLite mirror meta-evaluates (one row per test bed
-- with assessments, its criteria sorted): one pass over the assessments, not one per test bed.
select testbed, list_sort(list(distinct criterion)) as criteria
from assessments
group by testbed
