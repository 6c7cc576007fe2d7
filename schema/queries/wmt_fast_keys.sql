-- The distinct names of the WMT rows DuckDB read (_wmt_raw, schema/queries/wmt_fast_read.sql)
-- of the language pairs imported (_wmt_lps): metric, language pair, test set, reference set,
-- system, and the first file (its number) that has them.
select metric, lp, testset, refset, system, min(file_no)
from _wmt_raw
where lp in (select lp from _wmt_lps)
group by all
order by all
