-- `ulcdb tune`: the stored segment scores of TINE's components (TINE-L, TINE-A) of every
-- system of test bed $1 under variant $2 against each of the references $3.
select translator, seg_id, doc_id, refset, metric, value
from scores
where testbed = $1
  and level = 'seg'
  and role = 'system'
  and variant = $2
  and list_contains($3, refset)
  and metric in ('TINE-L', 'TINE-A')
