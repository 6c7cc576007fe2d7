-- The first (metric, target, reference set) of one import (_imp_res) whose segment or
-- document scores leave a unit of the test bed out (file order): n scores of total units.
with groups as (
    select metric_id, translator_id, refset_id, level, count(*) as n,
           min(file_no) as file_no, min(line) as line
    from _imp_res
    where level in ('seg', 'doc')
    group by all
),

sized as (
    select g.*, t.testbed_id, case g.level
        when 'seg' then (select count(*) from segment s where s.testbed_id = t.testbed_id)
        else (select count(*) from document d where d.testbed_id = t.testbed_id)
        end as total
    from groups g
    join translator t using (translator_id)
)

select file_no, line, metric_id, translator_id, refset_id, level, n, total, testbed_id
from sized
where n < total
order by file_no, line nulls first, level desc
limit 1
