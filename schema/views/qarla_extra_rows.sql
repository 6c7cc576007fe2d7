-- The rows QARLA reads besides a level's own score table, for a metric set (names) at one
-- level (lvl 'seg', 'doc', anything else: 'sys'); columns as `stored_scores`' without batch:
--   `reference_rows`  a reference's scores against the other references that a release
--                     stores as a human system's (WMT20's Human-B.0 against newstest2020 is
--                     ref-B's), read as the reference's own;
--   `ling_backoff`    backoff (x-b) and interpolated (x-i) scores, only when a name of the set
--                     can be one: otherwise query_table reads `no_ling_backoff` (no row) and
--                     `ling_backoff` is not even planned.
-- `qarla_values` and `queen_hits` read them here (one definition of "the extra rows").
-- Usage: select * from qarla_extra_rows(['SR-Or-*-b', 'NIST'], 'seg');
create or replace macro qarla_extra_rows(metric_names, lvl) as table
with metrics as (
    select metric_id
    from metric
    where list_contains(metric_names, name)
),
final as (
    select metric_id, translator_id, refset_id, variant, doc_id, seg_id, value
    from reference_rows
    where level = case when lvl in ('seg', 'doc') then lvl else 'sys' end
      and metric_id in (select metric_id from metrics)
    union all
    select metric_id, translator_id, refset_id, variant, doc_id, seg_id, value
    from query_table(  -- picked when the query is planned (the names are known then)
        case when len(list_filter(metric_names, lambda n: n like '%-b' or n like '%-i')) > 0
             then 'ling_backoff' else 'no_ling_backoff' end)
    where level = case when lvl in ('seg', 'doc') then lvl else 'sys' end
      and metric_id in (select metric_id from metrics)
)
select * from final;
