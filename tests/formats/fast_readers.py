"""What the tests of the fast score readers share (mt-metrics-eval and WMT metric files):
a store's rows table by table, and a spy telling which reader ran."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import pytest

from ulcdb.store.database import Store

# the tables whose rows number their ids from a sequence (DuckDB's sequences are not rolled
# back: an import rolled back leaves a gap before the ids of the next)
NUMBERED = {"testbed_id": "testbed", "translator_id": "translator", "refset_id": "refset",
            "metric_id": "metric", "batch_id": "score_batch", "set_id": "named_set"}


def store_contents(store: Store, tables: Sequence[str], renumber: bool = False
                   ) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of ``tables``, timestamps left out (they differ between two imports); with
    ``renumber`` each id of ``NUMBERED`` as its rank among its table's (the same store
    whatever gaps rolled-back imports left in the ids)."""
    ranks = {column: {v: n for n, (v,) in enumerate(store.query(
        f"select {column} from {table} order by 1"), 1)}
        for column, table in NUMBERED.items()} if renumber else {}
    out = {}
    for table in tables:
        cols = [r[0] for r in store.query(
            "select column_name from information_schema.columns where table_name = ? "
            "and data_type not like 'TIMESTAMP%' order by ordinal_position", [table])]
        rows = store.query(f"select {', '.join(cols)} from {table} order by all")
        if renumber:  # ranks keep the order of the ids: the rows stay in order
            rows = [tuple(ranks[c].get(v, v) if c in ranks else v for c, v in
                          zip(cols, row, strict=True)) for row in rows]
        out[table] = rows
    return out


class ReaderSpy:
    """Which reader ran: the fast reader's answers (``fast``: True where it read the file) and
    how many times the line-by-line reader ran (``exact``).  With ``fast=False`` the fast
    reader declines every file, so the line reader does all the work."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fast_reader: tuple[ModuleType, str],
                 line_reader: tuple[ModuleType, str], fast: bool = True) -> None:
        self.fast: list[bool] = []
        self.exact = 0
        read_sql = getattr(*fast_reader)
        read_lines = getattr(*line_reader)

        def spy_sql(*args: Any) -> Any:
            found = read_sql(*args) if fast else None
            self.fast.append(found is not None)
            return found

        def spy_lines(*args: Any, **kwargs: Any) -> Any:
            self.exact += 1
            return read_lines(*args, **kwargs)

        monkeypatch.setattr(*fast_reader, spy_sql)
        monkeypatch.setattr(*line_reader, spy_lines)


def spy_parts(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[int]:
    """How many parts each fast import of ``module`` (``metrics_fast``, ``mtme_fast``) loaded
    its files in, with a part of one file each (PART_ROWS 1)."""
    counts: list[int] = []
    plan = module.file_parts

    def spy(*args: Any, **kwargs: Any) -> Any:
        parts = plan(*args, **kwargs)
        counts.append(len(parts))
        return parts

    monkeypatch.setattr(module, "PART_ROWS", 1)
    monkeypatch.setattr(module, "file_parts", spy)
    return counts


Readers = tuple[tuple[ModuleType, str], tuple[ModuleType, str]]  # fast reader, line reader
Used = tuple[list[bool], int, list[int]]  # fast answers, line-reader runs, parts made


def fast_then_exact(monkeypatch: pytest.MonkeyPatch, module: ModuleType, readers: Readers,
                    run: Callable[[bool], tuple[Any, dict[str, Any]]]
                    ) -> tuple[list[Any], list[dict[str, Any]], list[Used]]:
    """``run(fast)`` (an import into a new store: its report and the store's contents) once
    with the fast reader of ``module`` (a part a file) and once with the line reader alone:
    the reports, the contents, and per run (fast answers, line-reader runs, parts made)."""
    reports: list[Any] = []
    stores: list[dict[str, Any]] = []
    used_readers: list[Used] = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            parts = spy_parts(patch, module)
            used = ReaderSpy(patch, *readers, fast)
            report, contents = run(fast)
            reports.append(report)
            stores.append(contents)
            used_readers.append((used.fast, used.exact, parts))
    return reports, stores, used_readers
