-- WMT metrics-task files ($files: their paths; _wmt_files: file_no, path and level of each,
-- the level from the file's name) scanned by DuckDB once, keeping no row (issue 30:
-- materialising the rows' eight text columns cost more than reading them): each file's
-- distinct (metric, language pair, test set, reference set, system) with its rows, rows
-- with a score, whether some row is bad, and h, the hash of the file's path and the five
-- names, by which the second read (wmt_fast_rows.sql) finds each row's key without
-- comparing names.  Every column is read as text (a line of another column count is an
-- error of read_csv, which the caller takes as "not plain"); a row is bad where it is not
-- what the line-by-line reader would read the same way: a name or document left empty, a
-- segment that is not a plain whole number 1..2^31-1, a score that is neither None nor a
-- plain finite number, or cells beyond the level's columns.  The caller then reads the
-- files line by line, which names the file and line.
create or replace temp table _wmt_seen as
with cells as (
    select f.file_no, f.level, c.*
    from read_csv($files, columns = {
             'c1': 'varchar', 'c2': 'varchar', 'c3': 'varchar', 'c4': 'varchar',
             'c5': 'varchar', 'c6': 'varchar', 'c7': 'varchar', 'c8': 'varchar'},
         delim = '\t', header = false, quote = '', escape = '', auto_detect = false,
         null_padding = true, filename = true) c
    join _wmt_files f on f.path = c.filename
),

typed as (
    select file_no, level, c1 as metric, c2 as lp, c3 as testset, c4 as refset,
           c5 as system,
           case when level <> 'sys' then c6 end as doc_id,
           case when level = 'seg' then c7 end as seg_text,
           case level when 'seg' then c8 when 'doc' then c7 else c6 end as value_text,
           case level when 'seg' then false when 'doc' then c8 is not null
                else c7 is not null or c8 is not null end as extra
    from cells
),

parsed as (
    select *, try_cast(seg_text as integer) as seg,
           case when value_text <> 'None' then try_cast(value_text as double) end as value
    from typed
),

grouped as (  -- by file number, not by path and level: grouping by fewer and narrower columns
    select file_no, metric, lp, testset, refset, system,
           count(*) as n, count(value) as valued,
           bool_or(extra
                   or metric is null or lp is null or testset is null or refset is null
                   or system is null or value_text is null
                   or (level <> 'sys' and doc_id is null)
                   or (level = 'seg' and (seg is null or seg < 1 or seg::varchar <> seg_text))
                   or (value_text <> 'None' and (value is null or not isfinite(value)
                                                 or contains(value_text, '_')))) as bad
    from parsed
    group by file_no, metric, lp, testset, refset, system
)

select g.file_no, f.level, g.metric, g.lp, g.testset, g.refset, g.system, g.n, g.valued, g.bad,
       hash(f.path, g.metric, g.lp, g.testset, g.refset, g.system) as h
from grouped g
join _wmt_files f using (file_no)
