-- The mt-metrics-eval lines DuckDB read (_mtme_cells) as the score rows of one import (_imp,
-- the columns of ulcdb.interchange.model.FRAME_SCHEMA and rid), one part of the files at a
-- time: _mtme_rows holds the numbered lines of the part's files
-- (schema/queries/mtme_fast_part.sql fills it; empty here).  line: the row's place among
-- the lines DuckDB read of its file, which ulcdb.formats.mtme_fast.line_of turns into the
-- file's line where the loader names one.
create or replace temp table _mtme_rows (file_no integer, line integer, system varchar,
                                         seg integer, value double);

create or replace temp view _imp as
select r.file_no, r.line, f.testbed, f.metric, n.target, f.refs, f.level,
       null::varchar as doc_id, r.seg, null::varchar as in_doc, r.value, r.rowid as rid
from _mtme_rows r
join _mtme_files f using (file_no)
join _mtme_names n using (system);
