-- Keys (metric, target, reference set, variant) that hold imported scores at any level:
-- rows whose batch names the file they came from (origin other than 'computed').
-- Scoring never writes, replaces or deletes scores under these keys (imported scores are
-- used as they are); origins lists the files, for the notes commands print.
create or replace view imported_keys as
with imported as (
    select batch_id, origin from score_batch where origin <> 'computed'
),
keys as (
    select distinct metric_id, translator_id, refset_id, variant, batch_id
    from stored_scores semi join imported using (batch_id)
)
select k.metric_id, k.translator_id, k.refset_id, k.variant,
       list(distinct i.origin order by i.origin) as origins
from keys k join imported i using (batch_id)
group by all
