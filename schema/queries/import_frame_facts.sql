-- What ulcdb.interchange.load checks first of one import's rows (_imp): how many there are,
-- how many have a value, and the distinct metric, test bed and target names.
select count(*), count(value), list(distinct metric), list(distinct testbed),
       list(distinct target)
from _imp
