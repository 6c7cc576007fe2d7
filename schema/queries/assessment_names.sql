-- The names of systems and references that one assessment load (_assessment_in) gives, by
-- name, each with whether the test bed holds it.
select translator, bool_or(translator_id is not null) as known
from _assessment_in
group by all
order by 1
