-- The store ids of each file's keys of one part (_wmt_part, named by _wmt_named; test bed and
-- reference set by the loader's _imp_refset), by the hash the second read finds rows by
-- (_wmt_ids: a translator_id null is an unknown target, which the loader reports), with the
-- rows and scored rows the scan counted (n, valued); then the other keys of the same files
-- (language pairs not imported: imported false, no ids), so that the second read knows every
-- key of the files it reads (a row of none is of a file changed since the scan).  The
-- loader's _imp_res made empty (the columns of schema/queries/import_resolved.sql) for
-- schema/queries/wmt_fast_rows.sql to fill.
create or replace temp table _wmt_ids as
select p.h, p.file_no, f.level, m.metric_id, t.translator_id, r.refset_id, r.testbed_id,
       p.n, p.valued, true as imported
from _wmt_part p
join _wmt_named n using (key_id)
join _wmt_files f using (file_no)
join _imp_refset r on r.testbed = n.testbed and r.refs = n.refs
join metric m on m.name = n.metric
left join translator t on t.testbed_id = r.testbed_id and t.name = n.target;

insert into _wmt_ids
select k.h, k.file_no, null, null, null, null, null, k.n, k.valued, false
from _wmt_file_keys k
where k.file_no in (select file_no from _wmt_ids)
  and k.key_id not in (select key_id from _wmt_named);

create or replace temp table _imp_res (
    rid bigint, file_no integer, line integer, metric_id integer, translator_id integer,
    refset_id integer, level varchar, seg_id integer, doc_id varchar, value double,
    unit_ok boolean
);
