"""Segment scores on demand (issue 30): the mirror keeps the segment scores of a few metrics
within a budget of rows; /-/segments reads any metric's from the store, opened read-only per
request, and says so when a writer holds the store (503, the holder named)."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import duckdb
import pytest
from serve_helpers import build_sample_store, free_port, start_serve, stop

import ulcdb.serve.mirror_sets as mirror_sets
from ulcdb.errors import StoreError
from ulcdb.serve.mirror import build_mirror
from ulcdb.serve.segments_page import held_by_writer, read_segments

# chrF's segment scores of sysA against ref-A, by ids (not through the `scores` view)
BY_IDS = """
select s.seg_id, t.name, s.value
from seg_score s join metric m using (metric_id) join translator t using (translator_id)
join refset r using (refset_id)
where m.name = 'chrF' and r.name = 'ref-A' and s.variant = 'case:mixed'
order by s.seg_id, t.name"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample store with a mirror that keeps no segment score (a budget of 0 rows)."""
    db = build_sample_store(tmp_path_factory.mktemp("segments") / "s.duckdb")
    budget = mirror_sets.SEG_ROWS_BUDGET
    mirror_sets.SEG_ROWS_BUDGET = 0
    try:
        build_mirror(db)
    finally:
        mirror_sets.SEG_ROWS_BUDGET = budget
    return db


def test_segment_scores_are_read_from_the_store(store: Path) -> None:
    duck = duckdb.connect(str(store), read_only=True)
    want = duck.execute(BY_IDS).fetchall()
    duck.close()
    got = read_segments(store, "sample", "chrF", "ref-A", None)
    assert [(r["seg_id"], r["translator"], r["value"]) for r in got
            if r["variant"] == "case:mixed"] == want
    assert len(want) > 40
    one = read_segments(store, "sample", "chrF", "ref-A", 3)
    assert {r["seg_id"] for r in one} == {3}
    assert read_segments(store, "sample", "chrF", "ref-A", None, limit=5) == got[:5]


def _hold(store: Path) -> subprocess.Popen[str]:
    """Another process holding the store for writing, as `ulcdb score` does."""
    proc = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; "
                             "c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
                             "time.sleep(60)", str(store)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_writer_holding_the_store_is_named(store: Path) -> None:
    writer = _hold(store)
    try:
        with pytest.raises(StoreError) as held:
            read_segments(store, "sample", "chrF", "ref-A", None)
    finally:
        writer.kill()
        writer.wait()
    assert held_by_writer(held.value) and f"PID {writer.pid}" in str(held.value)


def test_the_page_shows_segment_scores_the_mirror_does_not_keep(store: Path,
                                                                tmp_path: Path) -> None:
    import sqlite3

    mirror = store.with_suffix(".sqlite")
    con = sqlite3.connect(mirror)
    assert con.execute("select count(*) from scores where level = 'seg'").fetchone() == (0,)
    con.close()
    port = free_port()
    proc = start_serve(store, port, tmp_path / "serve.log")
    url = (f"http://127.0.0.1:{port}/-/segments?testbed=sample&metric=chrF&refset=ref-A"
           "&seg_id=3")
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            page = resp.read().decode("utf-8")
        assert 'id="segments-table"' in page and "message-error" not in page
        duck = duckdb.connect(str(store), read_only=True)
        values = [v for seg, _, v in duck.execute(BY_IDS).fetchall() if seg == 3]
        duck.close()
        assert all(f"{v:.4f}" in page for v in values) and values
        writer = _hold(store)
        try:
            with pytest.raises(urllib.error.HTTPError) as busy:
                urllib.request.urlopen(url, timeout=30)
        finally:
            writer.kill()
            writer.wait()
        body = busy.value.read().decode("utf-8")
        assert busy.value.code == 503 and "in use by another process" in body
        assert f"PID {writer.pid}" in body and 'id="segments-error"' in body
    finally:
        stop(proc)
