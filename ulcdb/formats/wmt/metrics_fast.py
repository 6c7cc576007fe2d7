"""WMT metrics-task score files read by DuckDB, straight into the store's connection.

The fast path of ``metrics_task``: plain files (each named ``*.seg.*``, ``*.doc.*`` or
``*.sys.*``, the level's column count on every line, no empty cells, whole-number segments,
scores that are ``None`` or plain finite numbers) are read twice by DuckDB's ``read_csv`` and
never pass through Python.  The first read keeps no row: each file's distinct keys (metric,
language pair, test set, reference set, system) with their counts and whether some row is not
plain (``schema/queries/wmt_fast_scan.sql``).  The import's names are then the view ``_imp``, one
row per file and key (``wmt_fast_frame.sql``), which ``ulcdb.interchange.load`` checks; its rows
are read again, part by part, straight into the loader's resolved rows, each row's key found by
a hash (``wmt_fast_ids.sql``, ``wmt_fast_rows.sql``): issue 30, materialising the rows' text
columns cost more than reading the files twice, and no part holds more than its own rows.  By the
scan's counts of rows with a score the loader refuses an import whose every score is ``None``
before it reads a part; a part of only ``None`` (a metric's file all ``None``) loads as the
others.  The rows read again must be those the scan counted, file by file and key by key
(``wmt_fast_part_check.sql``; a row of a key the scan did not find fails the read): a file
changed between the two reads, by another process, is read again line by line as it then is,
rather than half of it lost.  Anything else gives ``None``, and a problem the loader finds is an
error without a line: the caller then rolls back and reads the files line by line
(``metrics_task.read_wmt_raw``), which names the file and line (the pattern of
``ulcdb.interchange.fast``).  Both give the same store (``tests/formats/test_wmt_fast.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import duckdb

from ulcdb.errors import InputError
from ulcdb.formats.wmt.metrics_task import FirstRow, WmtKeys, level_from_name
from ulcdb.interchange.fast import file_spans, joins_as_written
from ulcdb.interchange.model import MetricInfo, Source, SqlFrame
from ulcdb.store.database import Store, named_query

WORK_TABLES = ("_wmt_seen", "_wmt_files", "_wmt_keys", "_wmt_named", "_wmt_lps", "_wmt_ids",
               "_wmt_testbeds", "_wmt_metrics", "_wmt_refsets", "_wmt_part", "_wmt_file_keys")
# rows the loader holds at once: whole files up to about this many (issue 30: a whole release
# of tens of millions spilled past DuckDB's memory limit, the loader's steps then growing
# faster than the rows)
PART_ROWS = 3_000_000


@dataclass
class WmtRows:
    """WMT files DuckDB scanned (``_wmt_file_keys``): their paths, sources and distinct
    names."""

    paths: list[Path]
    sources: list[Source]
    keys: WmtKeys


def read_wmt_sql(store: Store, paths: list[Path], lps: list[str] | None) -> WmtRows | None:
    """``paths`` scanned into ``_wmt_file_keys`` and their names (rows of the pairs ``lps``,
    every pair where ``None``; a name's first row is its first file, line 0), or ``None``
    where a file is not plain (``ulcdb.interchange.fast.fast_or_exact`` drops the tables)."""
    levels = [level_from_name(p) for p in paths]
    if not paths or None in levels:
        return None
    store.con.execute(named_query("wmt_fast_maps"))
    store.con.execute("create or replace temp table _wmt_files "
                      "(file_no integer, path varchar, level varchar)")
    store.insert_columns("_wmt_files", {"file_no": list(range(len(paths))),
                                        "path": [str(p) for p in paths], "level": levels})
    try:
        with joins_as_written(store):
            store.con.execute(named_query("wmt_fast_scan"), {"files": largest_first(paths)})
    except duckdb.Error:  # not plain text of the level's columns: the line reader says why
        return None
    if store.scalar(named_query("wmt_fast_bad")):
        return None
    store.con.execute(named_query("wmt_fast_key_ids"))
    if lps is None:
        lps = [r[0] for r in store.query(named_query("wmt_fast_lps"))]
    store.insert_columns("_wmt_lps", {"lp": list(lps)})
    keys = [(tuple(r[:5]), FirstRow(r[5], 0)) for r in store.query(named_query("wmt_fast_keys"))]
    sources = [Source(str(p), "wmt") for p in paths]
    return WmtRows(list(paths), sources, WmtKeys(keys, sources))


def sql_frame(store: Store, rows: WmtRows, testbeds: Mapping[tuple[str, str], str],
              refsets: Mapping[str, tuple[str, ...]], rename: Mapping[str, str],
              metrics: Mapping[str, MetricInfo]) -> SqlFrame:
    """The view ``_imp`` over the keys scanned: (TESTSET, LP) -> test bed, REFSET -> members
    (sorted), metric renames (the same mapping as ``metrics_task.wmt_frame``)."""
    store.insert_columns("_wmt_testbeds", {"testset": [k[0] for k in testbeds],
                                           "lp": [k[1] for k in testbeds],
                                           "testbed": list(testbeds.values())})
    names = sorted({k[0] for k, _ in rows.keys.keys})
    store.insert_columns("_wmt_metrics", {"metric": names,
                                          "name": [rename.get(m, m) for m in names]})
    store.insert_columns("_wmt_refsets", {"refset": list(refsets),
                                          "refs": [sorted(v) for v in refsets.values()]})
    store.con.execute(named_query("wmt_fast_frame"))
    counts = store.query(named_query("wmt_fast_file_counts"))
    return SqlFrame(rows.sources, dict(metrics), parts=file_parts(store, counts),
                    resolve=partial(read_part, store, rows.paths),
                    scored=(sum(c[1] for c in counts), sum(c[2] for c in counts)))


def file_parts(store: Store, counts: list[tuple[int, int, int, bool]]
               ) -> list[Callable[[], None]]:
    """The files in parts of consecutive files of about ``PART_ROWS`` rows (one part when
    a stored key has rows in two files: the loader finds duplicates within a part), each
    a call that fills ``_wmt_part`` (``wmt_fast_part.sql``) with its files' keys; ``counts``
    as ``wmt_fast_file_counts.sql`` gives them."""
    shared = bool(counts and counts[0][3])

    def part(first: int, last: int) -> None:
        store.con.execute(named_query("wmt_fast_part"), {"first": first, "last": last})
    return [partial(part, first, last) for first, last in
            file_spans([(f, n) for f, n, _, _ in counts], PART_ROWS, shared)]


def read_part(store: Store, paths: list[Path]) -> None:
    """The rows of the part in ``_wmt_part`` read again into the loader's ``_imp_res``
    (``wmt_fast_ids.sql``, ``wmt_fast_rows.sql``): the loader's ``resolve`` step.  They must
    be the rows the scan counted, file by file and key by key (``wmt_fast_part_check.sql``):
    a file changed between the two reads (by another process) is an error, and the caller
    reads the files again line by line, as they are then."""
    store.con.execute(named_query("wmt_fast_ids"))
    files = [r[0] for r in store.query(named_query("wmt_fast_part_files"))]
    if files:
        with joins_as_written(store):
            store.con.execute(named_query("wmt_fast_rows"),
                              {"files": largest_first([paths[f] for f in files])})
    changed = store.scalar(named_query("wmt_fast_part_check"))
    if changed is not None:
        raise InputError(paths[changed], None, "changed while it was read: its rows differ "
                         "from those the first read counted")


def largest_first(paths: list[Path]) -> list[str]:
    """``paths`` as ``read_csv`` takes them, the largest first: DuckDB reads a compressed file
    in one thread and the files in the order given, so a big file given last is read alone
    at the end (issue 30: at 32.5M scores the scan ran on one of two cores).  The rows find
    their file by its path, whatever the order."""
    return [str(p) for p in sorted(paths, key=lambda p: -p.stat().st_size)]
