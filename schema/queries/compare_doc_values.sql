-- `ulcdb compare --unit doc` on a metric without segment scores: the document scores of
-- metric $2 against the reference set $3 under variant $4 of the translators $5 in test bed
-- $1 (missing values left out).
select translator, doc_id, value
from scores
where testbed = $1
  and metric = $2
  and refset = $3
  and variant = $4
  and level = 'doc'
  and list_contains($5, translator)
  and value is not null
