-- The WMT keys DuckDB scanned (_wmt_keys, _wmt_file_keys) of the language pairs imported
-- (_wmt_lps) as what the loader checks of one import by name (_imp: the columns of
-- ulcdb.interchange.model.FRAME_SCHEMA and rid), one row per file and key of one part of
-- the files (_wmt_part, which schema/queries/wmt_fast_part.sql fills; empty here), names
-- mapped by _wmt_testbeds, _wmt_metrics and _wmt_refsets (schema/queries/wmt_fast_maps.sql)
-- once per key (_wmt_named).  value stands for the key's scores: a number where the file
-- gives one (the scan refused NaN and infinities), null where every one is None.  The rows
-- themselves go to the loader's _imp_res at once (schema/queries/wmt_fast_rows.sql).  No
-- line numbers: a problem the loader finds sends the files to the line-by-line reader.
create or replace temp table _wmt_named as
select k.key_id, t.testbed, m.name as metric, k.system as target, s.refs
from _wmt_keys k
left join _wmt_testbeds t on t.testset = k.testset and t.lp = k.lp
left join _wmt_metrics m on m.metric = k.metric
left join _wmt_refsets s on s.refset = k.refset
where k.lp in (select lp from _wmt_lps);

create or replace temp table _wmt_part as
select file_no, key_id, n, valued, h
from _wmt_file_keys
limit 0;

create or replace temp view _imp as
select p.file_no, null::integer as line, n.testbed, n.metric, n.target, n.refs, f.level,
       null::varchar as doc_id, null::integer as seg, null::varchar as in_doc,
       case when p.valued > 0 then 0.0 end as value, p.key_id::bigint as rid
from _wmt_part p
join _wmt_named n using (key_id)
join _wmt_files f using (file_no);
