-- The segment scores of each (test bed, metric, system, reference set, variant) against
-- human references, as one list in segment order: what the mirror's bootstrap intervals
-- (sys_interval) resample.  $1: the metrics (null: all).
select testbed, metric, translator, role, refset, variant,
       list(value order by seg_id) as v
from scores
where level = 'seg'
  and refset_kind = 'reference'
  and ($1::varchar[] is null or list_contains($1::varchar[], metric))
group by all
order by all
