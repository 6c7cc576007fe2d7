-- Backoff (x_b) and interpolation (x_i) of linguistic metrics (ULC manual 4.7), computed
-- from stored scores; rows shaped like the `unioned` step of `scores`, which unions them in.
-- A derived metric is a catalogue row of family 'backoff' named '<x>-b' or of family
-- 'interpolation' named '<x>-i' (ulcdb.metrics.backoff_interpolation registers them); x and Ol are read
-- from seg_score for the same target, reference set and variant.
--   x_b(t) = x(t) when x(t) is not NULL (the parse succeeded), else
--            Ol(t) * mean of x over the segments of the same target/refset/variant where x
--            is not NULL (ok(T)); NULL when no segment parsed or Ol(t) is missing.
--   x_i(t) = (x(t) + Ol(t)) / 2, a failed x(t) (NULL) counted as 0 so every case is scored.
-- Document and system values: the mean of the segment values (4.7: "system-level scores
-- are calculated by averaging over all sentence-level scores"), NULLs ignored.
create or replace view ling_backoff as
with derived as (
    select d.metric_id, d.family, b.metric_id as base_id
    from metric d
    join metric b on b.name = substr(d.name, 1, length(d.name) - 2)
    where (d.family = 'backoff' and d.name like '%-b')
       or (d.family = 'interpolation' and d.name like '%-i')
),
ol as (
    select s.translator_id, s.refset_id, s.variant, s.seg_id, s.value as ol
    from seg_score s
    join metric m using (metric_id)
    where m.name = 'Ol'
),
rows as (
    select d.metric_id, d.family, s.translator_id, s.refset_id, s.variant, s.seg_id,
           s.value as x, s.batch_id
    from derived d
    join seg_score s on s.metric_id = d.base_id
),
ok_mean as (  -- means in segment order: the same bits on every run
    select metric_id, translator_id, refset_id, variant, avg(x order by seg_id) as x_ok_mean
    from rows
    group by all
),
base as (
    select * from rows join ok_mean using (metric_id, translator_id, refset_id, variant)
),
seg as (
    select b.metric_id, b.translator_id, b.refset_id, b.variant, 'seg' as level,
           g.doc_id, b.seg_id,
           case
               when b.family = 'backoff' then coalesce(b.x, o.ol * b.x_ok_mean)
               else (coalesce(b.x, 0) + o.ol) / 2
           end as value,
           b.batch_id
    from base b
    join translator t on t.translator_id = b.translator_id
    join segment g on g.testbed_id = t.testbed_id and g.seg_id = b.seg_id
    left join ol o
        on o.translator_id = b.translator_id and o.refset_id = b.refset_id
       and o.variant = b.variant and o.seg_id = b.seg_id
),
doc as (
    select metric_id, translator_id, refset_id, variant, 'doc' as level, doc_id,
           null::integer as seg_id, avg(value order by seg_id) as value,
           max(batch_id) as batch_id
    from seg
    group by metric_id, translator_id, refset_id, variant, doc_id
),
sys as (
    select metric_id, translator_id, refset_id, variant, 'sys' as level,
           null::varchar as doc_id, null::integer as seg_id,
           avg(value order by seg_id) as value, max(batch_id) as batch_id
    from seg
    group by metric_id, translator_id, refset_id, variant
),
final as (
    select * from seg
    union all select * from doc
    union all select * from sys
)
select * from final;
