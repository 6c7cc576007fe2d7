"""Score files read in SQL first, line by line only to name a problem (issue 30).

The pattern every fast reader follows (``ulcdb.formats.wmt.metrics_fast`` for WMT files,
``ulcdb.formats.mtme_fast`` for mt-metrics-eval files; ``ulcdb.formats.wmt.wmt20_da`` for the
WMT20 DA files, in Arrow): DuckDB's ``read_csv`` with explicit column types reads plain files
into temporary tables of the store's connection (WMT files: their keys first, then their rows
part by part, straight into the loader's resolved rows), names are mapped to the store's in
SQL, and the loader (``ulcdb.interchange.load``) checks and stores the rows in SQL, in one
transaction.  A file that is not plain, or any problem the checks find, rolls the
transaction back; then the line-by-line reader runs, which names the file and line of the
first problem (or, should the fast reader have declined something valid, stores it).  Both
give the same store; the store is never left half-written.  A reader whose rows know their
lines (mt-metrics-eval's) lets a conflict with stored scores stand as the loader says it,
naming file and line, rather than reading every file again to say the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import duckdb

from ulcdb.errors import UlcdbError
from ulcdb.store.database import Store, named_query

# DuckDB's limit while an import runs: it spills to disk beyond it.  2 GB: one part's rows
# and work tables fit (issue 30: WMT files are scanned, then read again part by part; at
# 32.5M scores 2 GB gave the time of 3 GB, 45.2 s against 45.4 s, at peak RSS 2.45 GB
# against 3.33 GB.  When the release's rows were held whole, 2 GB spilled at every step)
MEMORY_LIMIT = "2GB"
R = TypeVar("R")


@contextmanager
def bounded_memory(store: Store, limit: str = MEMORY_LIMIT) -> Iterator[None]:
    """DuckDB's memory limit set to ``limit`` inside the block (the setting restored), so
    an import of any size works out of core instead of growing with what it reads."""
    before = store.scalar(named_query("memory_limit"))
    if lower_limit(limit, before) == before:  # already as low: left exactly as it is
        yield
        return
    store.con.execute(f"set memory_limit = '{limit}'")
    try:
        yield
    finally:
        store.con.execute(f"set memory_limit = '{before}'")


_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def lower_limit(limit: str, current: str) -> str:
    """The lower of two DuckDB memory limits ('3GB', '2.0 GiB'): an import never raises the
    limit a small machine's default (80% of its memory) or the user set; ``limit`` where
    ``current`` cannot be read."""
    def size(text: str) -> float | None:
        found = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", text)
        if found is None or found[2].upper() not in _UNITS:
            return None
        return float(found[1]) * _UNITS[found[2].upper()]

    mine, theirs = size(limit), size(current)
    return current if mine is not None and theirs is not None and theirs < mine else limit


@contextmanager
def joins_as_written(store: Store) -> Iterator[None]:
    """DuckDB's hash joins built on the side written second inside the block (the setting
    restored): for a statement joining files read by ``read_csv`` to small tables, whose
    rows DuckDB estimates so low that it built a hash table of every row of the files
    instead of the few of the table (issue 30: 1.2 s of 4.8 at 2.9M rows, and memory).
    After an error inside a transaction DuckDB takes no statement until the rollback: the
    error is raised as it was and ``fast_or_exact`` restores the setting after it."""
    before = store.scalar(named_query("disabled_optimizers"))
    off = ",".join(n for n in (before, "build_side_probe_side") if n)
    store.con.execute(f"set disabled_optimizers = '{off}'")
    try:
        yield
    except BaseException:
        restore_optimizers(store, before, quiet=True)
        raise
    restore_optimizers(store, before)


def restore_optimizers(store: Store, before: str, quiet: bool = False) -> None:
    """DuckDB's disabled optimizers set back to ``before``; with ``quiet`` not an error where
    the transaction is aborted (the statement is refused)."""
    try:
        store.con.execute(f"set disabled_optimizers = '{before}'")
    except duckdb.Error:
        if not quiet:
            raise


def file_spans(counts: Iterable[tuple[int, int]], limit: int, whole: bool
               ) -> list[tuple[int, int]]:
    """(first, last) file numbers of parts of consecutive files of about ``limit`` rows each
    (a part ends before the file that would take it past ``limit``; a file bigger than
    ``limit`` is a part alone), from each file's (number, rows) in order; one part where
    ``whole`` (a stored key has rows in two files: the loader finds duplicates only within
    the rows it holds)."""
    spans: list[list[int]] = []  # first file, last file, rows
    for file_no, n in counts:
        if not spans or (n and spans[-1][2] and spans[-1][2] + n > limit and not whole):
            spans.append([file_no, file_no, 0])
        spans[-1][1:] = [file_no, spans[-1][2] + n]
    return [(first, last) for first, last, _ in spans]


def fast_or_exact(store: Store, fast: Callable[[], R | None], exact: Callable[[], R],
                  work_tables: Iterable[str], named: tuple[type[UlcdbError], ...] = ()) -> R:
    """``fast()`` (its own transaction), else ``exact()``: when ``fast`` declines (``None``)
    or raises, after its transaction rolled back; ``work_tables`` (and the view ``_imp``)
    are dropped either way, and DuckDB's disabled optimizers are as before (a statement
    that switched one off may have failed: ``joins_as_written``).  Errors of ``named``
    types ``fast`` raises are raised as they are (they name the file and line already)."""
    with bounded_memory(store):
        optimizers = store.scalar(named_query("disabled_optimizers"))
        try:
            found = fast()
        except named:
            raise
        except (UlcdbError, duckdb.Error):
            found = None  # rolled back: the line-by-line reader names the file and line
        finally:
            restore_optimizers(store, optimizers, quiet=True)
            drop_work_tables(store, work_tables)
        return exact() if found is None else found


def drop_work_tables(store: Store, names: Iterable[str]) -> None:
    """The view ``_imp`` and the temporary tables ``names`` gone (after an error inside a
    transaction the rollback has dropped them already)."""
    try:
        store.con.execute("drop view if exists _imp")
        for name in names:
            store.con.execute(f"drop table if exists {name}")
    except duckdb.Error:
        pass
