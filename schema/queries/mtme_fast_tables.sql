-- The work tables of mt-metrics-eval metric files read by DuckDB (ulcdb.formats.mtme_fast):
-- each file's number, test bed, metric (renamed), reference set members (sorted), level and
-- the lines each system must have; the lines as read; the stored name of each system; the
-- rowid of each file's first line in _mtme_cells (the files are read one after the other).
create or replace temp table _mtme_files (file_no integer, testbed varchar, metric varchar,
                                          refs varchar[], level varchar, expected integer);
create or replace temp table _mtme_cells (file_no integer, system varchar, score varchar);
create or replace temp table _mtme_names (system varchar, target varchar);
create or replace temp table _mtme_firsts (file_no integer, first_rid bigint);
