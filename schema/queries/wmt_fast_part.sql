-- One part of the WMT rows DuckDB read (_wmt_rows): those of the files $first..$last
-- (numbers of _wmt_files) into _wmt_part, which the view _imp reads
-- (schema/queries/wmt_fast_frame.sql), so the loader's work tables hold one part at a time
-- instead of the whole release (issue 30: tens of millions of rows spilled past DuckDB's
-- memory limit).  rid stays the row's number in _wmt_rows.
create or replace temp table _wmt_part as
select file_no, key_id, doc_id, seg, value, rowid as rid
from _wmt_rows
where file_no between $first and $last
