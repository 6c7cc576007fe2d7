-- Views of earlier ulcdb versions that are gone: a store made before keeps them otherwise,
-- stale, beside what replaced them (Datasette would list them, and they would answer).
-- scored_keys: a table macro since the imported_score_keys macro (it takes the test bed).
drop view if exists scored_keys;
