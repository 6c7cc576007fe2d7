-- The WMT DARR Kendall-like tau per metric over darr_pairs:
--   tau        = (C - D) / (C + D) with metric ties counted as discordant (WMT20 convention,
--                mt-metrics-eval's KendallLike);
--   tau_noties = the same with metric ties left out.
-- Usage: select * from darr_tau('wmt20.en-de', 'seg', 'DA-raw', 'newstest2020',
--                               systems := ['OPPO.1535', 'UEDIN.1136', 'AFRL.1069']);
create or replace macro darr_tau(testbed_name, lvl, criterion_name, refset_name,
                                 threshold := 25, systems := null, metrics := null,
                                 variant_name := null, reading := 'metric',
                                 human_from := 'auto', min_segments := 1,
                                 common_items := false, segments := null,
                                 rescored := null) as table
with pairs as (
    select * from darr_pairs(testbed_name, lvl, criterion_name, refset_name,
                             threshold := threshold, systems := systems, metrics := metrics,
                             variant_name := variant_name, reading := reading,
                             human_from := human_from, min_segments := min_segments,
                             common_items := common_items, segments := segments,
                             rescored := rescored)
),
counted as (
    select metric, variant,
           count(*) filter (where outcome = 'concordant') as concordant,
           count(*) filter (where outcome = 'discordant') as discordant,
           count(*) filter (where outcome = 'tie') as ties
    from pairs
    group by metric, variant
),
final as (
    select *,
           concordant + discordant + ties as n_pairs,
           (concordant - discordant - ties) / nullif(concordant + discordant + ties, 0) as tau,
           (concordant - discordant) / nullif(concordant + discordant, 0) as tau_noties
    from counted
)
select * from final;
