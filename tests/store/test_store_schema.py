"""Views follow the shipped SQL: a digest of the schema files is stored; a writable open
re-applies the views when it differs, a read-only open shadows them with temporary ones and
writes nothing, so no stale view code ever runs."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ulcdb.errors import StoreError
from ulcdb.store.database import Store, schema_hash

STALE = "create or replace view testbed_summary as select 'stale' as testbed"


def _stale_store(path: Path) -> None:
    with Store(path) as st:
        st.con.execute("insert into testbed (testbed_id, name) values (1, 'tb')")
    con = duckdb.connect(str(path))
    con.execute(STALE)
    con.execute("update schema_info set value = 'old' where key = 'schema_hash'")
    con.close()


def _raw(path: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_read_only_open_shadows_stale_views_and_writes_nothing(tmp_path):
    path = tmp_path / "s.duckdb"
    _stale_store(path)
    with Store(path, read_only=True) as st:
        assert st.query("select testbed from testbed_summary") == [("tb",)]
    assert _raw(path, "select testbed from testbed_summary") == [("stale",)]
    assert _raw(path, "select value from schema_info where key = 'schema_hash'") == [("old",)]


def test_writable_open_reapplies_views_and_records_the_digest(tmp_path):
    path = tmp_path / "s.duckdb"
    _stale_store(path)
    with Store(path) as st:
        assert st.query("select testbed from testbed_summary") == [("tb",)]
    assert _raw(path, "select testbed from testbed_summary") == [("tb",)]
    assert _raw(path, "select value from schema_info where key = 'schema_hash'") == [
        (schema_hash(),)]


def test_unchanged_schema_is_not_reapplied(tmp_path):
    path = tmp_path / "s.duckdb"
    Store(path).close()
    con = duckdb.connect(str(path))
    con.execute(STALE)  # same digest: the stored views are trusted as they are
    con.close()
    with Store(path) as st:
        assert st.query("select testbed from testbed_summary") == [("stale",)]


def test_read_only_open_of_a_foreign_duckdb_file_is_refused(tmp_path):
    path = tmp_path / "other.duckdb"
    con = duckdb.connect(str(path))
    con.execute("create table x (a int)")
    con.close()
    with pytest.raises(StoreError, match="not a ulcdb store"):
        Store(path, read_only=True)


def test_testbed_contents_counts_what_the_tiny_store_holds(tmp_path):
    """Counts worked out by hand from test_interchange's tiny store: 2 documents of 3 and 2
    segments, 3 references and 2 systems, human scores of 2 systems at 5 segments, 2
    documents and the system level, 2 metrics x 7 (target, reference set) pairs scored at
    every level."""
    from test_interchange import full_store

    path = full_store(tmp_path / "s.duckdb")
    with Store(path, read_only=True) as st:
        row = st.query("select testbed, documents, segments, translators, systems, refs, "
                       "assessments, seg_scores, doc_scores, sys_scores, named_sets "
                       "from testbed_contents")
        stored = st.scalar("select count(*) from stored_scores")
        summary = st.query("select documents, segments, systems, refs, seg_scores "
                           "from testbed_summary")
    assert row == [("tiny", 2, 5, 5, 2, 3, 2 * (5 + 2 + 1), 2 * 7 * 5, 2 * 7 * 2, 2 * 7, 0)]
    assert stored == 2 * 7 * (5 + 2 + 1)
    assert summary == [(2, 5, 2, 3, 70)]


class _Counting:
    """A DuckDB connection that records the statements run through it."""

    def __init__(self, con: duckdb.DuckDBPyConnection, seen: list[str]) -> None:
        self._con = con
        self._seen = seen

    def execute(self, sql: str, *args: object) -> duckdb.DuckDBPyConnection:
        self._seen.append(sql)
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._con, name)


def test_opening_a_current_store_runs_one_query(tmp_path, monkeypatch):
    # What every command pays to open the store (issue 28): one read of schema_info, no
    # information_schema lookup, no second query per key
    from ulcdb.store import database

    path = tmp_path / "s.duckdb"
    Store(path).close()
    seen: list[str] = []
    connect = duckdb.connect
    monkeypatch.setattr(database.duckdb, "connect",
                        lambda *a, **k: _Counting(connect(*a, **k), seen))
    for read_only in (True, False):
        seen.clear()
        Store(path, read_only=read_only).close()
        assert seen == ["select key, value from main.schema_info"]
