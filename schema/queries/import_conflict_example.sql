-- The first row in file order (file_no, line) of one import (_imp_res) at level $level whose
-- key (metric, target, reference set) is stored under variant $variant with other values
-- (_imp_keys where differs): a row whose value differs from the stored one where there is
-- one, else the key's first row; with names, to say where and what the conflict is.
with differing as (
    select metric_id, translator_id, refset_id
    from _imp_keys
    where differs
),

imported as (
    select r.metric_id, r.translator_id, r.refset_id, r.file_no, r.line, r.value,
           s.value as stored
    from _imp_res r
    join differing using (metric_id, translator_id, refset_id)
    left join stored_scores s
        on s.metric_id = r.metric_id and s.translator_id = r.translator_id
       and s.refset_id = r.refset_id and s.level = $level and s.variant = $variant
       and s.seg_id is not distinct from r.seg_id and s.doc_id is not distinct from r.doc_id
    where r.level = $level and r.value is not null
),

final as (
    select m.name as metric, t.name as target, f.name as refset, i.file_no, i.line,
           i.stored, i.value
    from imported i
    join metric m using (metric_id)
    join translator t using (translator_id)
    join refset f using (refset_id)
    order by i.stored is not distinct from i.value, i.file_no, i.line nulls last, 1, 2, 3
    limit 1
)

select * from final
