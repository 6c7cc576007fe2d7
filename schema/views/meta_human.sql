-- Human scores for meta-evaluation: one row per translator and unit (segment, document or
-- the whole system) of one test bed, level and criterion.
--   seg: segment assessments.
--   doc, sys: the assessments ingested at that level ('ingested') when the test bed has any
--     for the criterion, else the mean of the segment assessments ('derived');
--     human_from := 'ingested' or 'derived' forces one reading (human_from 'auto' is the rule
--     above).  human_source names the reading used.
--   Several judges: rows with judge '' (already averaged) are used where present, else the
--     mean over judges; n_judges counts named judges.
--   segments := [ids] (ulcdb meta --where): only those segments' assessments; document and
--     system scores are then derived from them (ingested ones cover other segments too).
--   n_segments: assessed segments under the unit (NULL at seg level, and for ingested scores
--     of units with no segment assessments); units with fewer than min_segments are left out.
-- unit is the segment id as text, the document id, or 'sys'.
-- Usage: select * from meta_human('wmt21.en-de', 'doc', 'MQM');
--        select * from meta_human('wmt20.en-de', 'doc', 'DA-raw', min_segments := 2);
create or replace macro meta_human(testbed_name, lvl, criterion_name, human_from := 'auto',
                                   min_segments := 1, segments := null) as table
with judged as (
    select translator, role, level, doc_id, seg_id, value, n_judges
    from judged_assessments
    where testbed = testbed_name and criterion = criterion_name
      and (segments is null
           or (level = 'seg' and seg_id in (select unnest(segments::integer[]))))
),
segments as (
    select * from judged where level = 'seg'
),
derived as (
    select translator, role, lvl as level,
           case when lvl = 'doc' then doc_id end as doc_id,
           null::integer as seg_id,
           avg(value order by seg_id) as value,
           null::bigint as n_judges,
           count(*) as n_segments
    from segments
    where lvl in ('doc', 'sys')
    group by translator, role, case when lvl = 'doc' then doc_id end
),
ingested as (
    select j.translator, j.role, j.level, j.doc_id, j.seg_id, j.value, j.n_judges,
           d.n_segments
    from judged j
    left join derived d
        on d.translator = j.translator and d.doc_id is not distinct from j.doc_id
        and j.level <> 'seg'
    where j.level = lvl
),
rule as (
    select case
               when lvl = 'seg' then 'ingested'
               when segments is not null then 'derived'
               when human_from <> 'auto' then human_from
               when exists (select 1 from ingested) then 'ingested'
               else 'derived'
           end as human_source
),
chosen as (
    select i.*, 'ingested' as human_source from ingested i
    where (select human_source from rule) = 'ingested'
    union all by name
    select d.*, 'derived' as human_source from derived d
    where (select human_source from rule) = 'derived'
),
final as (
    select translator, role, level, doc_id, seg_id,
           case level when 'seg' then seg_id::varchar when 'doc' then doc_id else 'sys' end
               as unit,
           value as human, human_source, n_segments, n_judges
    from chosen
    where coalesce(n_segments, min_segments) >= min_segments
)
select * from final;
