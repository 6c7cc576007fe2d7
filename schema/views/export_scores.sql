-- The scores exporters write (stored and derived, from `score_rows`), one variant, in a stable
-- order; an empty list selects all.  refs: the reference set's members, sorted.
-- Usage: select * from export_scores('case:mixed', ['seg', 'doc', 'sys'], [], ['BLEU'], [], []);
create or replace macro export_scores(var, levels, testbeds, metrics, targets, refsets) as table
with members as (
    select m.refset_id, list(t.name order by t.name) as refs
    from refset_member m join translator t using (translator_id) group by m.refset_id
)
select tb.name as testbed, m.name as metric, t.name as target, mb.refs, u.level,
       u.doc_id, u.seg_id, u.value
from score_rows u
join metric m using (metric_id)
join translator t using (translator_id)
join testbed tb on tb.testbed_id = t.testbed_id
join members mb using (refset_id)
join refset r using (refset_id)
where u.variant = var
  and list_contains(levels, u.level)
  and (len(testbeds) = 0 or list_contains(testbeds, tb.name))
  and (len(metrics) = 0 or list_contains(metrics, m.name))
  and (len(targets) = 0 or list_contains(targets, t.name))
  and (len(refsets) = 0 or list_contains(refsets, r.name))
order by tb.name, m.name, r.name, t.name, u.level, u.seg_id, u.doc_id
