-- The language pairs of the WMT rows DuckDB read (_wmt_keys), where every pair is imported.
select distinct lp from _wmt_keys order by 1
