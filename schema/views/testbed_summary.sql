-- One row per test bed with its counts, the criteria judged and the metrics scored
-- (what `ulcdb info` prints).
create or replace view testbed_summary as
select tb.name as testbed, tb.src_lang || '-' || tb.tgt_lang as lp,
  (select count(*) from document d where d.testbed_id = tb.testbed_id) as documents,
  (select count(*) from segment s where s.testbed_id = tb.testbed_id) as segments,
  (select count(*) from translator t where t.testbed_id = tb.testbed_id
     and role = 'system') as systems,
  (select count(*) from translator t where t.testbed_id = tb.testbed_id
     and role = 'reference') as refs,
  (select string_agg(distinct criterion, ', ' order by criterion) from assessment a
     where a.testbed_id = tb.testbed_id) as criteria,
  (select count(distinct metric_id) from sys_score x join translator t using (translator_id)
     where t.testbed_id = tb.testbed_id) as metrics_scored,
  (select count(*) from seg_score x join translator t using (translator_id)
     where t.testbed_id = tb.testbed_id) as seg_scores
from testbed tb
order by tb.testbed_id
