-- The human assessments of one load (_ulcdb_assessment_in, an Arrow table registered by
-- ulcdb.ingest.load_assessments) resolved against test bed $tid: the store ids of their
-- translator, segment (seg level) and document (doc level), and each row's first problem
-- (null when the row is fine), in the order the checks are reported.
-- Row conventions (ulcdb.formats.assessments): seg level with doc_id, seg is the position in
-- that document; seg level without doc_id, the test-bed segment id; doc level without
-- doc_id, the 1-based document position.
create or replace temp table _assessment_in as
with resolved as (
    select h.*, t.translator_id,
           case when h.level = 'seg' then coalesce(s1.seg_id, s2.seg_id) end as seg_id,
           case when h.level = 'doc' then coalesce(d1.doc_id, d2.doc_id) end as doc_key
    from _ulcdb_assessment_in h
    left join translator t on t.testbed_id = $tid and t.name = h.translator
    left join segment s1 on h.level = 'seg' and h.doc_id is null
         and s1.testbed_id = $tid and s1.seg_id = h.seg
    left join segment s2 on h.level = 'seg' and h.doc_id is not null
         and s2.testbed_id = $tid and s2.doc_id = h.doc_id and s2.seg_in_doc = h.seg
    left join document d1 on h.level = 'doc' and h.doc_id is not null
         and d1.testbed_id = $tid and d1.doc_id = h.doc_id
    left join document d2 on h.level = 'doc' and h.doc_id is null
         and d2.testbed_id = $tid and d2.doc_index = h.seg
),

numbered as (
    select *,
           row_number() over same_key as n,
           first_value(line) over same_key as first_line
    from resolved
    window same_key as (partition by translator_id, level, seg_id, doc_key, criterion, judge
                        order by line nulls first, rid)
),

final as (
    select *, case
        when translator_id is null then 'translator'
        when level not in ('seg', 'doc', 'sys') then 'level'
        when level = 'seg' and seg_id is null then 'unit'
        when level = 'doc' and doc_key is null then 'unit'
        when n > 1 then 'duplicate'
        when isnan(value) or isinf(value) then 'value'
        when value < $lo or value > $hi then 'scale'
    end as problem
    from numbered
)

select * from final
