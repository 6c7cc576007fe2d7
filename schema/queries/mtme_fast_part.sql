-- One part of the mt-metrics-eval lines DuckDB read (_mtme_cells): the lines of the files
-- $first..$last (numbers of _mtme_files) numbered into _mtme_rows, which the view _imp reads
-- (schema/queries/mtme_fast_frame.sql): a system's n-th line of a file is segment
-- (document) n, None a missing score, -0.0 read as 0.0; line: the row's place among the
-- lines DuckDB read of its file (its rowid less the file's first, _mtme_firsts; read_csv
-- leaves blank lines out: ulcdb.formats.mtme_fast.line_of gives the file's line).  The loader
-- holds one part's rows at a time (issue 30, as the WMT files' parts).
create or replace temp table _mtme_rows as
select c.file_no, (c.rowid - s.first_rid + 1)::integer as line, c.system,
       case when f.level <> 'sys' then (row_number() over (
           partition by c.file_no, c.system order by c.rowid))::integer end as seg,
       case when c.score <> 'None' then c.score::double + 0.0 end as value
from _mtme_cells c
join _mtme_files f using (file_no)
join _mtme_firsts s using (file_no)
where c.file_no between $first and $last
