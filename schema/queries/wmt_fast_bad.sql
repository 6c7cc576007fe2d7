-- Whether a WMT row DuckDB read (_wmt_raw) is not plain (its bad flag): then the files are
-- read line by line.
select exists (select 1 from _wmt_raw where bad)
