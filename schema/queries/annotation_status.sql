-- The analyses annotation run $1 holds of the texts in the work table _ann_want: each
-- text's status, message and imported DRS.
select a.text_hash, a.status, a.message, a.drs
from annotated_text a
join _ann_want using (text_hash)
where a.run_id = $1
