-- The language pair and size of test bed $1: what `ulcdb report` says it was computed on.
select coalesce(tb.src_lang || '-' || tb.tgt_lang, '') as lp,
       (select count(*) from segment s where s.testbed_id = tb.testbed_id) as segments,
       (select count(*) from document d where d.testbed_id = tb.testbed_id) as documents
from testbed tb
where tb.name = $1
