"""`ulcdb delete` (issue 15): a test bed, a system, a reference or scores go in one
transaction, saying what goes; nothing else changes; without a terminal --yes is needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import copy_store, ulcdb
from ulcdb.store.database import Store

SRC = ("uno dos", "tres cuatro")
REFS = {"ref-A": ("the cat sat", "a dog runs"), "ref-B": ("a cat sat", "the dog runs")}
SYSTEMS = {"S1": ("the cat sat", "a dog ran"), "S2": ("cat sits", "dog")}


def _testbed(folder: Path, db: Path, name: str) -> None:
    args: list[object] = []
    for kind, texts in (("--ref", REFS), ("--sys", SYSTEMS)):
        for label, lines in texts.items():
            path = folder / f"{label}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            args += [kind, f"{label}={path}"]
    (folder / "src.txt").write_text("\n".join(SRC) + "\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", "--name", name, "--source", folder / "src.txt",
                   *args)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two scored test beds, DA on tb and a set: built once, copied for each test."""
    tmp_path = tmp_path_factory.mktemp("delete")
    path = tmp_path / "d.duckdb"
    for name in ("tb", "other"):
        _testbed(tmp_path, path, name)
        assert ulcdb(path, "score", "-t", name, "-m", "BLEU,chrF", "-j", "1").exit_code == 0
        assert ulcdb(path, "score", "-t", name, "-m", "BLEU", "--case", "lc",
                     "-j", "1").exit_code == 0
    tsv = tmp_path / "da.tsv"
    tsv.write_text("system\tseg_id\tscore\nS1\t1\t70\nS1\t2\t60\nS2\t1\t20\nS2\t2\t30\n",
                   encoding="utf-8")
    assert ulcdb(path, "ingest", "assessments", tsv, "-t", "tb", "-c", "DA", "--map",
                 "system=system", "--map", "seg_id=seg_id", "--map",
                 "score=score").exit_code == 0
    assert ulcdb(path, "set", "define", "system", "both", "S1", "S2", "-t", "tb").exit_code == 0
    return path


@pytest.fixture
def db(built: Path, tmp_path: Path) -> Path:
    return copy_store(built, tmp_path, "d.duckdb")


def _count(db: Path, sql: str, params: list | None = None) -> int:
    with Store(db, read_only=True) as store:
        return int(store.scalar(sql, params or []))


def _scores(db: Path, where: str = "true") -> int:
    return _count(db, f"select count(*) from scores where {where}")


def _snapshot(db: Path, testbed: str) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query("select metric, translator, refset, variant, level, doc_id, seg_id, "
                           "value from scores where testbed = ? order by all", [testbed])


def test_without_a_terminal_yes_is_needed_and_nothing_changes(db: Path) -> None:
    before = _snapshot(db, "tb")
    result = ulcdb(db, "delete", "system", "S2", "-t", "tb")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "would delete system 'S2' of test bed 'tb'" in result.output
    assert "add --yes" in result.output
    assert _snapshot(db, "tb") == before


def test_delete_system(db: Path) -> None:
    other = _snapshot(db, "other")
    s1 = _scores(db, "testbed = 'tb' and translator = 'S1'")
    against_s2 = _scores(db, "testbed = 'tb' and refset like '%S2%'")  # JACK-style, if any
    stored = _count(db, "select count(*) from stored_scores s join translator t using "
                    "(translator_id) join refset r using (refset_id) join testbed b on "
                    "b.testbed_id = t.testbed_id where b.name = 'tb' and (t.name = 'S2' or "
                    "list_contains(string_split(r.name, '+'), 'S2'))")
    assert stored > 0
    result = ulcdb(db, "delete", "system", "S2", "-t", "tb", "--yes")
    assert result.exit_code == 0, result.output
    assert "deleted system 'S2' of test bed 'tb'" in result.output
    assert f"with its texts, {stored} scores (its own" in result.output
    assert "and 2 human assessments" in result.output
    assert _scores(db, "testbed = 'tb' and translator = 'S2'") == 0
    assert _scores(db, "testbed = 'tb' and translator = 'S1'") == s1 - against_s2
    assert _count(db, "select count(*) from assessments where translator = 'S2'") == 0
    assert _count(db, "select count(*) from assessments where translator = 'S1'") == 2
    assert _count(db, "select count(*) from translator where name = 'S2'") == 1  # 'other'
    assert _snapshot(db, "other") == other
    members = _count(db, "select count(*) from named_set_member m join named_set s "
                         "using (set_id) where s.name = 'both'")
    assert members == 1  # S2 left the set 'both'
    assert _count(db, "select count(*) from score_batch where batch_id not in (select "
                      "batch_id from score_rows)") == 0


