-- The score rows of one import (_imp, with _imp_refset from ulcdb.interchange.load) with the
-- store ids of their metric, target and reference set and the unit each score belongs to,
-- one branch per way a row names its unit. unit_ok is false where the test bed lacks the
-- unit (or puts the segment in another document than the file says, in_doc); a null
-- translator_id is an unknown target. Only ids are kept: messages look the rest up by rid.
create or replace temp table _imp_res as
with scored as (
    select i.*, m.metric_id, t.translator_id, r.refset_id, r.testbed_id
    from _imp i
    join _imp_refset r on r.testbed = i.testbed and r.refs = i.refs
    join metric m on m.name = i.metric
    left join translator t on t.testbed_id = r.testbed_id and t.name = i.target
),

seg_by_id as (  -- seg level, test-bed segment number
    select i.rid, i.file_no, i.line, i.metric_id, i.translator_id, i.refset_id, i.level,
           u.seg_id, null::varchar as doc_id, i.value,
           u.seg_id is not null and (i.in_doc is null or i.in_doc = u.doc_id) as unit_ok
    from scored i
    left join segment u on u.testbed_id = i.testbed_id and u.seg_id = i.seg
    where i.level = 'seg' and i.doc_id is null
),

seg_in_doc as (  -- seg level, position in a named document
    select i.rid, i.file_no, i.line, i.metric_id, i.translator_id, i.refset_id, i.level,
           u.seg_id, null::varchar as doc_id, i.value, u.seg_id is not null as unit_ok
    from scored i
    left join segment u on u.testbed_id = i.testbed_id and u.doc_id = i.doc_id
         and u.seg_in_doc = i.seg
    where i.level = 'seg' and i.doc_id is not null
),

doc_by_id as (  -- doc level, named document
    select i.rid, i.file_no, i.line, i.metric_id, i.translator_id, i.refset_id, i.level,
           null::integer as seg_id, u.doc_id, i.value, u.doc_id is not null as unit_ok
    from scored i
    left join document u on u.testbed_id = i.testbed_id and u.doc_id = i.doc_id
    where i.level = 'doc' and i.doc_id is not null
),

doc_by_position as (  -- doc level, document position
    select i.rid, i.file_no, i.line, i.metric_id, i.translator_id, i.refset_id, i.level,
           null::integer as seg_id, u.doc_id, i.value, u.doc_id is not null as unit_ok
    from scored i
    left join document u on u.testbed_id = i.testbed_id and u.doc_index = i.seg
    where i.level = 'doc' and i.doc_id is null
),

sys as (
    select i.rid, i.file_no, i.line, i.metric_id, i.translator_id, i.refset_id, i.level,
           null::integer as seg_id, null::varchar as doc_id, i.value, true as unit_ok
    from scored i
    where i.level = 'sys' and i.doc_id is null
)

select * from seg_by_id
union all select * from seg_in_doc
union all select * from doc_by_id
union all select * from doc_by_position
union all select * from sys
