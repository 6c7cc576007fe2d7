-- Leaderboard (bench_scale.py): the best metric per language pair by system-level Kendall tau
-- (tau-a over system pairs) with DA-z, every system and reference set of every test bed.
with human as (
    select testbed_id, translator_id, value
    from assessment where level = 'sys' and criterion = 'DA-z' and judge = ''
),
scored as (
    select t.testbed_id, s.metric_id, s.refset_id, s.translator_id, s.value, h.value as human
    from sys_score s join translator t using (translator_id)
    join human h using (testbed_id, translator_id)
    where s.value is not null
),
tau as (
    select a.testbed_id, a.metric_id, a.refset_id,
           sum(sign(a.value - b.value) * sign(a.human - b.human)) / count(*) as kendall
    from scored a join scored b
      on a.testbed_id = b.testbed_id and a.metric_id = b.metric_id
     and a.refset_id = b.refset_id and a.translator_id < b.translator_id
    group by all
)
select tb.name as testbed, arg_max(m.name || ' ' || r.name, kendall) as best_metric,
       round(max(kendall), 4) as kendall, count(*) as candidates
from tau join testbed tb using (testbed_id) join metric m using (metric_id)
join refset r using (refset_id)
group by tb.name order by tb.name
