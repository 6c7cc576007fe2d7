-- `ulcdb meta` at doc/sys level with human scores derived from segment judgments: the
-- fewest and the most segments of test bed $1 (a name) that criterion $2 judged for one of
-- the targets $3, how many it judged for any of them, and how many segments the test bed
-- has (the metric scores cover them all).
with judged as (
    select translator, count(distinct seg_id) as n
    from assessments
    where testbed = $1 and criterion = $2 and level = 'seg'
      and list_contains($3::varchar[], translator)
    group by translator)
select (select min(n) from judged) as fewest,
       (select max(n) from judged) as most,
       (select count(distinct seg_id) from assessments
        where testbed = $1 and criterion = $2 and level = 'seg'
          and list_contains($3::varchar[], translator)) as any_judged,
       (select count(*) from segment join testbed using (testbed_id)
        where testbed.name = $1) as total
