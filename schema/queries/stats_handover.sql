-- Before the segment scores under the keys of the temp table _stats_going (metric_id,
-- translator_id, refset_id, variant) are deleted: each carrier among them (a row whose
-- statistics other metrics of its computation read, see views/seg_stats.sql) hands its
-- statistics to the metric of the same computation with the lowest id that stays and reads
-- them (its rows hold empty lists), which becomes the carrier.  Nothing when no carrier goes.
update seg_score s
set stats = h.stats
from (
    with going as (
        select s.*
        from seg_score s
        semi join _stats_going g using (metric_id, translator_id, refset_id, variant)
        where len(s.stats) > 0
    ),
    computations as (
        select distinct batch_id, translator_id, refset_id, variant from going
    ),
    heirs as (
        select r.batch_id, r.translator_id, r.refset_id, r.variant,
               min(r.metric_id) as metric_id
        from seg_score r
        semi join computations c using (batch_id, translator_id, refset_id, variant)
        anti join _stats_going g using (metric_id, translator_id, refset_id, variant)
        where len(r.stats) = 0
        group by all
    )
    select h.metric_id, g.batch_id, g.translator_id, g.refset_id, g.variant, g.seg_id,
           g.stats
    from heirs h
    join going g using (batch_id, translator_id, refset_id, variant)
) h
where s.metric_id = h.metric_id and s.batch_id = h.batch_id
  and s.translator_id = h.translator_id and s.refset_id = h.refset_id
  and s.variant = h.variant and s.seg_id = h.seg_id
