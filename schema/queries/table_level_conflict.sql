-- The first row of a score table being read (the work view `typed`) whose level contradicts
-- the units it names: a document or system row naming a segment, a system row a document.
select line, lvl, coalesce(seg_id, seg_in_doc) as seg, doc_id
from typed
where (lvl in ('doc', 'sys') and coalesce(seg_id, seg_in_doc) is not null)
   or (lvl = 'sys' and doc_id is not null)
order by line
limit 1
