-- The variants scores are stored under, as one sorted list `names`: QARLA's macros number a
-- row's variant by its position in it (list_position), so that their large aggregations
-- group by an integer instead of the text.  Each score table's smallest and largest variant
-- come from its min and max (DuckDB keeps them in its statistics); the others are those
-- strictly between, read only from the row groups whose own min and max allow one (none when
-- a table holds one variant).  Every table is read: derived rows (`ling_backoff`'s document
-- and system rows) carry the variants of the segment rows they come from.
-- Usage: select names from score_variants;
create or replace view score_variants as
with bounds as (
    select 'seg' as level, min(variant) as lo, max(variant) as hi from seg_score
    union all
    select 'doc', min(variant), max(variant) from doc_score
    union all
    select 'sys', min(variant), max(variant) from sys_score
),
between_them as (
    select s.variant from seg_score s, bounds b
    where b.level = 'seg' and s.variant > b.lo and s.variant < b.hi
    union all
    select s.variant from doc_score s, bounds b
    where b.level = 'doc' and s.variant > b.lo and s.variant < b.hi
    union all
    select s.variant from sys_score s, bounds b
    where b.level = 'sys' and s.variant > b.lo and s.variant < b.hi
),
final as (
    select list_sort(list_distinct(list(lo) || list(hi)
                                   || coalesce((select list(distinct variant)
                                                from between_them), []))) as names
    from bounds
)
select * from final;
