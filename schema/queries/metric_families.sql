-- The family of each metric named in $1 (what `ulcdb score` on a terminal picks its columns
-- by: one metric of each family in turn).
select name, family
from metric
where list_contains($1, name)
