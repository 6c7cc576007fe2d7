-- The files (numbers of _wmt_files) of one part of the WMT files that hold a key imported
-- (_wmt_ids, imported): those schema/queries/wmt_fast_rows.sql reads.
select distinct file_no from _wmt_ids where imported order by 1
