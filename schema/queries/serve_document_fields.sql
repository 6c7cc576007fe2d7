-- The compare page's document bucketings (`ulcdb serve`, on the mirror): the fields that some
-- document of test bed :testbed has.  A field no document has would make one bucket, the
-- whole set again (`compare --by` refuses it).
select 'domain' as bucketing
from document d join testbed t using (testbed_id)
where t.name = :testbed and d.domain is not null
union
select 'genre'
from document d join testbed t using (testbed_id)
where t.name = :testbed and d.genre is not null
union
select 'orig-lang'
from document d join testbed t using (testbed_id)
where t.name = :testbed and d.origlang is not null
