-- Pearson and Spearman correlations of each metric with the human scores (meta_items), in
-- SQL: Pearson is corr(); Spearman is corr() of mid-ranks (rank() plus half the ties), the
-- metric scores ranked at 10 decimals (ulcdb.stats.correlations.RANK_DECIMALS: float noise such as
-- 1 - x neither makes nor breaks a tie, so -TER and 1-TER rank alike).
-- grouping_by follows mt-metrics-eval: 'flat' (one correlation over all items), 'item' (one
-- per unit, i.e. per segment or document across systems, then averaged) or 'system' (one
-- per system, then averaged); undefined per-group correlations (NaN, groups of one item)
-- are left out of the average.  n_items counts items, n_groups the groups averaged.
-- Usage: select * from meta_corr('wmt21.en-de', 'seg', 'MQM', 'ref-A', grouping_by := 'item');
create or replace macro meta_corr(testbed_name, lvl, criterion_name, refset_name,
                                  grouping_by := 'flat', systems := null, metrics := null,
                                  variant_name := null, reading := 'metric',
                                  human_from := 'auto', min_segments := 1,
                                  common_items := false, segments := null,
                                  rescored := null) as table
with items as (
    select metric, variant, human, score,
           case grouping_by when 'item' then unit when 'system' then translator else '' end
               as grp
    from meta_items(testbed_name, lvl, criterion_name, refset_name, systems := systems,
                    metrics := metrics, variant_name := variant_name, reading := reading,
                    human_from := human_from, min_segments := min_segments,
                    common_items := common_items, segments := segments,
                    rescored := rescored)
),
ranked as (
    select *,
           rank() over (partition by metric, variant, grp order by human)
               + (count(*) over (partition by metric, variant, grp, human) - 1) / 2
               as human_rank,
           rank() over (partition by metric, variant, grp order by round(score, 10))
               + (count(*) over (partition by metric, variant, grp, round(score, 10)) - 1) / 2
               as score_rank
    from items
),
per_group as (
    select metric, variant, grp,
           corr(human, score) as r_pearson,
           corr(human_rank, score_rank) as r_spearman,
           count(*) as n
    from ranked
    group by metric, variant, grp
),
final as (
    select metric, variant,
           avg(r_pearson) filter (where n >= 2 and not isnan(r_pearson)) as pearson,
           avg(r_spearman) filter (where n >= 2 and not isnan(r_spearman)) as spearman,
           sum(n) as n_items,
           count(*) filter (where n >= 2 and not isnan(r_pearson)) as n_groups
    from per_group
    group by metric, variant
)
select * from final;
