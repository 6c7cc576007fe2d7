-- What the SQLite mirror's analysis parts of one test bed read besides its scores, per test
-- bed: its rows of each dimension table, its human judgments and their scales (row count and
-- the sum of the rows' hashes, the fingerprint of ulcdb.serve.mirror_parts).  A test bed added
-- or changed leaves the other test beds' fingerprints as they were, so their analysis parts
-- are not rewritten.
with rows_of as (
    select testbed_id, 'testbed' as source, hash(t) as h from testbed t
    union all
    select testbed_id, 'translator', hash(t) from translator t
    union all
    select testbed_id, 'refset', hash(t) from refset t
    union all
    select r.testbed_id, 'refset_member', hash(m)
    from refset_member m
    join refset r using (refset_id)
    union all
    select testbed_id, 'segment', hash(t) from segment t
    union all
    select testbed_id, 'document', hash(t) from document t
    union all
    select testbed_id, 'assessment', hash(t) from assessment t
    union all
    select testbed_id, 'criterion', hash(t) from criterion t
),

final as (
    select tb.name as testbed, r.source, count(*) as n, sum(r.h)::varchar as total
    from rows_of r
    join testbed tb using (testbed_id)
    group by tb.name, r.source
)

select * from final
order by testbed, source
