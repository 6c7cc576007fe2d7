-- The segment scores of each (test bed, metric, system, reference set, variant) against
-- human references, as one list in segment order: what the mirror's bootstrap intervals
-- (sys_interval) resample.  The mirror's parts of sys_interval are per test bed and metric:
-- it reads those of some only inside `pairs_slice` (ulcdb.serve.mirror_analyses), where
-- `scores` holds their rows.
select testbed, metric, translator, role, refset, variant,
       list(value order by seg_id) as v
from scores
where level = 'seg'
  and refset_kind = 'reference'
group by all
order by all
