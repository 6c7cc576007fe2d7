"""The serve mirror is rebuilt incrementally (issue 15): after one more metric is scored only
the parts that read it are rewritten (its score batches, the analyses of the sets holding it,
its intervals), the rest keeps its rows untouched (same SQLite rowids), and the mirror holds
what a full rebuild holds, table for table; deleted scores leave the mirror as well."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import duckdb
import pytest
from serve_helpers import build_sample_store
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.serve.mirror import build_mirror


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("incremental")
    db = build_sample_store(folder / "s.duckdb")
    report = build_mirror(db)
    assert report.rewritten == report.parts > 50
    return db, report.path


def _run(db: Path, *args: str) -> None:
    result = CliRunner().invoke(app, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output


class _Close(float):
    """A stored float that equals another when they agree to 1e-10 relative: DuckDB's parallel
    sums may differ in the last bits between two builds, and rounding both to a fixed number of
    digits can split two such values at a rounding boundary (the CI failure of stop 32)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, float) and math.isclose(self, other, rel_tol=1e-10,
                                                         abs_tol=1e-12)

    __hash__ = float.__hash__


def _key(row: tuple) -> tuple:
    return tuple((0, round(v, 6)) if isinstance(v, float) else (1, repr(v)) for v in row)


def _contents(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows in a fixed order (floats equal to 1e-10), without the bookkeeping."""
    con = sqlite3.connect(path)
    names = [r[0] for r in con.execute(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' "
        "and name not in ('ulcdb_mirror', 'ulcdb_mirror_parts')")]
    out = {}
    for name in names:
        rows = con.execute(f'select * from "{name}"').fetchall()
        out[name] = [tuple(_Close(v) if isinstance(v, float) else v for v in r)
                     for r in sorted(rows, key=_key)]
    out["indexes"] = sorted(con.execute(
        "select name, tbl_name from sqlite_master where type = 'index'").fetchall())
    con.close()
    return out


def _rowids(path: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(path)
    rows = con.execute(sql).fetchall()
    con.close()
    return sorted(rows, key=repr)


def test_a_new_metric_rewrites_only_what_reads_it(built: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    db, mirror = tmp_path / "s.duckdb", tmp_path / "s.sqlite"
    shutil.copy(built[0], db)
    shutil.copy(built[1], mirror)
    kept_scores = "select rowid, * from scores order by rowid"
    kept_ulc = ("select rowid, * from ulc where metric_set not in ('all', 'LEX', 'ASIYA-LEX') "
                "order by rowid")
    before_scores, before_ulc = _rowids(mirror, kept_scores), _rowids(mirror, kept_ulc)
    before_text = _rowids(mirror, "select rowid, * from translations")
    kept_means = ("select rowid, * from scores_mean where metric not in ('-TER', '1-TER') "
                  "order by rowid")
    before_means = _rowids(mirror, kept_means)
    _run(db, "score", "-m", "1-TER", "-G", "all", "--jobs", "1", "-f", "csv")
    steps: list[str] = []
    report = build_mirror(db, progress=steps.append)
    assert report.path == mirror
    # the TER family's two new mirrored batches (1 and 3 references), not the ten there
    assert "scores (2 of 12 parts)" in steps, [s for s in steps if s.startswith("scores")]
    assert 0 < report.rewritten < report.parts / 2
    # rows of the old batches, of the stored sets' ULC (1-TER is in no stored set, only in the
    # built-in LEX and ASIYA-LEX: -TER) and of the
    # translations were not rewritten: same rows under the same rowids
    after_scores = _rowids(mirror, kept_scores)
    assert len(after_scores) > len(before_scores)
    assert set(before_scores) <= set(after_scores)
    assert _rowids(mirror, kept_ulc) == before_ulc
    assert _rowids(mirror, "select rowid, * from translations") == before_text
    # the segment means of the other metrics stay (scores_mean is written a metric at a time:
    # 1-TER's and -TER's, whose scores the TER family stored again)
    assert "scores_mean (2 of 29 parts)" in steps
    assert _rowids(mirror, kept_means) == before_means
    assert not any(s.startswith(("translations", "assessments", "ulc metrics_LEX"))
                   for s in steps)
    assert {"ulc all", "ulc LEX", "sys_interval (2 of 29 parts)", "metric_corr "} <= set(steps)
    full = build_mirror(db, tmp_path / "full.sqlite", full=True)
    assert full.rewritten == full.parts == report.parts
    new, whole = _contents(mirror), _contents(full.path)
    assert new == whole
    # the rows added are those of the batches the store gained, and only those
    import duckdb

    duck = duckdb.connect(str(db), read_only=True)
    gained = {r[0] for r in duck.execute("select batch_id from score_batch").fetchall()} - {
        r[0] for r in _rowids(built[1], "select batch_id from score_batch")}
    duck.close()
    added = set(after_scores) - set(before_scores)
    # (three batches: against 1, 2 and 3 references; the mirror keeps no 2-reference set)
    assert len(gained) == 3 and len({r[-1] for r in added}) == 2
    assert {r[-1] for r in added} < gained
    con = sqlite3.connect(mirror)
    assert con.execute("select count(*) from scores where metric = '1-TER'").fetchone()[0] > 0
    assert con.execute("select count(*) from sys_interval where metric = '1-TER'"
                       ).fetchone()[0] > 0


def test_deleted_scores_leave_the_mirror(built: tuple[Path, Path], tmp_path: Path) -> None:
    db, mirror = tmp_path / "s.duckdb", tmp_path / "s.sqlite"
    shutil.copy(built[0], db)
    shutil.copy(built[1], mirror)
    _run(db, "delete", "scores", "-m", "BLEU", "-s", "sysA", "--yes")
    report = build_mirror(db)
    assert 0 < report.rewritten < report.parts
    con = sqlite3.connect(mirror)
    assert con.execute("select count(*) from scores where metric = 'BLEU' and "
                       "translator = 'sysA'").fetchone()[0] == 0
    assert con.execute("select count(*) from sys_interval where metric = 'BLEU' and "
                       "translator = 'sysA'").fetchone()[0] == 0
    assert con.execute("select count(*) from scores where metric = 'BLEU'").fetchone()[0] > 0
    con.close()
    assert _contents(mirror) == _contents(build_mirror(db, tmp_path / "full.sqlite",
                                                       full=True).path)


def test_an_unchanged_store_rewrites_nothing(built: tuple[Path, Path], tmp_path: Path) -> None:
    mirror = tmp_path / "again.sqlite"
    shutil.copy(built[1], mirror)
    report = build_mirror(built[0], mirror)
    assert report.rewritten == 0 and report.parts > 50
    assert _contents(mirror) == _contents(built[1])


def test_queen_is_computed_once_per_metric_set(built: tuple[Path, Path],
                                               tmp_path: Path) -> None:
    """Its three levels come from one macro call (level 'all'), not one call each."""
    steps: list[str] = []
    build_mirror(built[0], tmp_path / "full.sqlite", full=True, progress=steps.append)
    con = sqlite3.connect(tmp_path / "full.sqlite")
    levels = dict(con.execute("select metric_set, group_concat(distinct level) from queen "
                              "group by 1").fetchall())
    con.close()
    calls = [s.removeprefix("queen ") for s in steps if s.startswith("queen ")]
    assert sorted(calls) == sorted(levels) and len(calls) >= 3
    assert {frozenset(v.split(",")) for v in levels.values()} == {
        frozenset({"seg", "doc", "sys"}), frozenset({"doc", "sys"})}  # "all": no seg level


def _contents_of(con: duckdb.DuckDBPyConnection, sql: str, params: list[str]) -> list[tuple]:
    rows = con.execute(sql, params).fetchall()
    return [tuple(_Close(v) if isinstance(v, float) else v for v in r) for r in rows]


def test_a_meta_evaluation_slice_reads_its_reference_set_alone(built: tuple[Path, Path]) -> None:
    """meta_corr's parts of one test bed and reference set run on those rows of `scores`
    only (a temporary table shadowing the view), and the view is back afterwards."""
    from ulcdb.serve.mirror_analyses import refset_slice, testbed_slice
    from ulcdb.store.database import Store

    with Store(built[0], read_only=True) as store:
        con = store.con
        every = con.execute("select count(*), count(distinct refset) from scores").fetchone()
        testbed, criterion = con.execute("select min(testbed), min(criterion) from assessments"
                                         ).fetchone()
        corr = "select * from meta_corr($1, 'seg', $2, 'ref-A') order by metric, variant"
        outside = _contents_of(con, corr, [testbed, criterion])
        with testbed_slice(con, testbed), refset_slice(con, testbed, "ref-A"):
            inside = con.execute("select distinct testbed, refset from scores").fetchall()
            assert _contents_of(con, corr, [testbed, criterion]) == outside
        assert con.execute("select count(*), count(distinct refset) from scores"
                           ).fetchone() == every
    assert inside == [(testbed, "ref-A")] and every[1] > 1 and len(outside) > 3


def test_a_slice_of_test_bed_and_metric_pairs_holds_their_rows(built: tuple[Path, Path]
                                                               ) -> None:
    """The parts of scores_mean and sys_interval asked (per test bed and metric) are computed
    inside ``pairs_slice``, where `scores` holds those pairs' rows only (one semi-join for
    both; scores_mean's was put on the whole view's rows, so every metric's means were
    computed to keep a few); the views are back afterwards."""
    from ulcdb.serve.mirror_analyses import pairs_slice
    from ulcdb.store.database import Store, named_query

    means = "select * from scores_mean where metric in ('BLEU', 'NIST') order by all"
    with Store(built[0], read_only=True) as store:
        con = store.con
        every = con.execute("select count(*), count(distinct metric) from scores").fetchone()
        outside = _contents_of(con, means, [])
        series = con.execute(named_query("mirror_seg_values")).fetchall()
        with pairs_slice(con, [("sample", "BLEU"), ("sample", "NIST")]):
            inside = con.execute("select distinct testbed, metric from scores order by all"
                                 ).fetchall()
            assert _contents_of(con, "select * from scores_mean order by all", []) == outside
            assert con.execute(named_query("mirror_seg_values")).fetchall() == [
                r for r in series if r[1] in ("BLEU", "NIST")]
        assert con.execute("select count(*), count(distinct metric) from scores"
                           ).fetchone() == every
    assert inside == [("sample", "BLEU"), ("sample", "NIST")] and every[1] > 10
    assert len(outside) > 100


def test_a_store_migrated_by_a_write_rewrites_no_analysis(built: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    """A write that records the shipped schema in schema_info (what any write to a store
    with older views does) changes no analysis: they are fingerprinted by the shipped SQL."""
    db, mirror = tmp_path / "s.duckdb", tmp_path / "s.sqlite"
    shutil.copy(built[0], db)
    shutil.copy(built[1], mirror)
    duck = duckdb.connect(str(db))
    duck.execute("update schema_info set value = 'an older schema' where key = 'schema_hash'")
    duck.close()
    steps: list[str] = []
    report = build_mirror(db, progress=steps.append)
    assert report.rewritten == 1 and "schema_info" in steps


@pytest.fixture(scope="module")
def two_testbeds(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample store with a second test bed, "other" (the sample again, with its
    adequacy judgments, scored by the same metrics)."""
    from serve_helpers import METRICS, SAMPLE

    db = tmp_path_factory.mktemp("two") / "s.duckdb"
    shutil.copy(built[0], db)
    _run(db, "ingest", "testbed", str(SAMPLE / "ULC.config"), "--name", "other")
    _run(db, "ingest", "assessments", str(SAMPLE / "human" / "adequacy.csv"), "-t", "other",
         "-c", "adequacy")
    _run(db, "score", "-t", "other", "-m", METRICS, "-G", "all", "--jobs", "1", "-f", "csv")
    return db


