-- The metrics with stored system scores, by name: what the mirror's metric sets are made of.
select distinct m.name
from sys_score s
join metric m using (metric_id)
order by m.name
