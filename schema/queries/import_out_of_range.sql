-- The first score of one import (_imp_res) outside the catalogue range of its metric, in
-- file order: the metric, the value and the range.
select i.file_no, i.line, m.name, i.value, m.range_min, m.range_max
from _imp_res i
join metric m using (metric_id)
where i.value < m.range_min or i.value > m.range_max
order by i.file_no, i.line
limit 1
