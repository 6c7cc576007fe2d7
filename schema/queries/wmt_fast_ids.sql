-- The store ids of each file's keys of one part (_wmt_part, named by _wmt_named; test bed and
-- reference set by the loader's _imp_refset), by the hash the second read finds rows by
-- (_wmt_ids: a translator_id null is an unknown target, which the loader reports), and the
-- loader's _imp_res made empty (the columns of schema/queries/import_resolved.sql) for
-- schema/queries/wmt_fast_rows.sql to fill.
create or replace temp table _wmt_ids as
select p.h, p.file_no, f.level, m.metric_id, t.translator_id, r.refset_id, r.testbed_id
from _wmt_part p
join _wmt_named n using (key_id)
join _wmt_files f using (file_no)
join _imp_refset r on r.testbed = n.testbed and r.refs = n.refs
join metric m on m.name = n.metric
left join translator t on t.testbed_id = r.testbed_id and t.name = n.target;

create or replace temp table _imp_res (
    rid bigint, file_no integer, line integer, metric_id integer, translator_id integer,
    refset_id integer, level varchar, seg_id integer, doc_id varchar, value double,
    unit_ok boolean
);
