-- `ulcdb compare`: the segment scores of metric $2 against the reference set $3 under
-- variant $4 of the translators $5 in test bed $1 (missing values left out).
select translator, seg_id, doc_id, value
from scores
where testbed = $1
  and metric = $2
  and refset = $3
  and variant = $4
  and level = 'seg'
  and list_contains($5, translator)
  and value is not null
