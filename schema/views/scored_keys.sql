-- Keys (metric, target, reference set, variant) that scoring counts as done: a system score
-- is stored, or imported scores at any level (imported keys are never recomputed).
create or replace view scored_keys as
select metric_id, translator_id, refset_id, variant from sys_score
union
select metric_id, translator_id, refset_id, variant from imported_keys
