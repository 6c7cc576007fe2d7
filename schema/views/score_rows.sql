-- Every score by ids, stored and derived: the stored segment, document and system scores
-- (stored_scores) and the backoff/interpolated scores of linguistic metrics (ling_backoff).
-- Every view, macro and exporter that needs scores reads this view, so a derived metric is
-- never missing from one of them.
-- level: seg, doc or sys; doc_id is set at doc level, seg_id at seg level (a segment's
-- document comes from the segment table where a reader needs it).
create or replace view score_rows as
select metric_id, translator_id, refset_id, variant, level, doc_id, seg_id, value, batch_id
from stored_scores
union all
select metric_id, translator_id, refset_id, variant, level,
       case when level = 'doc' then doc_id end as doc_id, seg_id, value, batch_id
from ling_backoff  -- x-b / x-i of linguistic metrics (ULC manual 4.7)
