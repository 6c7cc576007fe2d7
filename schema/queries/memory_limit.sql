-- DuckDB's memory limit on this connection (e.g. '2.0 GiB'), restored after an import that
-- lowers it.
select current_setting('memory_limit')
