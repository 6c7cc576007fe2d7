-- Each metric of one import (_imp) with the first file (its number) that scores it, by name.
select metric, min(file_no) as file_no
from _imp
group by metric
order by metric
