-- The first row (file order) of WMT metrics-task files read by Arrow (raw) holding a number
-- the store refuses: a NaN or infinite score, or a segment ($1: 'seg') numbered below 1 or
-- not at all.
select file_no, line, value, seg
from raw
where isnan(value)
   or isinf(value)
   or (level = $1 and (seg is null or seg < 1))
order by file_no, line
limit 1
