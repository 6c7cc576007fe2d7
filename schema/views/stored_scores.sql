-- Every stored score by ids: the one union of segment, document and system scores
-- (seg_score, doc_score, sys_score), without derived ones (`score_rows` adds those). What
-- deletes count, what a test bed's contents count, which provenance rows are in use.
-- level: seg, doc or sys; doc_id is set at doc level, seg_id at seg level.
create or replace view stored_scores as
select metric_id, translator_id, refset_id, variant, 'seg' as level,
       null::varchar as doc_id, seg_id, value, batch_id
from seg_score
union all
select metric_id, translator_id, refset_id, variant, 'doc' as level,
       doc_id, null::integer as seg_id, value, batch_id
from doc_score
union all
select metric_id, translator_id, refset_id, variant, 'sys' as level,
       null::varchar as doc_id, null::integer as seg_id, value, batch_id
from sys_score
