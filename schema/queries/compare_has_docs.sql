-- `ulcdb compare`: whether metric $2 has document scores against the reference set $3 under
-- variant $4 in test bed $1 (then a comparison without segment scores can use --unit doc).
select exists (
    select 1
    from scores
    where testbed = $1
      and metric = $2
      and refset = $3
      and variant = $4
      and level = 'doc'
)
