-- The segment scores of one test bed ($1), metric ($2) and reference set ($3), of one segment
-- ($4) or all (null), at most $5 rows in segment order: what /-/segments of `ulcdb serve`
-- reads from the store on demand (the mirror keeps the segment scores of a few metrics only).
select s.seg_id, s.doc_id, s.translator, s.role, s.variant, s.value
from scores s
where s.level = 'seg'
  and s.testbed = $1
  and s.metric = $2
  and s.refset = $3
  and ($4::integer is null or s.seg_id = $4)
order by s.seg_id, s.role, s.translator, s.variant
limit $5
