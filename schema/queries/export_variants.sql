-- The variants under which test beds $testbeds hold scores of metrics $metrics (empty lists
-- for all): what an export naming metrics that have none under its variant could use.
select distinct variant
from scores
where (len($testbeds::varchar[]) = 0 or testbed in (select unnest($testbeds::varchar[])))
  and (len($metrics::varchar[]) = 0 or metric in (select unnest($metrics::varchar[])))
order by variant
