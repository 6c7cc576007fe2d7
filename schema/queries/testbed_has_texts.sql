-- Whether test bed $1 (an id) holds any translation text: a scores-only test bed (made from
-- score files, e.g. a WMT20 release) has none, so ulcdb can compute no metric there.
select exists (
    select 1
    from translation
    join translator using (translator_id)
    where testbed_id = $1
)
