-- The one rule of imported scores: a score is imported when its batch names the file it came
-- from (origin other than 'computed').  The keys (metric, target, reference set, variant; ids)
-- holding imported scores at any level, with origins listing those files (for the notes
-- commands print).  Scoring never writes, replaces or deletes scores under these keys.
-- Each argument narrows the rows read (null: all): testbed_ids (ids), refsets (names, within
-- those test beds), var (one variant), metric_ids (ids).  Named test beds or reference sets
-- are read alone: the join picking their rows filters the scans, so one test bed of a store
-- of many costs what its own rows cost (issue 30: 0.03 s where every row took 0.7 s at 40M
-- scores); with neither, every row is read without that join (the `imported_keys` view).
-- Usage: select * from imported_score_keys(testbed_ids := [1], var := 'case:mixed');
create or replace macro imported_score_keys(testbed_ids := null, refsets := null,
                                            var := null, metric_ids := null) as table
with imported as (
    select batch_id, origin from score_batch where origin <> 'computed'
),
chosen_refsets as (
    select refset_id from refset
    where (testbed_ids is null or list_contains(testbed_ids, testbed_id))
      and (refsets is null or list_contains(refsets, name))
),
scoped as (  -- one branch is left once the arguments are known
    select metric_id, translator_id, refset_id, variant, batch_id
    from stored_scores
    where testbed_ids is null and refsets is null
    union all
    select metric_id, translator_id, refset_id, variant, batch_id
    from stored_scores
    semi join chosen_refsets using (refset_id)
    where testbed_ids is not null or refsets is not null
),
keys as (
    select distinct metric_id, translator_id, refset_id, variant, batch_id
    from scoped
    semi join imported using (batch_id)
    where (var is null or variant = var)
      and (metric_ids is null or list_contains(metric_ids, metric_id))
),
final as (
    select k.metric_id, k.translator_id, k.refset_id, k.variant,
           list_sort(list_distinct(list(i.origin))) as origins
    from keys k
    join imported i using (batch_id)
    group by all
)
select * from final;
