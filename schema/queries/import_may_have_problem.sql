-- Whether one import (_imp) may hold a row that import_row_problem reports: a level other
-- than $1, $2, $3 ('seg', 'doc', 'sys'), a NaN or infinite value, no test bed, no or an
-- empty reference set, or a target among its own references. One quick scan, so that the
-- full check runs only when it can find something.
select exists (
    select 1 from _imp
    where level is null
       or level not in ($1, $2, $3)
       or isnan(value)
       or isinf(value)
       or testbed is null
       or refs is null
       or len(refs) = 0
       or list_contains(refs, target)
)
