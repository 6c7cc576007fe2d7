-- Runs on the SQLite mirror (Datasette's /-/plots/metric-correlation): Pearson between
-- every pair of metrics at :level against :refset in :testbed (the mirror's metric_corr).
select metric_a, metric_b, pearson, n
from metric_corr
where level = :level
  and refset = :refset
  and testbed = :testbed
