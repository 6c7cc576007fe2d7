-- ULC of the metrics $1 at level $2, normalised by method $3 ('asiya' or 'raw') over the
-- systems $4, for test bed $5, reference set $6 and variant $7 (the ulc macro).
select translator, doc_id, seg_id, ulc
from ulc($1, $2, method := $3, systems := $4)
where testbed = $5
  and refset = $6
  and variant = $7
