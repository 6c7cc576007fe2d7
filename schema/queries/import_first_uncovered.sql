-- The first unit of test bed $tid that the $level scores of one import (_imp_res) of
-- metric $metric_id, target $translator_id and reference set $refset_id leave out: a
-- segment (id, document, position in it) at seg level, a document at doc level.
with covered as (
    select seg_id, doc_id
    from _imp_res
    where level = $level and metric_id = $metric_id and translator_id = $translator_id
      and refset_id = $refset_id
),

uncovered as (
    select s.seg_id as ord, s.seg_id, s.doc_id, s.seg_in_doc
    from segment s
    where $level = 'seg' and s.testbed_id = $tid
      and not exists (select 1 from covered c where c.seg_id = s.seg_id)
    union all
    select d.doc_index, null, d.doc_id, null
    from document d
    where $level = 'doc' and d.testbed_id = $tid
      and not exists (select 1 from covered c where c.doc_id = d.doc_id)
)

select seg_id, doc_id, seg_in_doc
from uncovered
order by ord
limit 1
