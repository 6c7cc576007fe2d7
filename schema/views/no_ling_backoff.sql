-- `ling_backoff`'s columns and no row: what `qarla_extra_rows` reads instead of it when no
-- name of the metric set can be a derived metric's, so that the query does not plan it
-- (planning `ling_backoff` costs about 1.3 ms each time a QARLA macro reads it).
create or replace view no_ling_backoff as
select metric_id, translator_id, refset_id, variant, 'seg' as level, null::varchar as doc_id,
       seg_id, value, batch_id
from seg_score
where false;
