-- The metrics with scores (stored or derived) in test bed $1, by name: where `ulcdb compare
-- --analysis category` finds the per-category metrics FAMILY-t.
select distinct metric
from scores
where testbed = $1
order by metric
