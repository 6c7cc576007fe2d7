-- The reference sets of test bed $1 (an id) against which the metrics named $2 hold imported
-- scores, per level and variant, with the files they came from (score_batch.origin): what a
-- message about a metric's missing scores names when ulcdb cannot compute it
-- (ulcdb.scoring.remedy).  Read on an error path only.
with chosen_refsets as (
    select refset_id, name from refset where testbed_id = $1
),
wanted as (
    select metric_id, name from metric where list_contains($2, name)
),
imported as (
    select batch_id, origin from score_batch where origin <> 'computed'
),
keys as (
    select distinct metric_id, refset_id, level, variant, batch_id
    from stored_scores
    semi join chosen_refsets using (refset_id)
    semi join wanted using (metric_id)
),
final as (
    select w.name as metric, r.name as refset, k.level, k.variant, i.origin
    from keys k
    join wanted w using (metric_id)
    join chosen_refsets r using (refset_id)
    join imported i using (batch_id)
)
select distinct metric, refset, level, variant, origin
from final
order by metric, refset, level, variant, origin
