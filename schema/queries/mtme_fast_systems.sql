-- The distinct system names of the mt-metrics-eval lines DuckDB read (_mtme_cells).
select distinct system from _mtme_cells order by 1
