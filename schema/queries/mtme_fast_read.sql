-- One mt-metrics-eval metric file ($path, number $file_no: SYSTEM SCORE lines, one space
-- between) appended by DuckDB's read_csv to _mtme_cells, as text, in the file's line order
-- (a line of another column count is an error of read_csv: the caller then reads the files
-- line by line, which names the line).
insert into _mtme_cells
select $file_no, system, score
from read_csv($path, columns = {'system': 'varchar', 'score': 'varchar'},
              delim = ' ', header = false, quote = '', escape = '', auto_detect = false)
