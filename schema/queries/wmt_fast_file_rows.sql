-- The rows of each WMT file DuckDB read (_wmt_rows) by distinct key: file number, key
-- number, rows (schema/queries/wmt_fast_file_counts.sql sums them to plan the parts).
create or replace temp table _wmt_file_keys as
select file_no, key_id, count(*) as n
from _wmt_rows
group by all
