-- One row per test bed with what it holds: documents, segments, translators (systems and
-- references), human assessments, stored scores per level and named sets. What
-- `ulcdb delete testbed` says it drops, what a WMT20 import reports, and the counts of
-- `testbed_summary`.
create or replace view testbed_contents as
with translators as (
    select testbed_id, count(*) as translators,
           count(*) filter (where role = 'system') as systems,
           count(*) filter (where role = 'reference') as refs
    from translator
    group by testbed_id
),

scores as (
    select t.testbed_id,
           count(*) filter (where x.level = 'seg') as seg_scores,
           count(*) filter (where x.level = 'doc') as doc_scores,
           count(*) filter (where x.level = 'sys') as sys_scores
    from stored_scores x
    join translator t using (translator_id)
    group by t.testbed_id
),

final as (
    select tb.testbed_id, tb.name as testbed,
           (select count(*) from document d where d.testbed_id = tb.testbed_id) as documents,
           (select count(*) from segment s where s.testbed_id = tb.testbed_id) as segments,
           coalesce(t.translators, 0) as translators,
           coalesce(t.systems, 0) as systems,
           coalesce(t.refs, 0) as refs,
           (select count(*) from assessment a where a.testbed_id = tb.testbed_id)
               as assessments,
           coalesce(x.seg_scores, 0) as seg_scores,
           coalesce(x.doc_scores, 0) as doc_scores,
           coalesce(x.sys_scores, 0) as sys_scores,
           (select count(*) from named_set n where n.testbed_id = tb.testbed_id) as named_sets
    from testbed tb
    left join translators t using (testbed_id)
    left join scores x using (testbed_id)
)

select * from final
