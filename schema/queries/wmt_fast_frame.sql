-- The WMT rows DuckDB read (_wmt_rows, _wmt_keys) of the language pairs imported (_wmt_lps)
-- as the score rows of one import (_imp over one part of the files' rows, _wmt_part, which
-- schema/queries/wmt_fast_part.sql fills; empty here; the columns of ulcdb.interchange.model.FRAME_SCHEMA
-- and rid), names mapped by _wmt_testbeds, _wmt_metrics and _wmt_refsets
-- (schema/queries/wmt_fast_maps.sql) once per distinct key (_wmt_named).  No line numbers:
-- a problem the loader finds sends the files to the line-by-line reader.
create or replace temp table _wmt_named as
select k.key_id, t.testbed, m.name as metric, k.system as target, s.refs
from _wmt_keys k
left join _wmt_testbeds t on t.testset = k.testset and t.lp = k.lp
left join _wmt_metrics m on m.metric = k.metric
left join _wmt_refsets s on s.refset = k.refset
where k.lp in (select lp from _wmt_lps);

create or replace temp table _wmt_part as
select file_no, key_id, doc_id, seg, value, rowid as rid
from _wmt_rows
limit 0;

create or replace temp view _imp as
select r.file_no, null::integer as line, n.testbed, n.metric, n.target, n.refs, f.level,
       r.doc_id, r.seg, null::varchar as in_doc, r.value, r.rid
from _wmt_part r
join _wmt_named n using (key_id)
join _wmt_files f using (file_no);
