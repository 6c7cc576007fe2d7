-- Which document fields a --where predicate can select on in test bed $1 (an id): true when
-- genre, domain or origlang is set for at least one of its segments.
select coalesce(bool_or(genre is not null), false) as genre,
       coalesce(bool_or(domain is not null), false) as domain,
       coalesce(bool_or(origlang is not null), false) as origlang
from segment_slice
where testbed_id = $1
