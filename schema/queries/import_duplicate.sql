-- The first score of one import (_imp_res) that repeats an earlier one (same metric,
-- target, reference set and unit), in file order, with the file and line of the first.
with numbered as (
    select file_no, line,
           first_value(file_no) over same_key as first_file,
           first_value(line) over same_key as first_line,
           row_number() over same_key as n
    from _imp_res
    window same_key as (partition by metric_id, translator_id, refset_id, level, seg_id, doc_id
                        order by file_no, line, rid)
)

select file_no, line, first_file, first_line
from numbered
where n = 2
order by file_no, line
limit 1
