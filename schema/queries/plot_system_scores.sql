-- Runs on the SQLite mirror (Datasette's /-/plots/system-scores): the system scores of one
-- metric against one reference set in one test bed, with the bootstrap interval of each
-- system's mean segment score (sys_interval) when the mirror holds one.
select s.translator, s.role, s.value, i.seg_mean, i.lo, i.hi, s.higher_is_better
from scores s
left join sys_interval i
  on i.testbed = s.testbed and i.metric = s.metric and i.translator = s.translator
 and i.refset = s.refset and i.variant = s.variant
where s.level = 'sys'
  and s.metric = :metric
  and s.refset = :refset
  and s.testbed = :testbed
  and s.refset_kind = 'reference'
