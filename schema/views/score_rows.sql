-- Every score by ids, stored and derived: the one union of segment, document and system
-- scores (seg_score, doc_score, sys_score) and of the backoff/interpolated scores of
-- linguistic metrics (ling_backoff). Every view, macro and exporter that needs scores reads
-- this view, so a derived metric is never missing from one of them.
-- level: seg, doc or sys; doc_id is set at doc level, seg_id at seg level (a segment's
-- document comes from the segment table where a reader needs it).
create or replace view score_rows as
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
union all
select metric_id, translator_id, refset_id, variant, level,
       case when level = 'doc' then doc_id end as doc_id, seg_id, value, batch_id
from ling_backoff  -- x-b / x-i of linguistic metrics (ULC manual 4.7)
