-- Scores at segment, document and system level, keyed by metric, target translator and
-- reference set; variant records options such as case (e.g. 'case:mixed').
-- stats holds the segment's sufficient statistics where the metric has them (BLEU, chrF, TER);
-- an empty list where they are on the row of the family's carrier (BLEU's 8 metrics and
-- NIST's 10 store their one list once): read them through seg_stats(metrics), never here.
-- No primary key: a key (metric, target, reference set, variant, unit) is stored once because
-- the writers make it so (the importer refuses duplicates and compares with what is stored,
-- the scorer deletes the keys it rewrites).  A DuckDB index would cost more than the rows
-- (about 9 bytes a segment score, 80 a document score with its text key, against 6 and 9
-- for the rows) and has to be in memory for every insert; rows are written in key order,
-- so the row groups' min/max find a key without it.  Stores made before this keep their
-- index (tables are created only when missing) and work the same.
create table if not exists seg_score (
    metric_id integer not null,
    translator_id integer not null,
    refset_id integer not null,
    variant varchar not null,
    seg_id integer not null,
    value double,                         -- NULL: could not be computed (e.g. failed parse)
    stats double[],
    batch_id integer not null
);
create table if not exists doc_score (
    metric_id integer not null,
    translator_id integer not null,
    refset_id integer not null,
    variant varchar not null,
    doc_id varchar not null,
    value double,
    batch_id integer not null
);
create table if not exists sys_score (
    metric_id integer not null,
    translator_id integer not null,
    refset_id integer not null,
    variant varchar not null,
    value double,
    batch_id integer not null
);
