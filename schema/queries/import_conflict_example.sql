-- The first (by names) metric, target and reference set whose stored scores differ from one
-- import's (_imp_keys where differs), to name in the conflict.
select m.name, t.name, r.name
from _imp_keys k
join metric m using (metric_id)
join translator t using (translator_id)
join refset r using (refset_id)
where k.differs
order by 1, 2, 3
limit 1
