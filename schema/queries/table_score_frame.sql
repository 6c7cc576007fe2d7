-- The score rows of one score table being read (`ingest scores` of a CSV, TSV, Parquet or
-- JSON table; the work view `typed` holds its checked rows with their level `lvl`), in
-- file order and in the shape of every score reader's frame: a segment is named by seg_id,
-- or by its position seg_in_doc in a document doc_id.
select 0::integer as file_no, line, testbed, metric, target,
       list_sort(string_split(refset, '+')) as refs,
       lvl as level,
       case when lvl = 'seg' and seg_id is null then doc_id
            when lvl = 'doc' then doc_id end as doc_id,
       case when lvl = 'seg' then coalesce(seg_id, seg_in_doc)::integer end as seg,
       case when lvl = 'seg' and seg_id is not null then doc_id end as in_doc,
       value::double as value
from typed
order by line
