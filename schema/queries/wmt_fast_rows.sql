-- The rows of the WMT files $files (one part, scanned before: every row plain) read again
-- into the loader's _imp_res (the columns of schema/queries/import_resolved.sql), each row's
-- key found by its hash (_wmt_ids, schema/queries/wmt_fast_ids.sql; rows of language pairs
-- not imported are left out) and its unit in the test bed: a segment by its document and
-- position, a document by its name.  unit_ok is false where the test bed lacks the unit.
-- A row of a key the scan did not find (its file changed since) is an error: the caller
-- compares what was read with the scan's counts (schema/queries/wmt_fast_part_check.sql)
-- and reads the files line by line where they differ.
-- No row number (rid) and no line: a problem sends the files to the line-by-line reader.
insert into _imp_res
with cells as (
    select k.file_no, k.level, k.metric_id, k.translator_id, k.refset_id, k.testbed_id,
           c.c6 as doc_text,
           case k.level when 'seg' then c.c7::integer end as seg,
           case k.level when 'seg' then c.c8 when 'doc' then c.c7 else c.c6 end as value_text
    from read_csv($files, columns = {
             'c1': 'varchar', 'c2': 'varchar', 'c3': 'varchar', 'c4': 'varchar',
             'c5': 'varchar', 'c6': 'varchar', 'c7': 'varchar', 'c8': 'varchar'},
         delim = '\t', header = false, quote = '', escape = '', auto_detect = false,
         null_padding = true, filename = true) c
    left join _wmt_ids k on k.h = hash(c.filename, c.c1, c.c2, c.c3, c.c4, c.c5)
    where case when k.h is null then error(c.filename || ' changed while it was read: a row '
                                           || 'of a key the first read did not find')
               else k.imported end
)

select null::bigint as rid, i.file_no, null::integer as line, i.metric_id, i.translator_id,
       i.refset_id, i.level,
       case when i.level = 'seg' then u.seg_id end as seg_id,
       case when i.level = 'doc' then d.doc_id end as doc_id,
       case when i.value_text <> 'None' then i.value_text::double end as value,
       case i.level when 'seg' then u.seg_id is not null
                    when 'doc' then d.doc_id is not null
                    else true end as unit_ok
from cells i
left join segment u on i.level = 'seg' and u.testbed_id = i.testbed_id
     and u.doc_id = i.doc_text and u.seg_in_doc = i.seg
left join document d on i.level = 'doc' and d.testbed_id = i.testbed_id
     and d.doc_id = i.doc_text
