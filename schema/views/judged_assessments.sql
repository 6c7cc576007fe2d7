-- Human assessments with the judges merged: one row per test bed, translator, unit and
-- criterion, the row of judge '' (already averaged) where there is one, else the mean over
-- the judges; n_judges counts the named judges. What meta-evaluation (meta_human) and the
-- mt-metrics-eval exporter read.
create or replace view judged_assessments as
select testbed, translator, role, level, doc_id, seg_id, criterion,
       coalesce(avg(value) filter (where judge = ''), avg(value order by judge)) as value,
       count(distinct judge) filter (where judge <> '') as n_judges
from assessments
group by testbed, translator, role, level, doc_id, seg_id, criterion
