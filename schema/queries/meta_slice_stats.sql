-- The sufficient statistics of the segment scores that a sliced meta-evaluation sums again:
-- on test bed $2 (id $1) against reference set $3, of the corpus-level metrics of the list
-- $4, on the segments of the list $5, of variant $6 (any when null), at level $7 ('seg').
select s.metric, s.variant, s.translator, s.doc_id, s.seg_id, ss.stats
from scores s
join metric m on m.name = s.metric
join translator t on t.name = s.translator and t.testbed_id = $1
join refset r on r.name = s.refset and r.testbed_id = t.testbed_id
join seg_stats($4) ss on ss.metric_id = m.metric_id and ss.translator_id = t.translator_id
    and ss.refset_id = r.refset_id and ss.variant = s.variant and ss.seg_id = s.seg_id
where s.testbed = $2
  and s.refset = $3
  and s.level = $7
  and list_contains($4, s.metric)
  and s.seg_id in (select unnest($5::integer[]))
  and ($6::varchar is null or s.variant = $6)
order by s.metric, s.variant, s.translator, s.seg_id
