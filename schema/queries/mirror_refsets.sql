-- The reference sets of test bed $1 the SQLite mirror meta-evaluates against (those whose
-- scores mirror_scores.sql keeps): the full set of references first, then each single one.
select refset
from stg_refset
where testbed = $1
  and refset_kind = 'reference'
  and (size = 1 or size = (select max(size) from stg_refset
                           where testbed = $1 and refset_kind = 'reference'))
order by size desc, refset
