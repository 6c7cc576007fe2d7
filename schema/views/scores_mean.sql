-- The other reading of document and system scores: the mean of the segment scores
-- (the ULC manual's wording, and the DR' reading for documents), beside each metric's own
-- corpus-level formula in `scores`.
create or replace view scores_mean as
with seg as (
    select * from scores where level = 'seg'
),
doc as (
    select testbed, metric, translator, role, refset, refset_kind, variant,
           'doc' as level, doc_id, avg(value order by seg_id) as value,
           count(value) as n_segments
    from seg
    group by all
),
sys as (
    select testbed, metric, translator, role, refset, refset_kind, variant,
           'sys' as level, null::varchar as doc_id, avg(value order by seg_id) as value,
           count(value) as n_segments
    from seg
    group by all
),
final as (
    select * from doc
    union all select * from sys
)
select * from final;
