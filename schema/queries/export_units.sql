-- What an export's progress counts in the scores it writes (the export_scores macro over
-- variant $variant, levels, test beds, metrics, targets and reference sets, empty lists for
-- all): the metrics (one test bed's formats), and the metrics and levels with a value (WMT's
-- files, one per metric and level).
select count(distinct metric) as metrics,
       count(distinct (metric, level)) filter (where value is not null) as metric_levels
from export_scores($variant, $levels::varchar[], $testbeds::varchar[], $metrics::varchar[],
                   $targets::varchar[], $refsets::varchar[])
