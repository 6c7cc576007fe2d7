-- `ulcdb list testbeds`: every test bed with its languages and origin, in ingest order.
select name, src_lang, tgt_lang, origin, created_at
from testbed
order by testbed_id
