-- The other test beds than $1 (an id) where the metrics named $2 hold imported scores, with
-- the files they came from (score_batch.origin): what a message about a metric's missing
-- scores names when the metric was imported for another test bed only
-- (ulcdb.scoring.remedy).  Read on an error path only.
with wanted as (
    select metric_id, name from metric where list_contains($2, name)
),

imported as (
    select batch_id, origin from score_batch where origin <> 'computed'
),

other_refsets as (
    select r.refset_id, b.name as testbed
    from refset r
    join testbed b using (testbed_id)
    where r.testbed_id <> $1
),

keys as (
    select distinct metric_id, refset_id, batch_id
    from stored_scores
    semi join wanted using (metric_id)
),

final as (
    select w.name as metric, o.testbed, i.origin
    from keys k
    join wanted w using (metric_id)
    join other_refsets o using (refset_id)
    join imported i using (batch_id)
)

select distinct metric, testbed, origin
from final
order by metric, testbed, origin
