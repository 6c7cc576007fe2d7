-- The translators with a human score of criterion $3 at level $2 in test bed $1, read as
-- meta_human reads them (human_from $4, min_segments $5, only the segments $6 when given).
select distinct translator
from meta_human($1, $2, $3, human_from := $4, min_segments := $5,
                segments := $6::integer[])
