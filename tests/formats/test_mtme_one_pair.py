"""An mt-metrics-eval folder of one language pair (issue 25 section 3): `ingest scores` and
`ingest testbed` take its pair without --lp, and `ingest testbed` brings the folder's
human-scores/ with the texts.  The folder is what `ulcdb export mtme` writes of the tiny test
bed of test_interchange (human DA-z at every level: 0.25 * segment, 0.5, 0.75)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.formats.test_interchange import full_store, ok, scores, ulcdb
from ulcdb.store.database import Store


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mtme")
    source = full_store(root / "src.duckdb")
    out = root / "wmt99"
    ok(ulcdb(source, "export", "mtme", out))
    assert sorted(p.name for p in (out / "metric-scores").iterdir()) == ["en-de"]
    return out


def _human(db: Path) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query("select translator, level, seg_id, doc_id, criterion, value "
                           "from assessments order by all")


def test_testbed_and_scores_without_lp(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "one.duckdb"
    said = ok(ulcdb(db, "ingest", "testbed", folder, "--name", "tiny"))
    assert "human scores: 16 DA-z assessments read: 16 stored" in said
    human = _human(db)
    assert len(human) == 2 * (5 + 2 + 1)  # S1, S_2 x (segments, documents, system)
    assert ("S1", "seg", 4, "d-2", "DA-z", 1.0) in human and ("S1", "sys", None, None, "DA-z",
                                                              0.75) in human
    with Store(db, read_only=True) as store:
        assert store.query("select src_lang, tgt_lang from testbed") == [("en", "de")]
    said = ok(ulcdb(db, "ingest", "scores", folder))  # no --lp
    assert len(scores(db, ("seg", "doc", "sys"))) > 0
    assert "already there" in said  # the human scores came with the test bed
    assert _human(db) == human


def test_the_folders_human_scores_follow_restored_reference_names(folder: Path,
                                                                 tmp_path: Path) -> None:
    """Adding the folder to a stored test bed whose references are ref-A...: mt-metrics-eval's
    refA is the stored ref-A, in the texts and in the human scores alike."""
    copy = tmp_path / "wmt99"
    shutil.copytree(folder, copy)
    (copy / "human-scores" / "en-de.rating.sys.score").write_text("refA 0.9\nS1 0.5\n")
    db = tmp_path / "restored.duckdb"
    full_store(db)
    with Store(db) as store:
        store.con.execute("delete from assessment")
    said = ok(ulcdb(db, "ingest", "testbed", copy, "--name", "tiny"))
    assert "refA is the stored ref-A" in said
    human = _human(db)
    assert len(human) == 2 * (5 + 2 + 1) + 2
    assert ("ref-A", "sys", None, None, "rating", 0.9) in human


def test_several_pairs_still_need_lp(folder: Path, tmp_path: Path) -> None:
    two = tmp_path / "two"
    shutil.copytree(folder, two)
    shutil.copy(two / "sources" / "en-de.txt", two / "sources" / "de-en.txt")
    result = ulcdb(tmp_path / "x.duckdb", "ingest", "testbed", two)
    assert result.exit_code == 1
    assert "this mt-metrics-eval folder holds de-en, en-de: give --lp (e.g. --lp de-en)" in \
        result.output
    ok(ulcdb(tmp_path / "x.duckdb", "ingest", "testbed", two, "--lp", "en-de", "--name", "t"))
