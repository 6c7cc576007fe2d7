-- Each mt-metrics-eval file's lines DuckDB read (_mtme_cells), in file order: what the
-- import's parts are planned by (ulcdb.formats.mtme_fast).
select f.file_no, count(c.file_no) as n
from _mtme_files f
left join _mtme_cells c using (file_no)
group by f.file_no
order by f.file_no
