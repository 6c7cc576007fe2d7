-- `ulcdb compare --by doc|domain|genre|orig-lang`: each segment of test bed $1 (an id) with
-- the value of its document's field $2 ('(none)' when unset).
select seg_id,
       coalesce(case $2
                    when 'doc' then doc_id
                    when 'domain' then domain
                    when 'genre' then genre
                    when 'orig-lang' then origlang
                end, '(none)') as bucket
from segment_slice
where testbed_id = $1
