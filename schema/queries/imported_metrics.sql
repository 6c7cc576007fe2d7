-- Which of the metrics $3 (names) hold imported scores against the reference set named $2
-- of test bed $1 (commands that use them say so): `imported_score_keys`, narrowed to that
-- reference set's rows.
select distinct m.name
from imported_score_keys(testbed_ids := [$1], refsets := [$2])
join metric m using (metric_id)
where list_contains($3, m.name)
