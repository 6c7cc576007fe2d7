-- The first row in file order of one load (_assessment_in, schema/queries/assessment_rows.sql)
-- whose assessment (same translator, unit, criterion and judge) is stored in test bed $1 with
-- another value: its line, the stored value and the file's, to say where the conflict is.
select n.line, a.value as stored, n.value
from assessment a
join _assessment_in n
    on a.translator_id = n.translator_id and a.level = n.level
   and a.seg_id is not distinct from n.seg_id and a.doc_id is not distinct from n.doc_key
   and a.criterion = n.criterion and a.judge = n.judge
where a.testbed_id = $1 and a.value <> n.value
order by n.line nulls last, n.rid
limit 1
