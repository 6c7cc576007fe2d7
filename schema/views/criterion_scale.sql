-- The scale of every human criterion of every test bed:
--   'given'  : recorded at ingest (`ulcdb ingest assessments --scale MIN:MAX`, table criterion);
--   'format' : the criterion names WMT's formats give (WMT20 DA, mt-metrics-eval, Google MQM):
--              raw DA 0..100 (DA-raw, raw, wmt-raw, wmt-appraise, esa), z-scores unbounded
--              (DA-z, z, wmt-z), WMT MQM -25..0 (MQM, mqm: 0 = no error), pSQM 0..6;
--   NULL     : not known.
-- scale_min / scale_max NULL where unbounded (or unknown).  bounded is true for a closed scale.
-- Usage: select * from criterion_scale where testbed = 'ruen';
create or replace view criterion_scale as
with used as (
    select distinct a.testbed_id, a.criterion
    from assessment a
),
known as (
    select * from (values
        ('da-raw', 0.0, 100.0), ('raw', 0.0, 100.0), ('wmt-raw', 0.0, 100.0),
        ('wmt-appraise', 0.0, 100.0), ('esa', 0.0, 100.0),
        ('da-z', null, null), ('z', null, null), ('wmt-z', null, null),
        ('mqm', -25.0, 0.0), ('psqm', 0.0, 6.0)
    ) as k(name, scale_min, scale_max)
),
final as (
    select tb.name as testbed, u.criterion,
           case when c.name is not null then c.scale_min else k.scale_min end as scale_min,
           case when c.name is not null then c.scale_max else k.scale_max end as scale_max,
           case when c.name is not null then 'given' when k.name is not null then 'format' end
               as scale_source
    from used u
    join testbed tb on tb.testbed_id = u.testbed_id
    left join criterion c on c.testbed_id = u.testbed_id and c.name = u.criterion
    left join known k on k.name = lower(u.criterion)
)
select *, scale_min is not null and scale_max is not null as bounded from final;
