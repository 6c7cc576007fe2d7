"""Assessments of another test bed (issue 25 section 3): a file whose reference names match
the test bed's but whose segments run past it stopped at "segment 15 does not exist"; the one
line now says that the file seems to belong to another test bed, which of its names the test
bed has and which not, and which stored test bed has them all.  A single stray row or a
misspelt name keeps the plain message."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import copy_store, ulcdb
from ulcdb.store.database import Store


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("elsewhere")
    path = tmp_path / "two.duckdb"
    for name, n, system in (("small", 14, "S1"), ("big", 20, "S9")):
        text = tmp_path / f"{name}.txt"
        text.write_text("".join(f"line {i}\n" for i in range(1, n + 1)), encoding="utf-8")
        done = ulcdb(path, "ingest", "testbed", "--name", name, "--source", text, "--ref",
                     f"ref-A={text}", "--sys", f"{system}={text}", "--tgt-lang", "en")
        assert done.exit_code == 0, done.output
    return path


@pytest.fixture
def db(built_db: Path, tmp_path: Path) -> Path:
    """Test beds small and big (built once per module): a copy for each test."""
    return copy_store(built_db, tmp_path, built_db.name)


def _write(path: Path, rows: list[tuple[str, int]]) -> Path:
    path.write_text("system\tseg_id\tscore\n" + "".join(f"{t}\t{s}\t{s / 10}\n"
                                                        for t, s in rows), encoding="utf-8")
    return path


def _stored(db: Path) -> int:
    with Store(db, read_only=True) as store:
        return int(store.scalar("select count(*) from assessment"))


def test_another_test_beds_file_says_so(db: Path, tmp_path: Path) -> None:
    big = _write(tmp_path / "big-da.tsv", [("ref-A", s) for s in range(1, 21)]
                 + [("S9", s) for s in range(1, 21)])
    result = ulcdb(db, "ingest", "assessments", big, "--testbed", "small", "--criterion", "DA")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert ("big-da.tsv:16: segment 15 does not exist (test bed has 1..14); the file seems to "
            "belong to another test bed: 6 of its rows name no unit of 'small', which has its "
            "names ref-A but not S9 (test bed 'big' has them all)") in result.output
    assert _stored(db) == 0
    ok = ulcdb(db, "ingest", "assessments", big, "--testbed", "big", "--criterion", "DA")
    assert ok.exit_code == 0, ok.output


def test_an_unknown_name_first_says_it_too(db: Path, tmp_path: Path) -> None:
    big = _write(tmp_path / "big-da.tsv", [("S9", s) for s in range(1, 21)]
                 + [("ref-A", s) for s in range(1, 21)])
    result = ulcdb(db, "ingest", "assessments", big, "--testbed", "small", "--criterion", "DA")
    assert result.exit_code == 1
    assert ("big-da.tsv:2: unknown system or reference 'S9' in test bed 'small'; the file "
            "seems to belong to another test bed") in result.output


@pytest.mark.parametrize("rows, message", [
    ([("ref-A", 1), ("ref-A", 15)], "big-da.tsv:3: segment 15 does not exist (test bed has "
                                    "1..14)\n"),
    ([("ref-A", 1), ("S2", 2)], "big-da.tsv:3: unknown system or reference 'S2' in test bed "
                                "'small' (--rename S2=NAME if the test bed holds it under "
                                "another name, --skip-unknown to leave its rows out)\n"),
])
def test_a_stray_row_or_a_typo_keeps_the_plain_message(db: Path, tmp_path: Path,
                                                       rows: list[tuple[str, int]],
                                                       message: str) -> None:
    result = ulcdb(db, "ingest", "assessments", _write(tmp_path / "big-da.tsv", rows),
                   "--testbed", "small", "--criterion", "DA")
    assert result.exit_code == 1 and result.output.endswith(message)


@pytest.mark.parametrize("option, stored", [(("--rename", "S2=S1"), [("S1", 2)]),
                                            (("--skip-unknown",), [])])
def test_the_typo_hint_names_ways_that_work(db: Path, tmp_path: Path, option: tuple[str, ...],
                                            stored: list[tuple[str, int]]) -> None:
    """The two ways the unknown-name message offers each import the file."""
    path = _write(tmp_path / "big-da.tsv", [("ref-A", 1), ("S2", 2)])
    result = ulcdb(db, "ingest", "assessments", path, "--testbed", "small", "--criterion", "DA",
                   *option)
    assert result.exit_code == 0, result.output
    with Store(db) as store:
        rows = store.query("select t.name, a.seg_id from assessment a join translator t "
                           "using (translator_id) where t.name <> 'ref-A' order by all")
    assert rows == stored
