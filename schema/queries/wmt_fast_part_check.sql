-- The first file (number of _wmt_files) of one part of the WMT files whose rows read again
-- (_imp_res, schema/queries/wmt_fast_rows.sql) are not the rows the scan counted
-- (_wmt_ids: n rows, valued with a score, per file and key imported): rows of a key added,
-- lost or moved to another key, or scores become None (or the reverse), by a file changed
-- between the two reads.  Keys are compared by their store ids (two keys of a file may share
-- them); null where every file of the part reads as scanned.
with scanned as (
    select file_no, metric_id, translator_id, refset_id, sum(n)::bigint as n,
           sum(valued)::bigint as valued
    from _wmt_ids
    where imported
    group by all
),

got as (
    select file_no, metric_id, translator_id, refset_id, count(*) as n, count(value) as valued
    from _imp_res
    group by all
),

differ as (
    (select * from scanned except select * from got)
    union all
    (select * from got except select * from scanned)
)

select min(file_no) from differ
