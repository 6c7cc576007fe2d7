-- Per test bed, its systems and its references (in the order they were added): the SQLite
-- mirror computes QUEEN and KING of a test bed over all its references (QUEEN from 3, KING
-- from 2, KING's QUEEN measure from 4), comparing its systems but the references' own texts.
select
    t.name as testbed,
    coalesce(list(x.name order by x.translator_id) filter (where x.role = 'system'),
             []) as systems,
    coalesce(list(x.name order by x.translator_id) filter (where x.role = 'reference'),
             []) as refs
from testbed t
left join translator x using (testbed_id)
group by t.name
order by t.name
