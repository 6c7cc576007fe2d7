-- Human translations submitted as systems that are a reference's own text: from_id is the
-- system, translator_id the reference (what `reference_rows` reads the system's scores as,
-- and what the QARLA commands name when such a system is among the systems compared).
-- A system is a reference's copy when it is in its test bed's system set 'human' (the WMT20
-- importer saves it), is named Human-<X>.<n> and the test bed's reference ref-<X> has no
-- other such system: WMT's naming (in the WMT20 release Human-X.0's text is reference X's:
-- parbleu gives it 100 against X on every segment of every language pair).
create or replace view reference_copies as
with human as (
    select s.testbed_id, m.member as name
    from named_set s
    join named_set_member m using (set_id)
    where s.kind = 'system' and s.name = 'human'
),
final as (
    select t.translator_id as from_id, r.translator_id
    from translator t
    semi join human h on h.testbed_id = t.testbed_id and h.name = t.name
    join translator r on r.testbed_id = t.testbed_id and r.role = 'reference'
     and r.name = 'ref-' || regexp_extract(t.name, '^Human-([A-Za-z0-9]+)\.[0-9]+$', 1)
    where t.role = 'system'
    qualify count(*) over (partition by r.translator_id) = 1
)
select * from final;
