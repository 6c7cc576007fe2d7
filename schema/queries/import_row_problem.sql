-- The first score row of one import (_imp, from ulcdb.interchange.load) that is wrong as
-- read, before any name is looked up in the store (file order): its problem, level and
-- target. The checks run in the order their messages are reported.
with checked as (
    select *, case
        when level is null or level not in ('seg', 'doc', 'sys') then 'level'
        when isnan(value) or isinf(value) then 'value'
        when metric is null or trim(metric) = '' then 'metric'
        when target is null or trim(target) = '' then 'target'
        when testbed is null then 'testbed'
        when refs is null or len(refs) = 0 then 'refs'
        when list_contains(refs, target) then 'self'
    end as problem
    from _imp
)

select file_no, line, problem, level, target
from checked
where problem is not null
order by file_no, line nulls first, rid
limit 1
