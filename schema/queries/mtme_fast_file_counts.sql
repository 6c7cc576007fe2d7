-- Each mt-metrics-eval file's lines DuckDB read (_mtme_cells) and those with a score (not
-- None), in file order: what the import's parts are planned by (ulcdb.formats.mtme_fast),
-- and by whose sums the loader refuses an import whose every score is None before it makes
-- a part.
select f.file_no, count(c.file_no) as n, count(c.file_no) filter (c.score <> 'None') as valued
from _mtme_files f
left join _mtme_cells c using (file_no)
group by f.file_no
order by f.file_no
