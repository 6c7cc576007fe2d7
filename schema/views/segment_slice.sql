-- What a --where predicate (ulcdb compare, ulcdb meta) can name: one row per segment of a
-- test bed with its document's fields.
--   seg_id, doc_id, seg_in_doc, source: the segment; genre, domain, origlang, doc_index: its
--   document.  testbed_id picks the test bed.
-- Usage: select seg_id from segment_slice where testbed_id = 1 and length(source) > 200;
create or replace view segment_slice as
with segments as (
    select testbed_id, seg_id, doc_id, seg_in_doc, source from segment
),
documents as (
    select testbed_id, doc_id, genre, domain, origlang, doc_index from document
),
final as (
    select s.testbed_id, s.seg_id, s.doc_id, s.seg_in_doc, s.source, d.genre, d.domain,
           d.origlang, d.doc_index
    from segments s
    join documents d using (testbed_id, doc_id)
)
select * from final;
