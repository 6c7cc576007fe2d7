-- `ulcdb compare --analysis word-freq`: every segment's text of the translators $2 (systems
-- and the reference) in test bed $1 (an id).
select t.name, x.seg_id, x.text
from translation x
join translator t using (translator_id)
where t.testbed_id = $1
  and list_contains($2, t.name)
