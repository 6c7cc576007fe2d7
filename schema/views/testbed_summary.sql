-- One row per test bed with its counts, the criteria judged and the metrics scored
-- (what `ulcdb info` prints).
create or replace view testbed_summary as
select tb.name as testbed, tb.src_lang || '-' || tb.tgt_lang as lp,
  c.documents, c.segments, c.systems, c.refs,
  (select string_agg(distinct criterion, ', ' order by criterion) from assessment a
     where a.testbed_id = tb.testbed_id) as criteria,
  (select count(distinct metric_id) from sys_score x join translator t using (translator_id)
     where t.testbed_id = tb.testbed_id) as metrics_scored,
  c.seg_scores
from testbed tb
join testbed_contents c using (testbed_id)
order by tb.testbed_id
