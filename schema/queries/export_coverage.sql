-- The scores an export writes (the export_scores macro's arguments, as in export_units) that
-- cover fewer targets than another metric's of the same test bed, reference set and level:
-- a metric scored for some systems only is written as it is, and the export says so.
-- n: its targets with a value; most: the most any metric has there.
with written as (
    select testbed, metric, array_to_string(refs, '+') as refset, level,
           count(distinct target) as n
    from export_scores($variant, $levels::varchar[], $testbeds::varchar[],
                       $metrics::varchar[], $targets::varchar[], $refsets::varchar[])
    where value is not null
    group by all
),
widest as (
    select testbed, refset, level, max(n) as most
    from written
    group by all
)

select w.testbed, w.metric, w.refset, w.level, w.n, d.most
from written w
join widest d using (testbed, refset, level)
where w.n < d.most
order by all
