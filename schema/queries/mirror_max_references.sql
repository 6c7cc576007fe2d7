-- The largest number of human references any test bed has (0 without test beds): the mirror
-- materialises QUEEN from 3 references, KING from 2 and KING's QUEEN measure from 4.
select coalesce(max(n), 0) as n
from (
    select count(*) as n
    from translator
    where role = 'reference'
    group by testbed_id
)
