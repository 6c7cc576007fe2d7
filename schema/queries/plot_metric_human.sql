-- Runs on the SQLite mirror (Datasette's /-/plots/metric-human): one metric's scores at
-- :level against the mean human score of :criterion on the same unit (segment, document or
-- the whole system), at most 5000 points.  :ingested is 1 when the human scores of :level
-- are stored; else they are the means of the segment-level ones.
with h as (
    select testbed, translator,
           case :level when 'seg' then seg_id when 'doc' then doc_id else '' end as unit,
           avg(value) as human
    from assessments
    where criterion = :criterion
      and testbed = :testbed
      and level = case when :ingested then :level else 'seg' end
    group by 1, 2, 3
)

select s.translator, s.role,
       case :level when 'seg' then s.seg_id when 'doc' then s.doc_id else '' end as unit,
       s.value, h.human
from scores s
join h on h.testbed = s.testbed and h.translator = s.translator
      and h.unit = case :level when 'seg' then s.seg_id when 'doc' then s.doc_id else '' end
where s.level = :level
  and s.metric = :metric
  and s.refset = :refset
  and s.testbed = :testbed
  and s.value is not null
limit 5000
