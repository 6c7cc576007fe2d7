-- How many (translator, unit) human scores of criterion $3 at level $2 in test bed $1
-- meta_human gives (human_from $4, min_segments $5, only the segments $6 when given), of the
-- translators $7 only when given (the targets a meta-evaluation correlates).
select count(*)
from meta_human($1, $2, $3, human_from := $4, min_segments := $5,
                segments := $6::integer[])
where $7::varchar[] is null or list_contains($7::varchar[], translator)
