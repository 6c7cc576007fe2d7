-- The names of the stored metric sets (a new metric named like one is refused: `-m NAME`
-- would choose the metric, never the set).
select distinct name from named_set where kind = 'metric' order by name
