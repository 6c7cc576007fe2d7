-- `ulcdb list documents`: the documents of test bed $1 with their metadata, segment count
-- and first and last segment, in test bed order.
select d.doc_id, d.genre, d.domain, d.origlang,
       count(s.seg_id) as segments, min(s.seg_id) as first_seg, max(s.seg_id) as last_seg
from document d
join testbed tb using (testbed_id)
join segment s on s.testbed_id = d.testbed_id and s.doc_id = d.doc_id
where tb.name = $1
group by all
order by min(s.seg_id)
