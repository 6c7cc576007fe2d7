"""The parts of the serve mirror that read the store in their own way: the bootstrap
intervals of system-level means of segment scores (resampled with numpy, the series of one
length at once), and the test bed a meta-evaluation part reads, shadowing the views that hold
every test bed (ulcdb.serve.mirror writes both)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from ulcdb.stats import correlations
from ulcdb.store.database import named_query

Con = duckdb.DuckDBPyConnection
Lite = sqlite3.Connection
Row = tuple[Any, ...]

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 1234
LEVEL = 0.95  # of the intervals


SERIES_PER_BATCH = 2048  # series of segment scores resampled at once (one record batch)


def interval_rows(con: Con, pairs: list[tuple[str, str]] | None = None) -> Iterator[Row]:
    """95% bootstrap intervals of each system-level mean of segment scores: one shared
    resampling of the segments (paired, seeded) for every test bed, metric, system and
    reference set (of the (test bed, metric) ``pairs``, or all).  The series are read as
    Arrow lists a batch at a time and the series of one length resampled together (one
    matrix product, not one per series)."""
    with pairs_slice(con, pairs):
        yield from _resampled(con.sql(named_query("mirror_seg_values")).to_arrow_reader(
            SERIES_PER_BATCH))


def _resampled(reader: pa.RecordBatchReader) -> Iterator[Row]:
    """The intervals of the series ``reader`` gives (their keys, then the list of values)."""
    weights: dict[int, np.ndarray] = {}
    for batch in reader:
        keys = list(zip(*(batch.column(i).to_pylist() for i in range(6)), strict=True))
        lists = batch.column(6)
        offsets = lists.offsets.to_numpy()
        flat = lists.values.to_numpy(zero_copy_only=False).astype(float)
        by_length: dict[int, list[int]] = {}
        for i, n in enumerate(np.diff(offsets).tolist()):
            by_length.setdefault(n, []).append(i)
        for n, rows in by_length.items():
            if n < 2:
                continue
            x = np.stack([flat[offsets[i]:offsets[i] + n] for i in rows])
            whole = ~np.isnan(x).any(axis=1)  # a series with a missing score has no interval
            if not whole.any():
                continue
            if n not in weights:  # the resampling meta-evaluation uses, seeded the same
                weights[n] = correlations.bootstrap_counts(
                    n, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED) / n
            x = x[whole]
            lo, hi = np.percentile(x @ weights[n].T, [50 * (1 - LEVEL), 50 * (1 + LEVEL)], axis=1)
            means = x.mean(axis=1)
            for j, i in enumerate(np.asarray(rows)[whole].tolist()):
                yield (*keys[i], float(means[j]), float(lo[j]), float(hi[j]), n,
                       BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED)


def write_intervals(con: Con, lite: Lite, pairs: list[tuple[str, str]] | None = None
                    ) -> set[str]:
    """Append the intervals of the (test bed, metric) ``pairs`` (all when None) to the
    mirror's sys_interval, created when missing."""
    names = ["testbed", "metric", "translator", "role", "refset", "variant", "seg_mean",
             "lo", "hi", "n_segments", "resamples", "seed"]
    types = ["TEXT"] * 6 + ["REAL"] * 3 + ["INTEGER"] * 3
    cols = ", ".join(f"{n} {t}" for n, t in zip(names, types, strict=True))
    lite.execute(f"create table if not exists sys_interval ({cols})")
    rows = list(interval_rows(con, pairs))
    lite.executemany(f"insert into sys_interval values ({', '.join('?' * 12)})", rows)
    return set()


# The views an analysis part of one test bed reads, each with how its rows of one test bed are
# picked: shadowed by those rows while its parts are written (`scores` by the rows of one
# reference set too for meta_corr's parts: meta_metric reads no other).  `score_rows` is the
# id-keyed union the ULC macro reads (a reference set id belongs to one test bed).
PER_TESTBED = {
    "score_rows": "refset_id in (select refset_id from stg_refset where testbed = $1)",
    "scores": "testbed = $1",
    "judged_assessments": "testbed = $1",
}


@contextmanager
def testbed_slice(con: Con, testbed: str | None) -> Iterator[None]:
    """While inside, ``score_rows``, ``scores`` and ``judged_assessments`` hold the rows of
    ``testbed`` only (temporary tables that shadow the views, each read once per test bed):
    every analysis part of a test bed (ULC, metric_corr and meta_corr's) then reads its own
    rows, not every test bed's once per call (time quadratic in the test beds).  Nothing
    without a test bed (the mirror passes none when the store holds one test bed: the views
    then hold its rows alone)."""
    if testbed is None:
        yield
        return
    with _shadowing(con, list(PER_TESTBED), [f"mirror_{name}" for name in PER_TESTBED]):
        for name in PER_TESTBED:
            con.execute(f"create or replace temp table mirror_{name} as "
                        f"select * from {name} where {PER_TESTBED[name]}", [testbed])
            con.execute(f"create or replace temp view {name} as select * from mirror_{name}")
        yield


@contextmanager
def refset_slice(con: Con, testbed: str | None, refset: str | None) -> Iterator[None]:
    """``scores`` narrowed to the rows of ``testbed`` and ``refset``, read from ``scores`` as
    it is (inside ``testbed_slice``, the test bed's rows: not the store's).  Nothing without
    a reference set."""
    if refset is None:
        yield
        return
    with _scores_narrowed(con, "mirror_scores_refset", "testbed = $1 and refset = $2",
                          [testbed, refset]):
        yield


@contextmanager
def pairs_slice(con: Con, pairs: list[tuple[str, str]] | None) -> Iterator[None]:
    """``scores`` narrowed to the rows of the (test bed, metric) ``pairs``: the mirror's parts
    per test bed and metric (sys_interval, scores_mean) are written from them, each view of
    ``scores`` computed on those rows only.  Nothing when None (all)."""
    if pairs is None:
        yield
        return
    with _scores_narrowed(con, "mirror_scores_pairs", "(testbed, metric) in "
                          "(select p[1], p[2] from unnest($1::varchar[][]) u(p))",
                          [[list(p) for p in pairs]]):
        yield


@contextmanager
def _scores_narrowed(con: Con, table: str, where: str, params: list[Any]) -> Iterator[None]:
    """``scores`` shadowed by its rows ``where`` holds (with ``params``), copied once into the
    temporary ``table``."""
    with _shadowing(con, ["scores"], [table]):
        con.execute(f"create or replace temp table {table} as select * from scores "
                    f"where {where}", params)
        con.execute(f"create or replace temp view scores as select * from {table}")
        yield


@contextmanager
def _shadowing(con: Con, views: list[str], tables: list[str]) -> Iterator[None]:
    """Inside, ``views`` may be shadowed by temporary views over the temporary ``tables``;
    afterwards those are dropped and the temporary views that were there before (a slice
    around this one, or a read-only open's shipped views over an older store's) are back."""
    before = dict(con.execute("select view_name, sql from duckdb_views() where temporary "
                              "and list_contains(?, view_name)", [views]).fetchall())
    try:
        yield
    finally:
        for name in views:
            con.execute(f"drop view if exists temp.{name}")
        for table in tables:
            con.execute(f"drop table if exists temp.{table}")
        for name in views:
            if name in before:
                con.execute(before[name])
