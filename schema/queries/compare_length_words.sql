-- `ulcdb compare --by length`: the number of words (whitespace-separated) of each segment of
-- translator $2 (the reference the buckets are cut on) in test bed $1 (an id).
select x.seg_id, len(string_split_regex(trim(x.text), '\s+')) as words
from translation x
join translator t using (translator_id)
where t.testbed_id = $1
  and t.name = $2