def test_delete_reference_takes_the_sets_holding_it(db: Path) -> None:
    assert _scores(db, "testbed = 'tb' and refset = 'ref-A+ref-B'") > 0
    kept = _scores(db, "testbed = 'tb' and refset = 'ref-A' and translator <> 'ref-B'")
    result = ulcdb(db, "delete", "reference", "ref-B", "-t", "tb", "-y")
    assert result.exit_code == 0, result.output
    assert _scores(db, "testbed = 'tb' and refset like '%ref-B%'") == 0
    assert _scores(db, "testbed = 'tb' and translator = 'ref-B'") == 0
    assert _scores(db, "testbed = 'tb' and refset = 'ref-A'") == kept
    assert _count(db, "select count(*) from refset r join testbed t using (testbed_id) "
                      "where t.name = 'tb' and r.name like '%ref-B%'") == 0
    # the test bed still scores against what is left
    assert ulcdb(db, "score", "-t", "tb", "-m", "BLEU", "-j", "1").exit_code == 0


def test_delete_scores_by_variant(db: Path) -> None:
    lc = _scores(db, "testbed = 'tb' and variant = 'case:lc' and metric = 'BLEU'")
    mixed = _scores(db, "testbed = 'tb' and variant = 'case:mixed'")
    assert lc > 0
    result = ulcdb(db, "delete", "scores", "-t", "tb", "-m", "BLEU", "--variant", "case:lc",
                   "--yes")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"deleted {lc} scores of BLEU in test bed 'tb'")
    assert _scores(db, "testbed = 'tb' and variant = 'case:lc' and metric = 'BLEU'") == 0
    assert _scores(db, "testbed = 'tb' and variant = 'case:lc' and metric = 'BLEU-2'") == lc
    assert _scores(db, "testbed = 'tb' and variant = 'case:mixed'") == mixed
    assert _scores(db, "testbed = 'other' and variant = 'case:lc' and metric = 'BLEU'") == lc


def test_delete_testbed_leaves_the_others(db: Path) -> None:
    other = _snapshot(db, "other")
    result = ulcdb(db, "delete", "testbed", "tb", "--yes")
    assert result.exit_code == 0, result.output
    assert "deleted test bed 'tb' with its 2 systems, 2 references" in result.output
    assert "4 human assessments" in result.output and "1 named sets" in result.output
    assert _count(db, "select count(*) from testbed") == 1
    assert _count(db, "select count(*) from translation t join translator r "
                      "using (translator_id) join testbed b using (testbed_id) "
                      "where b.name = 'tb'") == 0
    assert _snapshot(db, "other") == other


@pytest.mark.parametrize("args, message", [
    (("testbed", "tbb"), "no test bed named 'tbb'"),
    (("system", "S3", "-t", "tb"), "no system named 'S3' in test bed 'tb' (have: S1, S2)"),
    (("scores", "-t", "tb", "-m", "BLUE"), "no metric named 'BLUE' (did you mean BLEU"),
    (("scores", "-t", "tb", "-m", "chrF", "--variant", "case:lc"),
     "no stored scores of chrF match in test bed 'tb'"),
])
def test_unknown_names_change_nothing(db: Path, args: tuple[str, ...], message: str) -> None:
    before = _snapshot(db, "tb")
    result = ulcdb(db, "delete", *args, "--yes")
    assert result.exit_code == 1 and message in result.output
    assert _snapshot(db, "tb") == before