def _counting_slices(monkeypatch: pytest.MonkeyPatch,
                     told: list[tuple[int, int]] | None = None) -> list[tuple[str, int]]:
    """The test beds whose rows the mirror copies into a slice (``testbed_slice``), one entry
    per slice made, each with how many parts ``told`` last said were done then."""
    from ulcdb.serve import mirror
    from ulcdb.serve.mirror_analyses import testbed_slice

    made: list[tuple[str, int]] = []

    def counted(con: duckdb.DuckDBPyConnection, testbed: str | None) -> Any:
        if testbed is not None:
            made.append((testbed, told[-1][0] if told else 0))
        return testbed_slice(con, testbed)

    monkeypatch.setattr(mirror, "testbed_slice", counted)
    return made


def test_each_test_bed_is_sliced_once_per_build(two_testbeds: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: the analysis parts go a test bed at a time, so each test bed's rows are
    sliced once for its ULC, meta_corr and metric_corr parts (they were sliced once per
    table: 6 slices here, each a copy of the test bed's scores); the parts done are told
    after each test bed (what `serve`'s pages show while it prepares)."""
    told: list[tuple[int, int]] = []
    made = _counting_slices(monkeypatch, told)
    report = build_mirror(two_testbeds, tmp_path / "m.sqlite",
                          on_parts=lambda n, total: told.append((n, total)))
    con = sqlite3.connect(report.path)
    tables = {t: n for t, n in con.execute(
        "select 'meta_corr', count(distinct testbed) from meta_corr union all "
        "select 'ulc', count(distinct testbed) from ulc union all "
        "select 'metric_corr', count(distinct testbed) from metric_corr")}
    con.close()
    assert tables == {"meta_corr": 2, "ulc": 2, "metric_corr": 2} and not report.skipped
    assert sorted(t for t, _ in made) == ["other", "sample"]
    assert made[0][1] < made[1][1] and told[-1] == (report.parts, report.parts)
    assert [n for n, _ in told] == sorted(n for n, _ in told)


def test_a_store_of_one_test_bed_is_not_sliced(built: tuple[Path, Path], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: with one test bed the views hold its rows alone, so no slice is made (it
    copied the whole store's scores, 3 times), and meta_corr's parts (each on one reference
    set, ``refset_slice``) hold what the macro gives over the whole store."""
    from ulcdb.store.database import Store

    made = _counting_slices(monkeypatch)
    report = build_mirror(built[0], tmp_path / "m.sqlite", full=True)
    assert made == [] and not report.skipped
    con = sqlite3.connect(report.path)
    keys = con.execute("select distinct testbed, criterion, level, refset from meta_corr "
                       "where grouping_by = 'flat' order by 1, 2, 3, 4").fetchall()
    mirrored = {k: [r[5:] for r in con.execute(  # without the 5 columns of the part
        "select * from meta_corr where grouping_by = 'flat' and testbed = ? and "
        "criterion = ? and level = ? and refset = ?", k).fetchall()] for k in keys}
    con.close()
    assert len(keys) >= 6 and len({k[3] for k in keys}) >= 2
    with Store(built[0], read_only=True) as store:
        for key, rows in mirrored.items():
            whole = store.con.execute("select * from meta_corr($1, $3, $2, $4)",
                                      list(key)).fetchall()
            assert sorted(map(_close, rows), key=_key) == sorted(map(_close, whole), key=_key)


def test_a_new_test_bed_rewrites_no_other_test_beds_analyses(
        built: tuple[Path, Path], two_testbeds: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: an analysis part of one test bed is fingerprinted by its own test bed's
    dimension rows and judgments, so after a test bed is added only its ULC, meta_corr,
    metric_corr, QUEEN and KING parts are computed (only it is sliced), the first test bed's
    keep their rows (same rowids), and the mirror holds what a full build holds.  (QUEEN and
    KING were one part per metric set and level over every test bed: all rewritten.)"""
    mirror = tmp_path / "m.sqlite"
    shutil.copy(built[1], mirror)
    own = "select rowid, * from {} where testbed = 'sample' order by rowid"
    tables = ("ulc", "meta_corr", "metric_corr", "queen", "king")
    before = {t: _rowids(mirror, own.format(t)) for t in tables}
    made = _counting_slices(monkeypatch)
    steps: list[str] = []
    report = build_mirror(two_testbeds, mirror, progress=steps.append)
    con = sqlite3.connect(mirror)
    keys = [json.loads(k) for (k,) in con.execute("select key from ulcdb_mirror_parts "
                                                  "where key <> 'format'")]
    con.close()
    added = [w for t, w in keys if t in tables and w.get("testbed") == "other"]
    computed = [s for s in steps if s.split(" ")[0] in tables and " " in s]
    assert [t for t, _ in made] == ["other"] and len(computed) == len(added) > 20
    qarla = [w for t, w in keys if t in ("queen", "king")]
    assert sorted(s.split(" ")[0] for s in computed if s.startswith(("queen ", "king "))) == (
        sorted(t for t, w in keys if t in ("queen", "king") and w["testbed"] == "other"))
    assert len(qarla) == 2 * len([s for s in computed if s.startswith(("queen ", "king "))]) > 4
    assert {t: _rowids(mirror, own.format(t)) for t in tables} == before
    assert all(before.values()) and 0 < report.rewritten < report.parts
    assert _contents(mirror) == _contents(build_mirror(two_testbeds, tmp_path / "full.sqlite",
                                                       full=True).path)


def test_ulc_and_metric_corr_are_written_a_test_bed_at_a_time(two_testbeds: Path,
                                                              tmp_path: Path) -> None:
    """ULC and metric_corr parts are one test bed's each, computed on its rows alone (issue
    30: a part's cost does not grow with the other test beds): with a second test bed the
    manifest holds a part per test bed, and the tables hold what the macros give over the
    whole store."""
    from ulcdb.serve.mirror_sets import corr_metrics, metric_sets
    from ulcdb.store.database import Store

    db = two_testbeds
    report = build_mirror(db, tmp_path / "m.sqlite")
    con = sqlite3.connect(report.path)
    keys = [json.loads(k) for (k,) in con.execute("select key from ulcdb_mirror_parts "
                                                  "where key <> 'format'")]
    ulc = con.execute("select * from ulc where level = 'doc'").fetchall()
    corr = con.execute("select * from metric_corr where level = 'doc'").fetchall()
    con.close()
    parts = {(t, w.get("testbed")) for t, w in keys if t in ("ulc", "metric_corr")}
    assert parts == {(t, tb) for t in ("ulc", "metric_corr") for tb in ("sample", "other")}
    with Store(db, read_only=True) as store:
        sets = metric_sets(store.con)
        whole_ulc = [(name, *r) for name, members in sets.items() for r in store.con.execute(
            "select * from ulc($1, 'doc')", [members]).fetchall()]
        whole_corr = store.con.execute("select * from metric_corr($1, 'doc')",
                                       [corr_metrics(sets)]).fetchall()
        sliced = _rows_read_in_a_slice(store.con, "other")
    assert sliced["score_rows"] == sliced["own"] < sliced["every"]  # what the ULC macro reads
    assert len(sets) >= 2 and {r[1] for r in ulc} == {r[0] for r in corr} == {"sample", "other"}
    assert sorted(map(_close, ulc), key=_key) == sorted(map(_close, whole_ulc), key=_key)
    assert sorted(map(_close, corr), key=_key) == sorted(map(_close, whole_corr), key=_key)


def _close(row: tuple) -> tuple:
    """A row compared as the mirror stores it: floats to 1e-10, NaN as NULL."""
    return tuple(None if isinstance(v, float) and math.isnan(v) else
                 _Close(v) if isinstance(v, float) else v for v in row)


def _rows_read_in_a_slice(con: duckdb.DuckDBPyConnection, testbed: str) -> dict[str, int]:
    """How many id-keyed score rows there are, how many are the test bed's, and how many the
    ULC macro's input (`score_rows`) holds inside the test bed's slice."""
    from ulcdb.serve.mirror_analyses import testbed_slice

    def count(sql: str, *params: str) -> int:
        return int(con.execute(sql, list(params)).fetchone()[0])

    every = count("select count(*) from score_rows")
    own = count("select count(*) from score_rows join stg_refset using (refset_id) "
                "where testbed = $1", testbed)
    with testbed_slice(con, testbed):
        inside = count("select count(*) from score_rows")
    assert count("select count(*) from score_rows") == every  # the view is back
    return {"every": every, "own": own, "score_rows": inside}


def _manifest(path: Path) -> dict[str, str]:
    con = sqlite3.connect(path)
    manifest = dict(con.execute("select key, fingerprint from ulcdb_mirror_parts "
                                "where key <> 'format'").fetchall())
    con.close()
    return manifest


def test_a_new_test_bed_rewrites_no_other_test_beds_intervals_or_means(
        built: tuple[Path, Path], two_testbeds: Path, tmp_path: Path) -> None:
    """Issue 30: sys_interval and scores_mean are parts per test bed and metric, fingerprinted
    by the test bed's own scores and dimension rows (they were per metric over every test bed:
    adding one rewrote every metric's intervals and means).  After a test bed is added only its
    parts of them are written, the first test bed's keep their rows (same rowids), and both
    tables hold what a full build holds."""
    mirror = tmp_path / "m.sqlite"
    shutil.copy(built[1], mirror)
    tables = ("sys_interval", "scores_mean")
    own = "select rowid, * from {} where testbed = 'sample' order by rowid"
    before = {t: _rowids(mirror, own.format(t)) for t in tables}
    old = _manifest(mirror)
    steps: list[str] = []
    report = build_mirror(two_testbeds, mirror, progress=steps.append)
    new = _manifest(mirror)
    rewritten = [json.loads(k) for k, fp in new.items() if old.get(k) != fp]
    kept = [json.loads(k) for k in new.keys() & old.keys() if old[k] == new[k]]
    for table in tables:
        written = [w for t, w in rewritten if t == table]
        stayed = [w for t, w in kept if t == table]
        assert {w.get("testbed") for w in written} == {"other"}, (table, written[:3])
        assert {w.get("testbed") for w in stayed} == {"sample"}, table
        assert sorted(w["metric"] for w in written) == sorted(w["metric"] for w in stayed)
        assert len(written) > 10 and f"{table} ({len(written)} of {2 * len(written)} parts)" in (
            steps), [s for s in steps if s.startswith(table)]
    assert {t: _rowids(mirror, own.format(t)) for t in tables} == before
    assert all(before.values()) and 0 < report.rewritten < report.parts
    whole = _contents(build_mirror(two_testbeds, tmp_path / "full.sqlite", full=True).path)
    new_rows = _contents(mirror)
    for table in tables:
        assert new_rows[table] == whole[table] and len({r[0] for r in whole[table]}) == 2


def test_a_new_test_bed_with_a_new_metric_rewrites_no_other_test_beds_analyses(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """A test bed that brings a metric no other has (1-TER) widens metric_corr's pool and
    the sets the mirror makes ("all", LEX); the first test bed has no score of it, so its
    metric_corr, ULC, QUEEN and KING rows stay the same and its parts are not rewritten:
    metric_corr pairs the pool's metrics its test bed has scores of, and a made set is
    restricted to them (ULC needs every metric of its set: the first test bed's ULC of "all"
    lost its rows when the set was the store's)."""
    from serve_helpers import METRICS, SAMPLE

    db, mirror = tmp_path / "s.duckdb", tmp_path / "s.sqlite"
    shutil.copy(built[0], db)
    shutil.copy(built[1], mirror)
    _run(db, "ingest", "testbed", str(SAMPLE / "ULC.config"), "--name", "other")
    _run(db, "score", "-t", "other", "-m", f"{METRICS},1-TER", "-G", "all", "--jobs", "1",
         "-f", "csv")
    tables = ("metric_corr", "ulc", "queen", "king")
    own = "select rowid, * from {} where testbed = 'sample' order by rowid"
    before, old = {t: _rowids(mirror, own.format(t)) for t in tables}, _manifest(mirror)
    build_mirror(db, mirror)
    rewritten = [json.loads(k) for k, fp in _manifest(mirror).items() if old.get(k) != fp]
    assert sorted((w["testbed"], w["level"]) for t, w in rewritten if t == "metric_corr") == [
        ("other", "doc"), ("other", "seg"), ("other", "sys")]
    assert not [(t, w) for t, w in rewritten if t in tables and w.get("testbed") == "sample"]
    assert ("ulc", {"level": "sys", "metric_set": "all", "testbed": "other"}) in [
        (t, w) for t, w in rewritten]
    assert {t: _rowids(mirror, own.format(t)) for t in tables} == before
    assert len(before["metric_corr"]) > 1000 and all(before.values())
    con = sqlite3.connect(mirror)
    ter = dict(con.execute("select testbed, count(*) from metric_corr where metric_a = '1-TER' "
                           "group by testbed").fetchall())
    con.close()
    assert ter == {"other": 3 * 7 * 29}  # levels, reference sets, metrics paired with 1-TER
    assert _contents(mirror) == _contents(build_mirror(db, tmp_path / "full.sqlite",
                                                       full=True).path)
