-- A value written as SQL text that reads back as the same value of the same type: a text as a
-- quoted literal ('it''s'), anything else as its JSON in a quoted literal cast back to its
-- type ('["ref-A","it''s"]'::json::VARCHAR[], 'true'::json::BOOLEAN), null as null.  A macro
-- that plans a branch only when its arguments ask for it (query(), as `king_quality` does for
-- the 'queen' measure) writes each argument with it: quotes are doubled and lists go through
-- JSON, so no argument is ever spliced into the statement raw.
-- Usage: select sql_literal(['a', 'it''s']);
create or replace macro sql_literal(v) as
    coalesce(case when typeof(v) = 'VARCHAR'
                  then '''' || replace(v::varchar, '''', '''''') || ''''
                  else '''' || replace(to_json(v)::varchar, '''', '''''') || '''::json::'
                       || typeof(v)
             end, 'null');
