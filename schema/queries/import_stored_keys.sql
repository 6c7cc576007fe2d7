-- _imp_keys: the keys (metric, target, reference set) of one import (_imp_res) at level
-- $level already stored under variant $variant, each flagged differs unless the stored
-- units and values equal the file's exactly (rows marked missing, value null, left out).
create or replace temp table _imp_keys as
with imported as (
    select metric_id, translator_id, refset_id, seg_id, doc_id, value
    from _imp_res
    where level = $level and value is not null
),

stored as (
    select s.metric_id, s.translator_id, s.refset_id, s.seg_id, s.doc_id, s.value
    from stored_scores s
    where s.level = $level and s.variant = $variant
      and exists (select 1 from _imp_res r
                  where r.level = $level and r.metric_id = s.metric_id
                    and r.translator_id = s.translator_id and r.refset_id = s.refset_id)
),

diff as (
    (from imported except all from stored)
    union all
    (from stored except all from imported)
),

final as (
    select distinct metric_id, translator_id, refset_id,
           exists (select 1 from diff d
                   where d.metric_id = s.metric_id and d.translator_id = s.translator_id
                     and d.refset_id = s.refset_id) as differs
    from stored s
)

select * from final
