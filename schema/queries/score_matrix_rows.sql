-- The cells of `ulcdb score`'s table: the scores of test bed $1 at level $2 against the
-- reference set $3 under variant $4, for the metrics $5 and the translators $6.
select translator, doc_id, seg_id, metric, value
from scores
where testbed = $1
  and level = $2
  and refset = $3
  and variant = $4
  and list_contains($5, metric)
  and list_contains($6, translator)
