-- Keys (metric, target, reference set, variant) that hold imported scores at any level, with
-- the files they came from (origins): every row of `imported_score_keys`, which holds the
-- rule.  Scoring never writes, replaces or deletes scores under these keys (imported scores
-- are used as they are).
create or replace view imported_keys as
select * from imported_score_keys()
