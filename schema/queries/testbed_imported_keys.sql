-- The keys (metric, target, reference set, variant) of test bed $1 under variant $2 whose
-- scores for the metrics $3 (ids) are imported: scoring leaves them as they are
-- (`imported_score_keys`, narrowed to the test bed's rows).
select metric_id, translator_id, refset_id, variant
from imported_score_keys(testbed_ids := [$1], var := $2, metric_ids := $3)
