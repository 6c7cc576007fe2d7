-- The spans (entities, chunks, constituents, semantic roles) annotation run $1 holds of the
-- texts in the work table _ann_want, text by text, layer by layer, in span order.
select s.text_hash, s.layer, s.span_id, s.start_tok, s.end_tok, s.label, s.parent
from ann_span s
join _ann_want using (text_hash)
where s.run_id = $1
order by s.text_hash, s.layer, s.span_id
