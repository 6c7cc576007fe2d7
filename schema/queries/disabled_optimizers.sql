-- DuckDB's optimizers switched off on this connection (a comma-separated list, empty where none),
-- to restore after a statement that switches one off.
select current_setting('disabled_optimizers')
