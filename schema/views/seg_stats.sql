-- The sufficient statistics of the segment scores of the metrics named in the list
-- metric_names, resolved: the one definition every reader of statistics goes through (never
-- seg_score.stats itself).  Columns: metric_id, translator_id, refset_id, variant, seg_id,
-- stats (NULL: the metric has none, or the score was imported; imports carry no statistics).
-- Usage: select * from seg_stats(['BLEU-2', 'chrF']);
-- How seg_score.stats holds them (written by ulcdb.scoring.rows):
-- * NULL: none; a non-empty list: the segment's own statistics.
-- * An empty list: "on the carrier".  A family computation (one pair of one run) whose
--   metrics all share one statistics list (BLEU's 8 metrics, NIST's 10, WER and PER's 4,
--   TER's 2) stores the list once, on the rows of its carrier: the first of its metrics it
--   wrote in the family's order (BLEU, NIST, -WER, 1-TER; the next one when that key holds
--   imported scores, which the run leaves alone).  The carrier's row is the one of the same
--   computation (batch_id, target, reference set, variant) and segment whose list is not
--   empty: exactly one.  Families with several lists (chrF and chrF++, METEOR's modules)
--   store every metric's own.
-- * A row's own list comes first, so a store written before the carrier (every metric's
--   rows hold the list) reads the same.
-- * Deleting a carrier's scores without the others' (`ulcdb delete scores -m BLEU`, an
--   import of BLEU's segment scores with --replace) first hands its lists to the metric of
--   the same computation with the lowest id that stays and reads them, the new carrier
--   (schema/queries/stats_handover.sql, ulcdb.scoring.rows.hand_over_stats): the others
--   keep their statistics.  A rescoring (`ulcdb score`, --remake) writes every metric of
--   the family for a pair but the imported ones, as a new computation with its own carrier,
--   after deleting all their old rows: no row it leaves reads a carrier it deleted.
-- A table macro, not a view: the metric filter comes first, so a reader's few rows look up
-- their carriers (a view kept DuckDB from pushing the reader's metric into the join: 0.2 s
-- instead of 0.03 s for one metric of the full WMT21 en-de LEX store).
create or replace macro seg_stats(metric_names) as table
with metrics as (
    select metric_id
    from metric
    where list_contains(metric_names, name)
),
stored as (
    select s.*
    from seg_score s
    semi join metrics using (metric_id)
),
own as (
    select metric_id, translator_id, refset_id, variant, seg_id, stats
    from stored
    where stats is null or len(stats) > 0
),
on_carrier as (
    select s.metric_id, s.translator_id, s.refset_id, s.variant, s.seg_id, c.stats
    from stored s
    left join seg_score c
        on c.batch_id = s.batch_id and c.translator_id = s.translator_id
       and c.refset_id = s.refset_id and c.variant = s.variant and c.seg_id = s.seg_id
       and len(c.stats) > 0
    where len(s.stats) = 0
),
final as (
    select * from own
    union all
    select * from on_carrier
)
select * from final;
