-- The first row of one assessment load (_assessment_in, from ulcdb.ingest.load_assessments)
-- that has a problem, in file order: its line, problem and what the message names.
select line, problem, translator, level, doc_id, seg, value, first_line
from _assessment_in
where problem is not null
order by line nulls first, rid
limit 1
