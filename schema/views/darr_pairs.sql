-- The WMT "DARR" pairs: two targets of the same unit (segment or document; at sys level all
-- systems share one unit) whose human scores differ by at least threshold (WMT: 25 points of
-- raw DA).  better is the target the humans scored higher; outcome says whether the metric
-- agrees: 'concordant', 'discordant', or 'tie' (equal metric scores).  A pair the humans tie
-- (possible only with threshold <= 0) is discordant unless the metric ties too, as
-- mt-metrics-eval's KendallLike counts it.
-- Usage: select * from darr_pairs('wmt20.en-de', 'seg', 'DA-raw', 'newstest2020');
create or replace macro darr_pairs(testbed_name, lvl, criterion_name, refset_name,
                                   threshold := 25, systems := null, metrics := null,
                                   variant_name := null, reading := 'metric',
                                   human_from := 'auto', min_segments := 1,
                                   common_items := false, segments := null,
                                   rescored := null) as table
with items as (
    select * from meta_items(testbed_name, lvl, criterion_name, refset_name,
                             systems := systems, metrics := metrics,
                             variant_name := variant_name, reading := reading,
                             human_from := human_from, min_segments := min_segments,
                             common_items := common_items, segments := segments,
                             rescored := rescored)
),
pairs as (
    select a.metric, a.variant, a.unit, a.doc_id, a.seg_id,
           case when a.human >= b.human then a.translator else b.translator end as better,
           case when a.human >= b.human then b.translator else a.translator end as worse,
           greatest(a.human, b.human) as human_better,
           least(a.human, b.human) as human_worse,
           -- metric scores compared at 10 decimals (ulcdb.stats.correlations.RANK_DECIMALS): float
           -- noise (1 - x) neither makes nor breaks a tie
           round(case when a.human >= b.human then a.score else b.score end, 10)
               as score_better,
           round(case when a.human >= b.human then b.score else a.score end, 10)
               as score_worse
    from items a
    join items b
        on a.metric = b.metric and a.variant = b.variant and a.unit = b.unit
        and a.translator < b.translator
    where abs(a.human - b.human) >= threshold
),
final as (
    select *,
           case
               when score_better = score_worse then 'tie'
               when score_better > score_worse and human_better > human_worse then 'concordant'
               else 'discordant'
           end as outcome
    from pairs
)
select * from final;
