-- The reference set R of QARLA per test bed: refs lists reference names (null: all of the
-- test bed's references); testbeds lists test bed names (null: every test bed).  pos numbers the references 0..n_refs-1 by name; refset is R's
-- name (members sorted, joined with '+') and refset_id its refset, where one exists.
-- Usage: select * from qarla_refs(refs := ['ref-A', 'ref-C', 'ref-D']);
create or replace macro qarla_refs(refs := null, testbeds := null) as table
with scope as (
    select testbed_id, translator_id, name
    from translator
    where role = 'reference' and (refs is null or list_contains(refs, name))
      and (testbeds is null or testbed_id in (
          select testbed_id from testbed where list_contains(testbeds, testbed.name)))
),
numbered as (
    select
        *,
        (row_number() over (partition by testbed_id order by name) - 1)::integer as pos,
        count(*) over (partition by testbed_id) as n_refs,
        array_to_string(list_sort(list(name) over (partition by testbed_id)), '+') as refset
    from scope
),
final as (
    select n.*, r.refset_id
    from numbered n
    left join refset r on r.testbed_id = n.testbed_id and r.name = n.refset
)
select * from final;
