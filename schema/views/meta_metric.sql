-- Metric scores for meta-evaluation: one row per metric, variant, target and unit of one
-- test bed, level and reference set.  reading picks how document and system scores are read:
--   'metric'   the metric's own document / system score (its corpus-level formula);
--   'seg_mean' the mean of its segment scores (the ULC manual's wording);
--   'doc_mean' at sys level the mean of its document scores: the DR' reading of
--              Comelles et al. (2010), section 3.2; at doc level the same as 'metric'.
-- At seg level every reading is the segment score.  score is value oriented so that higher is
-- better (negated for metrics whose lower values are better).
-- segments := [ids] (ulcdb meta --where) keeps only those segments' scores: document and
-- system scores are then recomputed from them, as the mean of the selected segment scores,
-- except for the metrics given in rescored (their values computed by the caller, e.g. BLEU's
-- corpus formula on the selected segments' statistics: rows of metric, variant, translator,
-- doc_id, value; with reading doc_mean at sys level, every metric's system score, the mean of
-- its recomputed document scores).  The caller checks that the mean is the metric's own
-- reading.  Optional filters: metrics
-- (list of names), variant_name.
-- Usage: select * from meta_metric('wmt21.en-de', 'sys', 'ref-A', reading := 'doc_mean');
create or replace macro meta_metric(testbed_name, lvl, refset_name, reading := 'metric',
                                    variant_name := null, metrics := null, segments := null,
                                    rescored := null) as table
with base as (
    select metric, variant, higher_is_better, translator, role, level, doc_id, seg_id, value
    from scores
    where testbed = testbed_name and refset = refset_name
      and (variant_name is null or variant = variant_name)
      and (metrics is null or list_contains(metrics, metric))
      and (segments is null
           or (level = 'seg' and seg_id in (select unnest(segments::integer[]))))
),
given as (
    select r.metric, r.variant, r.translator, r.doc_id, r.value
    from (select unnest(rescored::struct(metric varchar, variant varchar, translator varchar,
                                         doc_id varchar, value double)[]) as r)
),
recomputed as (
    select g.metric, g.variant, k.higher_is_better, g.translator, k.role, lvl as level,
           case when lvl = 'doc' then g.doc_id end as doc_id, null::integer as seg_id,
           g.value
    from given g
    join (select distinct metric, translator, higher_is_better, role from base) k
        using (metric, translator)
    where lvl in ('doc', 'sys')
),
own as (
    select * from base
    where level = lvl
      and (lvl = 'seg' or reading = 'metric' or (reading = 'doc_mean' and lvl = 'doc'))
),
seg_mean as (
    select metric, variant, higher_is_better, translator, role, lvl as level,
           case when lvl = 'doc' then doc_id end as doc_id,
           null::integer as seg_id,
           avg(value order by seg_id) as value
    from base
    where level = 'seg' and lvl in ('doc', 'sys')
      and (reading = 'seg_mean'
           or (segments is not null and metric not in (select metric from given)
               and (reading = 'metric' or (reading = 'doc_mean' and lvl = 'doc'))))
    group by metric, variant, higher_is_better, translator, role,
             case when lvl = 'doc' then doc_id end
),
doc_mean as (
    select metric, variant, higher_is_better, translator, role, 'sys' as level,
           null::varchar as doc_id, null::integer as seg_id,
           avg(value order by doc_id) as value
    from base
    where level = 'doc' and reading = 'doc_mean' and lvl = 'sys'
    group by metric, variant, higher_is_better, translator, role
),
unioned as (
    select * from own
    union all by name select * from seg_mean
    union all by name select * from doc_mean
    union all by name select * from recomputed
),
final as (
    select metric, variant, higher_is_better, translator, role, level, doc_id, seg_id,
           case level when 'seg' then seg_id::varchar when 'doc' then doc_id else 'sys' end
               as unit,
           value,
           case when higher_is_better then value else -value end as score
    from unioned
    where value is not null
)
select * from final;
