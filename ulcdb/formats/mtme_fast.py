"""mt-metrics-eval metric files (``NAME-REF.LEVEL.score``) read by DuckDB at once.

The fast path of ``mtme.read_mtme_metric`` (the pattern of ``ulcdb.interchange.fast``): each
file's lines go by DuckDB's ``read_csv`` into ``_mtme_cells`` in line order (one statement a
file, so the rows are read file by file), and the import's rows are the view ``_imp``
(``schema/queries/mtme_fast_frame.sql``) that the loader checks and stores in SQL, part by part:
the lines of consecutive files of about ``PART_ROWS`` lines at a time (``mtme_fast_part.sql``,
as the WMT files' parts of issue 30); by the lines' counts of scores the loader refuses an
import whose every score is ``None`` before it makes a part, a part of only ``None`` loading as
the others.  A file whose name, reference token or lines are not plain (one space between SYSTEM
and SCORE, a score that is ``None`` or a plain finite number, each system with as many lines as
the test bed has units, names the test bed knows) gives ``None``: the caller then reads the
files line by line, which names the file and line of the problem.

Each row keeps its place among the lines DuckDB read of its file, which ``line_of`` turns into
the file's line (read_csv leaves blank lines out) where the loader names a row: a conflict
with stored scores names its file and line from here, without the line reader reading the
whole release again (``CONFLICTS_NAMED``; docs/benchmarks.md).  Where the files are loaded
in parts, a problem of a later part (a score outside its metric's range) is named once the
conflict is resolved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from itertools import accumulate
from pathlib import Path

import duckdb

from ulcdb.errors import Conflict, InputError
from ulcdb.formats.mtme import parse_metric_file_name, refs_of
from ulcdb.ingest.mtme_testbeds import match_translator
from ulcdb.interchange.fast import file_spans
from ulcdb.interchange.model import Source, SqlFrame, numbered_lines
from ulcdb.store.database import Store, named_query

WORK_TABLES = ("_mtme_files", "_mtme_cells", "_mtme_names", "_mtme_rows", "_mtme_firsts")
# lines the loader holds at once: whole files up to about this many (issue 30: the WMT files'
# parts; a language pair of mt-metrics-eval holds millions of segment scores)
PART_ROWS = 3_000_000
# the loader's errors that name the file and line as the line reader would (the fast path's
# answer, not a reason to read every file again line by line)
CONFLICTS_NAMED = (Conflict,)


def read_mtme_sql(store: Store, paths: list[Path], testbed: str, roles: Mapping[str, str],
                  counts: Mapping[str, int], src_refs: tuple[str, ...] | None,
                  renames: Callable[[list[str]], dict[str, str]]) -> SqlFrame | None:
    """The metric files ``paths`` of test bed ``testbed`` as the view ``_imp``, or ``None``
    where one is not plain.  ``renames`` gives the new names of the files' metrics."""
    files = _files(paths, roles, counts, src_refs)
    if files is None:
        return None
    rename = renames(sorted({f[0] for f in files}))
    store.con.execute(named_query("mtme_fast_tables"))
    store.insert_columns("_mtme_files", {
        "file_no": list(range(len(files))), "testbed": [testbed] * len(files),
        "metric": [rename.get(f[0], f[0]) for f in files], "refs": [f[1] for f in files],
        "level": [f[2] for f in files], "expected": [f[3] for f in files]})
    try:
        for number, path in enumerate(paths):
            store.con.execute(named_query("mtme_fast_read"),
                              {"file_no": number, "path": str(path)})
    except duckdb.Error:  # not two plain columns: the line reader says where
        return None
    if store.scalar(named_query("mtme_fast_bad")):
        return None
    names = [r[0] for r in store.query(named_query("mtme_fast_systems"))]
    try:
        targets = [match_translator(paths[0], name, roles) for name in names]
    except InputError:
        return None
    store.insert_columns("_mtme_names", {"system": names, "target": targets})
    store.con.execute(named_query("mtme_fast_frame"))
    keys = [(rename.get(f[0], f[0]), tuple(sorted(f[1])), f[2]) for f in files]
    lines = [(int(f), int(n), int(v)) for f, n, v in store.query(
        named_query("mtme_fast_file_counts"))]
    # read one after the other, each file's lines follow the earlier files' in _mtme_cells
    firsts = [0, *accumulate(c[1] for c in lines)][:-1]
    store.insert_columns("_mtme_firsts", {"file_no": [c[0] for c in lines], "first_rid": firsts})
    return SqlFrame([Source(str(p), "mtme") for p in paths],
                    parts=file_parts(store, lines, shared=len(set(keys)) < len(keys)),
                    scored=(sum(c[1] for c in lines), sum(c[2] for c in lines)),
                    line_of=partial(line_of, paths))


def file_parts(store: Store, lines: list[tuple[int, int, int]], shared: bool
               ) -> list[Callable[[], None]]:
    """The files in parts of consecutive files of about ``PART_ROWS`` lines (one part where
    ``shared``: two files of one stored metric, reference set and level), each a call that
    fills ``_mtme_rows`` with its files' lines (``mtme_fast_part.sql``); ``lines``: each
    file's (number, lines, lines with a score) (``mtme_fast_file_counts.sql``)."""
    def part(first: int, last: int) -> None:
        store.con.execute(named_query("mtme_fast_part"), {"first": first, "last": last})
    return [partial(part, first, last)
            for first, last in file_spans([c[:2] for c in lines], PART_ROWS, shared)]


def line_of(paths: Sequence[Path], file_no: int, n: int) -> int | None:
    """The line of file ``file_no`` that is the ``n``-th DuckDB read (its ``n``-th non-blank
    line: read_csv leaves blank lines out); read on an error path only."""
    lines = numbered_lines(paths[file_no])
    return lines[n - 1][0] if 0 < n <= len(lines) else None


def _files(paths: list[Path], roles: Mapping[str, str], counts: Mapping[str, int],
           src_refs: tuple[str, ...] | None
           ) -> list[tuple[str, list[str], str, int]] | None:
    """(metric, reference set members, level, lines per system) of each file, or ``None``
    where a name is not one the line reader takes."""
    out = []
    for path in paths:
        try:
            metric, token, level = parse_metric_file_name(path)
            refs = refs_of(path, token, roles, src_refs)
        except InputError:
            return None
        expected = 1 if level == "sys" else counts.get(level)
        if level not in ("seg", "doc", "sys") or expected is None or path.suffix != ".score":
            return None
        out.append((metric, list(refs), level, expected))
    return out
