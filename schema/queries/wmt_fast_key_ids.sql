-- The WMT keys the scan found (_wmt_seen): each distinct metric, language pair, test set,
-- reference set and system once, numbered, with its first file (_wmt_keys), and each file's
-- keys by that number with their rows and hash (_wmt_file_keys, which plans the parts and
-- which the second read of each part joins by hash); _wmt_seen dropped.
create or replace temp table _wmt_keys as
select (row_number() over (order by metric, lp, testset, refset, system))::integer as key_id,
       metric, lp, testset, refset, system, first_file
from (
    select metric, lp, testset, refset, system, min(file_no) as first_file
    from _wmt_seen
    group by all
);

create or replace temp table _wmt_file_keys as
select s.file_no, k.key_id, s.n, s.valued, s.h
from _wmt_seen s
join _wmt_keys k using (metric, lp, testset, refset, system);

drop table _wmt_seen;
