-- The segment scores of each (test bed, metric, system, reference set, variant) against
-- human references, as one list in segment order: what the mirror's bootstrap intervals
-- (sys_interval) resample.  $1: the (test bed, metric) pairs asked, each a list [test bed,
-- metric] (null: all): the mirror's parts of sys_interval are per test bed and metric.
with asked as (
    select p[1] as testbed, p[2] as metric
    from unnest($1::varchar[][]) u(p)
)

select testbed, metric, translator, role, refset, variant,
       list(value order by seg_id) as v
from scores
where level = 'seg'
  and refset_kind = 'reference'
  and ($1::varchar[][] is null or (testbed, metric) in (select testbed, metric from asked))
group by all
order by all
