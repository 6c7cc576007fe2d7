-- The WMT rows DuckDB read (_wmt_raw) made narrow: each distinct metric, language pair, test
-- set, reference set and system once, numbered, with its first file (_wmt_keys), and each
-- row with that number instead of the five names (_wmt_rows: about 40 bytes a row instead of
-- 120, so the loader's scans of tens of millions of scores stay within DuckDB's memory
-- limit instead of reading spilled rows back from disk each time); _wmt_raw dropped.
create or replace temp table _wmt_keys as
select (row_number() over (order by metric, lp, testset, refset, system))::integer as key_id,
       metric, lp, testset, refset, system, first_file
from (
    select metric, lp, testset, refset, system, min(file_no) as first_file
    from _wmt_raw
    group by all
);

create or replace temp table _wmt_rows as
select r.file_no, k.key_id, r.doc_id, r.seg, r.value
from _wmt_raw r
join _wmt_keys k using (metric, lp, testset, refset, system);

drop table _wmt_raw;
