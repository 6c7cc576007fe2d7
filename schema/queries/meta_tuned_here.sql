-- The metrics (all, or those of the list $2 when it is not null) whose stored scores on
-- test bed $1 were tuned on a test bed: their signature holds the part $3
-- ('tuned-on:<test bed>', as `ulcdb tune` writes it), by name.
select distinct metric
from scores s
join score_batch b using (batch_id)
where testbed = $1
  and ($2::varchar[] is null or list_contains($2, metric))
  and list_contains(string_split(signature, '|'), $3)
order by metric
