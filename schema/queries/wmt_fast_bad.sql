-- Whether the WMT files DuckDB scanned (_wmt_seen) hold a row that is not plain (its bad
-- flag), or two of their (file, key) share a hash (so a row's hash would not name its key):
-- then the files are read line by line.
select exists (select 1 from _wmt_seen where bad)
       or (select count(distinct h) <> count(*) from _wmt_seen)
