"""Issue 19's holes, one test each: data silently wrong, tracebacks, names."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from cli_helpers import copy_store, ulcdb
from conftest import REPO

SAMPLE = REPO / "sample"
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")


@pytest.fixture(scope="module")
def built_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("robust")
    path = tmp_path / "s.duckdb"
    res = ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample")
    assert res.exit_code == 0, res.output
    return path


@pytest.fixture
def store(built_store: Path, tmp_path: Path) -> Path:
    """The sample ingested (built once per module): a copy for each test."""
    return copy_store(built_store, tmp_path, built_store.name)


def _count(path: Path, table: str) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        con.close()


def _human_file(tmp_path: Path, drop: int | None) -> Path:
    folder = tmp_path / "human-scores"
    folder.mkdir()
    lines = [f"{s}\t{0.1 * k:.1f}" for s in SYSTEMS for k in range(1, 13)]
    if drop is not None:
        del lines[drop]
    path = folder / "es-en.da.seg.score"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("command", [("ingest", "assessments"), ("ingest", "scores")])
def test_mtme_human_file_missing_a_line_is_refused(store, tmp_path, command):
    path = _human_file(tmp_path, drop=12 + 4)  # sysB's fifth segment
    res = ulcdb(store, *command, path, "--format", "mtme", "-t", "sample")
    assert res.exit_code != 0
    assert f"{path}:23: system 'sysB' has 11 lines, the test bed has 12 segments" in res.output
    assert _count(store, "assessment") == 0


def test_mtme_human_file_with_every_line_is_stored(store, tmp_path):
    path = _human_file(tmp_path, drop=None)
    res = ulcdb(store, "ingest", "assessments", path, "--format", "mtme", "-t", "sample")
    assert res.exit_code == 0, res.output
    assert _count(store, "assessment") == 48


@pytest.mark.parametrize("name, problem", [
    ("sys\nX", "holds a tab, line break or other control character"),
    ("sys\tX", "holds a tab, line break or other control character"),
    (" sysX", "starts or ends with white space"),
    ("x" * 201, "is longer than 200 characters"),
])
def test_bad_translator_names_are_refused(tmp_path, name, problem):
    db = tmp_path / "s.duckdb"
    src = SAMPLE / "plain" / "source.es.txt"
    res = ulcdb(db, "ingest", "testbed", "--name", "tb", "--source", src,
                "--ref", f"ref={SAMPLE / 'plain' / 'refs' / 'ref-A.en.txt'}",
                "--sys", f"{name}={SAMPLE / 'plain' / 'systems' / 'sysA.en.txt'}")
    assert res.exit_code != 0 and problem in res.output
    assert not db.exists() or _count(db, "translator") == 0


def test_empty_testbed_name_is_refused_not_replaced(tmp_path):
    db = tmp_path / "s.duckdb"
    res = ulcdb(db, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "")
    assert res.exit_code != 0 and "the test bed name '' is empty" in res.output
    assert not db.exists() or _count(db, "testbed") == 0


def test_set_names_are_checked(store):
    res = ulcdb(store, "set", "define", "metric", "my\nset", "BLEU")
    assert res.exit_code != 0 and "metric set name 'my\\nset'" in res.output


@pytest.mark.parametrize("score", ["1_000", "\u0661\u0662", "0x1A", "1,5"])
def test_scores_in_other_notations_are_refused(store, tmp_path, score):
    path = tmp_path / "x.txt"
    path.write_text("\n".join(["0.5"] * 11 + [score]) + "\n")
    res = ulcdb(store, "ingest", "scores", path, "--format", "lines", "--metric", "X",
                "--target", "sysA", "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0
    assert f"{path}:12: score {score!r} is not a number" in res.output
    assert _count(store, "seg_score") == 0


def test_deeply_nested_json_is_one_line(store, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    res = ulcdb(store, "ingest", "scores", path, "--format", "sacrebleu", "--target", "sysA",
                "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0 and "not sacrebleu JSON: nested too deeply" in res.output


def test_gzip_bomb_is_refused_before_memory_runs_out(store, tmp_path, monkeypatch):
    import gzip

    from ulcdb.ingest import textio

    monkeypatch.setattr(textio, "MAX_DECOMPRESSED", 1 << 20)
    path = tmp_path / "scores.txt.gz"
    path.write_bytes(gzip.compress(b"0.5\n" * (1 << 19)))  # 2 MiB decompressed
    res = ulcdb(store, "ingest", "scores", path, "--format", "lines", "--metric", "X",
                "--target", "sysA", "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0 and "decompresses to more than 1 MiB: refused" in res.output
