-- The texts of the system or reference named $2 of test bed $1 (an id), by segment id.
select tr.seg_id, tr.text
from translation tr
join translator t using (translator_id)
where t.testbed_id = $1
  and t.name = $2
