-- Keys (metric, target, reference set, variant; ids) that scoring counts as done: a system
-- score is stored, or imported scores at any level (`imported_score_keys`: imported keys are
-- never recomputed).  testbed_ids (ids), var (one variant) and metric_ids (ids) narrow the
-- rows read as they do there (null: all): one test bed of a store of many reads its own rows.
-- Usage: select * from scored_keys(testbed_ids := [1], var := 'case:mixed', metric_ids := [3]);
create or replace macro scored_keys(testbed_ids := null, var := null, metric_ids := null)
as table
select s.metric_id, s.translator_id, s.refset_id, s.variant
from sys_score s
join refset r using (refset_id)
where (testbed_ids is null or list_contains(testbed_ids, r.testbed_id))
  and (var is null or s.variant = var)
  and (metric_ids is null or list_contains(metric_ids, s.metric_id))
union
select metric_id, translator_id, refset_id, variant
from imported_score_keys(testbed_ids := testbed_ids, var := var, metric_ids := metric_ids)
