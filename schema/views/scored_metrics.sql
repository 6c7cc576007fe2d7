-- Which metrics have scores (stored or derived, from score_rows) in which test bed and
-- variant: what exports check a selection against and what `ulcdb list metrics --computed`
-- shows.
create or replace view scored_metrics as
select distinct t.testbed_id, m.name as metric, u.variant
from score_rows u
join metric m using (metric_id)
join translator t using (translator_id)
