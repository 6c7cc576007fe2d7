-- The metrics each file of one import (_imp_res) gives a score of, by file and name: the
-- provenance each file's score batch records.
select distinct r.file_no, m.name
from _imp_res r
join metric m using (metric_id)
where r.value is not null
order by 1, 2
