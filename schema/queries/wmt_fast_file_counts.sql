-- Each WMT file's rows of the language pairs imported (_wmt_file_keys of the keys in
-- _wmt_named) and those with a score, in file order (the parts are planned by the rows; by
-- the sums the loader refuses an import whose every score is None before a part is read),
-- and whether some stored key (test bed, stored metric name, target, reference set, level)
-- has rows in more than one file (then the caller loads the files as one part: the loader
-- finds duplicates only within the rows it holds).
with spread as (
    select exists (
        select 1
        from _wmt_file_keys k
        join _wmt_named n using (key_id)
        join _wmt_files f using (file_no)
        group by n.testbed, n.metric, n.target, n.refs, f.level
        having count(distinct k.file_no) > 1
    ) as shared
)

select f.file_no, coalesce(sum(k.n), 0)::bigint as n,
       coalesce(sum(k.valued), 0)::bigint as valued, (select shared from spread) as shared
from _wmt_files f
left join _wmt_file_keys k
    on k.file_no = f.file_no and k.key_id in (select key_id from _wmt_named)
group by f.file_no
order by f.file_no
