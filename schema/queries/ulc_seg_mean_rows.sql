-- ULC of the metrics $1 at level $2 ('doc' or 'sys') as the mean of its segment values
-- (normalised over the systems $3), for test bed $4, reference set $5 and variant $6 (the
-- ulc_seg_mean macro).
select translator, doc_id, seg_id, ulc
from ulc_seg_mean($1, $2, systems := $3)
where testbed = $4
  and refset = $5
  and variant = $6
