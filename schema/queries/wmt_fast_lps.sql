-- The language pairs of the WMT rows DuckDB read (_wmt_raw), where every pair is imported.
select distinct lp from _wmt_raw order by 1
