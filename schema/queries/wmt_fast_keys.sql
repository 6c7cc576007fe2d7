-- The distinct names of the WMT rows DuckDB scanned (_wmt_keys, schema/queries/wmt_fast_key_ids.sql)
-- of the language pairs imported (_wmt_lps): metric, language pair, test set, reference set,
-- system, and the first file (its number) that has them.
select metric, lp, testset, refset, system, first_file
from _wmt_keys
where lp in (select lp from _wmt_lps)
order by all
