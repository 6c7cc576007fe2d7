-- Whether each metric's own document or system scores are the mean of its segment scores
-- (true for most trained and linguistic metrics, false for corpus-level formulas such as
-- BLEU, chrF, TER, METEOR): one row per metric and variant stored at level lvl against the
-- reference set, with the largest relative gap between a stored score and the mean of the
-- unit's segment scores (scores_mean).  is_mean: every gap below 1e-9.  Used by
-- `ulcdb meta --where`, which must recompute document and system scores on a slice.
-- metrics := [names] restricts the check to those metrics.
-- Usage: select * from mean_reading('wmt21.en-de', 'sys', 'ref-A', metrics := ['BLEU', 'Ol']);
create or replace macro mean_reading(testbed_name, lvl, refset_name, metrics := null) as table
with own as (
    select metric, variant, translator, doc_id, value from scores
    where testbed = testbed_name and refset = refset_name and level = lvl
      and value is not null and (metrics is null or list_contains(metrics, metric))
),
means as (
    select metric, variant, translator, doc_id, value from scores_mean
    where testbed = testbed_name and refset = refset_name and level = lvl
      and (metrics is null or list_contains(metrics, metric))
),
gaps as (
    select o.metric, o.variant,
           abs(o.value - m.value) / greatest(1, abs(o.value)) as gap
    from own o
    left join means m
        on m.metric = o.metric and m.variant = o.variant and m.translator = o.translator
        and m.doc_id is not distinct from o.doc_id
),
final as (
    select metric, variant, max(gap) as max_gap,
           count(gap) = count(*) and max(gap) < 1e-9 as is_mean
    from gaps
    group by metric, variant
)
select * from final;
