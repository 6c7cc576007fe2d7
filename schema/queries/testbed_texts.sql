-- The distinct translation texts (systems and references) of test bed $1 (an id), each once,
-- in the order of their first translator and segment: what `ulcdb annotate` analyses.
select any_value(t.text) as text
from translation t
join translator r using (translator_id)
where r.testbed_id = $1
group by t.text_hash
order by min(t.translator_id), min(t.seg_id)
