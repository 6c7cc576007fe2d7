-- All metric scores (stored and derived) in one long table with names: level is seg, doc or
-- sys; doc_id is set at seg and doc level, seg_id at seg level.  role is the target's role (a
-- reference can be scored against the other references); refset_kind says whether the
-- reference set holds a system.  Reads the id-keyed union `score_rows`.
create or replace view scores as
select
    r.testbed,
    m.name as metric,
    t.name as translator,
    t.role,
    r.refset,
    r.refset_kind,
    u.variant,
    u.level,
    coalesce(u.doc_id, g.doc_id) as doc_id,
    u.seg_id,
    u.value,
    m.higher_is_better,
    u.batch_id
from score_rows u
join metric m using (metric_id)
join translator t using (translator_id)
join stg_refset r using (refset_id)
left join segment g on g.testbed_id = t.testbed_id and g.seg_id = u.seg_id
