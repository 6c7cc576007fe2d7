-- The WMT rows DuckDB read (_wmt_raw) of the language pairs imported (_wmt_lps) as the score rows of one
-- import (_imp, the columns of ulcdb.interchange.model.FRAME_SCHEMA and rid), names mapped
-- by _wmt_testbeds, _wmt_metrics and _wmt_refsets (schema/queries/wmt_fast_maps.sql).  No
-- line numbers: a problem the loader finds sends the files to the line-by-line reader.
create or replace temp view _imp as
select r.file_no, null::integer as line, t.testbed, m.name as metric, r.system as target,
       s.refs, r.level, r.doc_id, r.seg, null::varchar as in_doc, r.value, r.rowid as rid
from _wmt_raw r
left join _wmt_testbeds t on t.testset = r.testset and t.lp = r.lp
left join _wmt_metrics m on m.metric = r.metric
left join _wmt_refsets s on s.refset = r.refset
where r.lp in (select lp from _wmt_lps)
