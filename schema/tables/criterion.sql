-- The scale of a human criterion of a test bed, as given at ingest (`--scale MIN:MAX`).
-- scale_min / scale_max NULL: unbounded on that side (z-scores).  Criteria without a row take
-- the scale their format gives them (view criterion_scale), or none is known.
create table if not exists criterion (
    testbed_id integer not null,
    name varchar not null,
    scale_min double,
    scale_max double,
    origin varchar,
    primary key (testbed_id, name)
);
