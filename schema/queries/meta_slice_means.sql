-- The means of the segment scores ($7: 'seg') of the metrics of the list $4 on test bed $2
-- against reference set $3, over the segments of the list $5, of variant $6 (any when null):
-- one per metric, variant and target, and per document too when $1 is 'doc' (else doc_id
-- is null).
select metric, variant, translator, case when $1 = 'doc' then doc_id end as doc_id,
       avg(value) as value
from scores
where testbed = $2
  and refset = $3
  and level = $7
  and list_contains($4, metric)
  and seg_id in (select unnest($5::integer[]))
  and ($6::varchar is null or variant = $6)
  and value is not null
group by all
