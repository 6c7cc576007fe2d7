-- How many keys one import (_imp_res) gives more than one score: segment scores ($1: 'seg')
-- by their seg_id, the others by their level and doc_id (narrower keys group faster than
-- all six columns: 0.5 s, not 0.7, on WMT20).
select (select count(*) from (
            select 1 from _imp_res
            where level = $1
            group by metric_id, translator_id, refset_id, seg_id
            having count(*) > 1))
     + (select count(*) from (
            select 1 from _imp_res
            where level <> $1
            group by metric_id, translator_id, refset_id, level, doc_id
            having count(*) > 1))
