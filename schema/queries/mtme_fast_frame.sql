-- The mt-metrics-eval lines DuckDB read (_mtme_cells) as the score rows of one import (_imp,
-- the columns of ulcdb.interchange.model.FRAME_SCHEMA and rid): a system's n-th line of a
-- file is segment (document) n, None a missing score, -0.0 read as 0.0 (_mtme_rows holds
-- the numbered lines once).  No line numbers: a problem the loader finds sends the files
-- to the line-by-line reader.
create or replace temp table _mtme_rows as
select c.file_no, c.system,
       case when f.level <> 'sys' then (row_number() over (
           partition by c.file_no, c.system order by c.rowid))::integer end as seg,
       case when c.score <> 'None' then c.score::double + 0.0 end as value
from _mtme_cells c
join _mtme_files f using (file_no);

create or replace temp view _imp as
select r.file_no, null::integer as line, f.testbed, f.metric, n.target, f.refs, f.level,
       null::varchar as doc_id, r.seg, null::varchar as in_doc, r.value, r.rowid as rid
from _mtme_rows r
join _mtme_files f using (file_no)
join _mtme_names n using (system);
