"""The fast import's DuckDB memory limit (issue 30): 2 GB, or lower where DuckDB's own limit
(80% of a small machine's memory, or the user's setting) is lower; restored afterwards."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ulcdb.interchange.fast import (
    MEMORY_LIMIT,
    bounded_memory,
    fast_or_exact,
    joins_as_written,
    lower_limit,
)
from ulcdb.store.database import Store


def test_the_lower_of_two_limits_in_either_unit() -> None:
    assert lower_limit("3GB", "2.0 GiB") == "2.0 GiB"  # 2.15e9 < 3e9
    assert lower_limit("3GB", "19.2 GiB") == "3GB"
    assert lower_limit("3GB", "2900.0 MiB") == "3GB"  # 3.04e9 > 3e9
    assert lower_limit("3GB", "2800.0 MiB") == "2800.0 MiB"
    assert lower_limit("3GB", "unreadable") == "3GB"


def test_an_import_never_raises_a_lower_limit(tmp_path: Path) -> None:
    with Store(tmp_path / "s.duckdb") as store:
        def current() -> str:
            return str(store.scalar("select current_setting('memory_limit')"))

        store.con.execute("set memory_limit = '1GB'")
        before = current()
        with bounded_memory(store):
            assert current() == before  # 1 GB kept, not raised to 2 GB
        store.con.execute("set memory_limit = '20GB'")
        before = current()
        with bounded_memory(store):
            assert current() != before and current().startswith("1.8")  # 2e9 B = 1.8 GiB
        # restored as DuckDB prints it (one decimal: 18.6 GiB may read back as 18.5 GiB)
        assert lower_limit("99GB", current()) == current() and MEMORY_LIMIT == "2GB"
        assert float(current().split()[0]) == pytest.approx(float(before.split()[0]), abs=0.11)


def test_joins_as_written_adds_one_optimizer_and_restores_the_user_s(tmp_path: Path) -> None:
    """Issue 30: the fast readers' joins of files to small tables are built on the small
    side; the optimizers a user switched off stay off, and come back as they were."""
    with Store(tmp_path / "s.duckdb") as store:
        setting = "select current_setting('disabled_optimizers')"
        store.con.execute("set disabled_optimizers = 'late_materialization'")
        with joins_as_written(store):
            inside = store.scalar(setting)
        assert set(inside.split(",")) == {"late_materialization", "build_side_probe_side"}
        assert store.scalar(setting) == "late_materialization"
        store.con.execute("set disabled_optimizers = ''")
        with joins_as_written(store):
            assert store.scalar(setting) == "build_side_probe_side"
        assert store.scalar(setting) == ""


def test_a_statement_failing_inside_joins_as_written_in_a_transaction(tmp_path: Path) -> None:
    """After an error inside a transaction DuckDB refuses every statement until the rollback:
    the error comes out as it was (not "transaction is aborted", the setting's restore
    refused), and ``fast_or_exact`` restores the optimizers after the rollback (before, the
    connection kept build_side_probe_side off)."""
    with Store(tmp_path / "s.duckdb") as store:
        store.con.execute("set disabled_optimizers = 'late_materialization'")
        said: list[str] = []

        def fast() -> str | None:
            try:
                with store.transaction(), joins_as_written(store):
                    store.con.execute("select error('the second read failed')")
            except duckdb.Error as error:
                said.append(str(error))
                raise
            return None

        assert fast_or_exact(store, fast, lambda: "line by line", []) == "line by line"
        assert said == ["Invalid Input Error: the second read failed"]
        assert store.scalar("select current_setting('disabled_optimizers')") == \
            "late_materialization"
