-- One part of the WMT files DuckDB scanned: the keys of the files $first..$last (numbers of
-- _wmt_files) of the language pairs imported into _wmt_part, which the view _imp reads
-- (schema/queries/wmt_fast_frame.sql); the part's rows are read when the loader resolves
-- them (schema/queries/wmt_fast_rows.sql), so no more than one part's rows are held at a
-- time (issue 30: tens of millions of rows spilled past DuckDB's memory limit).
create or replace temp table _wmt_part as
select file_no, key_id, n, valued, h
from _wmt_file_keys
where file_no between $first and $last
  and key_id in (select key_id from _wmt_named)
