-- Whether the mt-metrics-eval lines DuckDB read (_mtme_cells, _mtme_files) are not what the
-- line-by-line reader would read the same way: an empty cell, a score neither None nor a
-- plain finite number, or a system with another number of lines than the test bed has
-- segments (documents; one at system level).
select exists (
    select 1 from _mtme_cells
    where system is null or score is null
       or (score <> 'None' and (try_cast(score as double) is null
                                or not isfinite(try_cast(score as double))
                                or contains(score, '_')))
) or exists (
    select 1
    from _mtme_cells c
    join _mtme_files f using (file_no)
    group by c.file_no, c.system, f.expected
    having count(*) <> f.expected
)
