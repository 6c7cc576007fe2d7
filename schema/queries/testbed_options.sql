-- The options of test bed $1 as ingested (JSON, e.g. {"CASE": "lc"} from a ULC.config).
select options
from testbed
where name = $1
