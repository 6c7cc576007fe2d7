-- The names the WMT rows DuckDB scanned (_wmt_keys) map to, filled by the caller: the language pairs
-- imported, the test bed of
-- each test set and language pair (only the pairs imported), the stored name of each metric, the members of each
-- reference set.
create or replace temp table _wmt_lps (lp varchar);
create or replace temp table _wmt_testbeds (testset varchar, lp varchar, testbed varchar);
create or replace temp table _wmt_metrics (metric varchar, name varchar);
create or replace temp table _wmt_refsets (refset varchar, refs varchar[]);
