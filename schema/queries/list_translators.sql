-- `ulcdb list systems` / `list references`: the translators of role $2 in test bed $1 with
-- their number of translated segments, in the order they were ingested.
select t.name, t.origin, count(tr.seg_id) as segments
from translator t
join testbed tb using (testbed_id)
left join translation tr using (translator_id)
where tb.name = $1
  and t.role = $2
group by all
order by min(t.translator_id)
