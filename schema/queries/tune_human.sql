-- `ulcdb tune`: the human scores of criterion $3 at level $2 in test bed $1, as `ulcdb meta`
-- reads them (the meta_human macro), per system and segment (seg_id null above segments).
select translator, seg_id, human
from meta_human($1, $2, $3)
where human is not null
