-- QUEEN's counts per target and segment (the core of `queen`, `king` and `jack`), with
-- integer keys.  For a target a the triples <r, r', r''> come from its pool P = R minus a
-- itself minus the held-out reference, with r' != r''.  A triple is a hit when every metric x
-- of the set has x(a, r) >= x(r', r'') (ties are hits; `qarla_scores`' x, no normalisation;
-- a missing score is no hit).  x(r', r'') is r' scored against r'' alone, stored or, where
-- a release stores it as a human system's (WMT20's Human-B.0), read from `qarla_extra_rows`.
--   strict := false  Asiya 3.0's reading: r is free (it may be r' or r''): |P|^2 (|P| - 1)
--                    triples (18 for 3 references, 48 for 4);
--   strict := true   r, r', r'' all distinct: |P| (|P| - 1) (|P| - 2) triples.
--   trans_topic      x(r', r'') comes from every segment in scope, not only the current one
--                    (IQeval's -TT): the triple count is multiplied by the segment count.
--                    Cost grows with the square of the segment count.
--   holdout := false one pass with R (held_out = 0): targets are the systems and every
--                    reference (a reference against the others);
--   holdout := true  one pass per reference h of R, with R - {h} (held_out = h's
--                    translator_id): targets are the systems and h, what KING compares.
-- refs, systems, segs, testbeds: lists of names / seg_ids / test bed names, or null for all.
-- How the hits are counted without comparing every triple on its own: the pairs (r', r'')
-- compared with a segment are numbered j and get one bit each, 52 to a word (a double holds
-- their sums exactly).  Per metric, segment and word the pair values make one list `pv` of
-- (value, bit); each score x(a, r) is compared with the list at once (the whole word when x
-- is above every value, none when below), and the bits of the values it reaches add up to
-- the bitset of the pairs that metric lets through.  bit_and over the metrics keeps the
-- pairs every metric lets through (only when every metric has its score), and a mask keeps
-- the pairs the target may use (neither a nor the held-out reference; strict: not r
-- either).  hits: the bits left.  A segment where no two references of R have a score of
-- any metric of the set (no pair value at all) has no row: its QUEEN is not known.
-- Rows: testbed_id, variant, held_out, translator_id, seg_id, refset (P's name), pool_size,
-- hits, triples.
-- Usage: select * from queen_hits(['BLEU', 'NIST']);
create or replace macro queen_hits(metric_names, refs := null, systems := null, strict := false,
                                   trans_topic := false, segs := null, holdout := false,
                                   testbeds := null)
as table
with r as (
    select * from qarla_refs(refs := refs, testbeds := testbeds)
),
metrics as (
    select metric_id, case when higher_is_better then 1 else -1 end as sign
    from metric
    where list_contains(metric_names, name)
),
against_ref as (  -- the refset of each single reference of R
    select f.refset_id, r.testbed_id, r.translator_id as ref, r.name
    from refset f
    join refset_member m using (refset_id)
    join r on r.translator_id = m.translator_id
    where f.size = 1
),
extra as materialized (  -- planned and read once, though `seg_rows` is read twice
    select metric_id, translator_id, refset_id, variant, seg_id, value
    from qarla_extra_rows(metric_names, 'seg')
),
seg_rows as not materialized (  -- `score_rows` at seg level, read as `qarla_scores` does
    select metric_id, translator_id, refset_id, variant, seg_id, value
    from seg_score
    union all
    select * from extra  -- x(r', r'') stored as a human system's (WMT20's Human-B.0)
),
seg_pos as (
    select testbed_id, seg_id,
           row_number() over (partition by testbed_id order by seg_id) - 1 as pos,
           count(*) over (partition by testbed_id) as n
    from segment
    where segs is null or list_contains(segs, seg_id)
),
pair_index as (  -- the pairs (r', r'') = (r1, r2) of R, numbered k
    select a.testbed_id, a.translator_id as r1, b.translator_id as r2,
           a.pos * (a.n_refs - 1) + b.pos - (b.pos > a.pos)::integer as k,
           a.n_refs * (a.n_refs - 1) as n_pairs
    from r a
    join r b on b.testbed_id = a.testbed_id and b.translator_id <> a.translator_id
),
slots as (  -- slot j of each pair per segment key (trans_topic: one key, a slot per segment)
    select p.testbed_id, p.r1, p.r2, g.seg_id,
           case when trans_topic then 0 else g.seg_id end as seg_key,
           case when trans_topic then g.pos * p.n_pairs + p.k else p.k end as j,
           trans_topic or g.pos = 0 as first
    from pair_index p
    join seg_pos g using (testbed_id)
),
held as (
    select distinct testbed_id, 0 as held_out from r where not holdout
    union all
    select testbed_id, translator_id as held_out from r where holdout
),
targets as (
    select h.testbed_id, h.held_out, t.translator_id
    from held h
    join translator t on t.testbed_id = h.testbed_id
    where (t.role = 'system' and (systems is null or list_contains(systems, t.name)))
       or (t.role = 'reference' and h.held_out in (0, t.translator_id))
),
pv as (  -- per test bed, metric, segment key and word: the pair values x(r', r'') with
         -- their bits (seg_id numbers the segments of one test bed)
    select p.testbed_id, u.variant, u.metric_id, p.seg_key, p.j // 52 as word, any_value(m.sign) as sign,
           list({'p': m.sign * u.value, 'b': (1::bigint << (p.j % 52))::double}) as pairs,
           min(m.sign * u.value) as lo,
           max(m.sign * u.value) as hi,
           bit_or(1::bigint << (p.j % 52)) as all_bits
    from seg_rows u
    join metrics m using (metric_id)
    join against_ref a using (refset_id)
    join slots p on p.r1 = u.translator_id and p.r2 = a.ref and p.seg_id = u.seg_id
    where u.value is not null
      -- redundant with the join on slots, but the scan then passes only the references'
      -- rows (the pair values are theirs), not every translator's
      and u.translator_id in (select translator_id from r)
    group by all
),
pv_lists as (  -- the values and their bits as two lists (the comparisons' inner product)
    select * exclude (pairs), list_transform(pairs, lambda e: e.p) as pv,
           list_transform(pairs, lambda e: e.b) as bits
    from pv
),
sims as (  -- x(a, r) against the references of R one by one (the targets are picked in
           -- `counted`), with the pair values of the test bed (r's), metric and segment
           -- (an inner join: DuckDB builds its hash table on `pv`, the smaller side)
    select u.variant, u.translator_id, u.refset_id, u.seg_id, v.word,
           v.sign * u.value as x, v.pv, v.bits, v.lo, v.hi, v.all_bits
    from seg_rows u
    join against_ref a using (refset_id)
    join pv_lists v on v.testbed_id = a.testbed_id and v.variant = u.variant
     and v.metric_id = u.metric_id
     and v.seg_key = case when trans_topic then 0 else u.seg_id end
    where u.metric_id in (select metric_id from metrics)
      and (segs is null or list_contains(segs, u.seg_id))
),
reached as (  -- per target, reference, segment and word: the pairs every metric reaches
    select variant, translator_id, refset_id, seg_id, word,
           bit_and(case
                       when x is null then null
                       when x >= hi then all_bits
                       when x < lo then 0
                       else list_inner_product(list_transform(pv, lambda p: (x >= p)::double),
                                               bits)
                   end::bigint) as mask,
           count(x) as n  -- a NULL score (a failed parse) makes no mask
    from sims
    group by all
),
pool as (
    select g.testbed_id, g.held_out, g.translator_id, a.ref, a.refset_id, a.name
    from targets g
    join against_ref a on a.testbed_id = g.testbed_id
     and a.ref not in (g.held_out, g.translator_id)
),
pool_size as (
    select held_out, translator_id, array_to_string(list_sort(list(name)), '+') as refset,
           count(*) as n
    from pool
    group by all
),
masks as (
    select g.held_out, g.translator_id, g.refset_id, p.j // 52 as word,
           bit_or(1::bigint << (p.j % 52)) as mask
    from pool g
    join slots p on p.testbed_id = g.testbed_id
     and p.r1 not in (g.held_out, g.translator_id) and p.r2 not in (g.held_out, g.translator_id)
     and (not strict or g.ref not in (p.r1, p.r2))
    where p.first
    group by all
),
counted as (
    select g.testbed_id, c.variant, g.held_out, c.translator_id, c.seg_id,
           coalesce(sum(bit_count(c.mask & m.mask)) filter (
               where c.n = len(list_distinct(metric_names))), 0) as hits
    from reached c
    join targets g on g.translator_id = c.translator_id
    left join masks m on m.held_out = g.held_out and m.translator_id = c.translator_id
     and m.refset_id = c.refset_id and m.word = c.word
    group by all
),
n_segments as (
    select testbed_id, any_value(n) as n from seg_pos group by all
),
final as (
    select
        c.testbed_id,
        c.variant,
        c.held_out,
        c.translator_id,
        c.seg_id,
        p.refset,
        p.n as pool_size,
        c.hits,
        (case when strict then p.n * (p.n - 1) * (p.n - 2) else p.n * p.n * (p.n - 1) end)
            * (case when trans_topic then g.n else 1 end) as triples
    from counted c
    join pool_size p on p.held_out = c.held_out and p.translator_id = c.translator_id
    join n_segments g on g.testbed_id = c.testbed_id
)
select * from final;
