-- `ulcdb list criteria`: the human assessment criteria of test bed $1 per level, with how
-- many assessments, translators and judges each has and the range of its values.
select criterion, level, count(*) as assessments,
       count(distinct translator) as translators, count(distinct judge) as judges,
       min(value) as min, max(value) as max
from assessments
where testbed = $1
group by all
order by all
