"""What the tests of the fast score readers share (mt-metrics-eval and WMT metric files):
a store's rows table by table, and a spy telling which reader ran."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from ulcdb.store.database import Store


def store_contents(store: Store, tables: Sequence[str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of ``tables``, timestamps left out (they differ between two imports)."""
    out = {}
    for table in tables:
        cols = [r[0] for r in store.query(
            "select column_name from information_schema.columns where table_name = ? "
            "and data_type not like 'TIMESTAMP%' order by ordinal_position", [table])]
        out[table] = store.query(f"select {', '.join(cols)} from {table} order by all")
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
