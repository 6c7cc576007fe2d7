-- Every segment of test bed $1 with its document: seg_id, doc_id.
select seg_id, doc_id
from segment
where testbed_id = $1
order by seg_id
