-- The tokens annotation run $1 holds of the texts in the work table _ann_want, text by text
-- in token order.
select t.text_hash, t.form, t.lemma, t.tag, t.pos, t.head, t.deprel, t.sent
from ann_token t
join _ann_want using (text_hash)
where t.run_id = $1
order by t.text_hash, t.tok
