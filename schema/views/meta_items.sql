-- The metric-versus-human item table of one level: every (metric, variant, target, unit)
-- with both a metric score (meta_metric) and a human score (meta_human).  Targets are the
-- translators scored against the reference set: systems, and human translations (references
-- outside the set); systems (a list of names) keeps only those.
-- segments := [ids] and rescored: the slice of `ulcdb meta --where` (see meta_metric,
-- meta_human).
-- common is true where every (metric, variant) of the call scores the item (target, unit);
-- common_items := true keeps only those, so that every metric is correlated on the same items
-- (what `ulcdb meta` does unless --own-items).
-- Columns: testbed, metric, variant, higher_is_better, translator, role, level, doc_id,
-- seg_id, unit, human, human_source ('ingested' or 'derived'), n_segments, n_judges,
-- value (the metric's score), score (value oriented: higher is better), common.
-- Usage: select * from meta_items('wmt21.en-de', 'seg', 'MQM', 'ref-A+ref-C+ref-D');
--        select * from meta_items('wmt20.en-de', 'sys', 'DA-z', 'newstest2020',
--                                 systems := ['OPPO.1535', 'UEDIN.1136'], reading := 'doc_mean');
--        select * from meta_items('ruen', 'seg', 'DA-raw', 'ref-A', metrics := ['chrF', 'GTM-3'],
--                                 common_items := true);
create or replace macro meta_items(testbed_name, lvl, criterion_name, refset_name,
                                   systems := null, metrics := null, variant_name := null,
                                   reading := 'metric', human_from := 'auto',
                                   min_segments := 1, common_items := false,
                                   segments := null, rescored := null) as table
with metric_side as (
    select * from meta_metric(testbed_name, lvl, refset_name, reading := reading,
                              variant_name := variant_name, metrics := metrics,
                              segments := segments, rescored := rescored)
),
human_side as (
    select * from meta_human(testbed_name, lvl, criterion_name, human_from := human_from,
                             min_segments := min_segments, segments := segments)
),
joined as (
    select testbed_name as testbed, m.metric, m.variant, m.higher_is_better, m.translator,
           m.role, m.level, coalesce(m.doc_id, h.doc_id) as doc_id, m.seg_id, m.unit,
           h.human, h.human_source, h.n_segments, h.n_judges, m.value, m.score
    from metric_side m
    join human_side h using (translator, unit)
    where systems is null or list_contains(systems, m.translator)
),
counted as (
    select *,
           count(*) over (partition by translator, unit)
               = (select count(distinct (metric, variant)) from joined) as common
    from joined
),
final as (
    select * from counted
    where common or not common_items
)
select * from final;
