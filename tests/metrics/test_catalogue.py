"""Finding metrics (issue 15): a compact, filterable catalogue, `describe`, every built-in set
listed, "did you mean" for unknown names, ULC's own default set, score tables best first."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import ulcdb as ulcdb_api
from tests.cli_helpers import copy_store, ulcdb
from ulcdb.metrics.registry import BUILTIN_SETS

SRC = ("uno dos", "tres cuatro", "cinco seis")
REF = ("the cat sat on the mat", "a dog runs in the park", "birds fly over the sea")
HYPS = {"good": REF,
        "fair": ("the cat sat on a mat", "a dog runs in a park", "birds fly over sea"),
        "poor": ("cat mat", "dog", "the sea")}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-system test bed, ingested once per module and never scored: each fixture
    below starts from a copy."""
    folder = tmp_path_factory.mktemp("cat")
    args = []
    for name, lines in (("src", SRC), ("ref", REF), *HYPS.items()):
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in ("poor", "good", "fair"):  # test-bed order: poor first
        args += ["--sys", f"{name}={folder / f'{name}.txt'}"]
    path = folder / "cat.duckdb"
    result = ulcdb(path, "ingest", "testbed", "--name", "tb", "--source", folder / "src.txt",
                   "--ref", f"ref-A={folder / 'ref.txt'}", *args)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def db(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(template, tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="module")
def scored(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy holding the scores of ULC's default set (METEOR's whole family with MTR-exact)
    and -TER, made here rather than left behind by another test."""
    path = copy_store(template, tmp_path_factory.mktemp("scored"))
    result = ulcdb(path, "score", "-m", "metrics_LEX,-TER", "-j", "1")
    assert result.exit_code == 0, result.output
    return path


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_default_set_is_ulcs_metrics_lex_and_tables_rank_by_ulc(db: Path) -> None:
    result = ulcdb(db, "score", "-j", "1")
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if "SYS" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == [
        "SYS", "BLEU", "NIST", "GTM-2", "MTR-exact", "RG-L", "1-PER", "Ol", "ULC"]
    order = [line.split("│")[1].strip() for line in result.stdout.splitlines()
             if line.startswith("│")]
    assert order == ["good", "fair", "poor"]  # best ULC first, not test-bed order
    kept = ulcdb(db, "score", "--sort", "none", "-j", "1")
    assert [line.split("│")[1].strip() for line in kept.stdout.splitlines()
            if line.startswith("│")] == ["poor", "good", "fair"]


def test_machine_formats_and_the_api_list_rows_as_the_table_does(db: Path) -> None:
    # `score -f csv/json` listed system rows in test-bed order (poor, good, fair) under a
    # table that ranks them by ULC: one order everywhere, decided in ulcdb.ops.score.
    args = ("score", "-m", "BLEU,-TER", "-G", "all", "-j", "1")
    table = ulcdb(db, *args)
    assert table.exit_code == 0, table.output
    sys_rows = [line.split("│")[1].strip() for line in table.stdout.split("sys level")[1]
                .splitlines() if line.startswith("│")]
    assert sys_rows == ["good", "fair", "poor"]
    rows = _csv(ulcdb(db, *args, "-f", "csv").stdout)
    assert [r["translator"] for r in rows if r["level"] == "sys"] == sys_rows
    assert [r["translator"] for r in rows if r["level"] == "seg"][:3] == ["poor"] * 3
    as_json = json.loads(ulcdb(db, *args, "-f", "json").stdout)
    assert [r["translator"] for r in as_json if r["level"] == "sys"] == sys_rows
    with ulcdb_api.open(db, read_only=True) as database:
        api = database.score("BLEU,-TER", level="sys").column("translator").to_pylist()
    assert api == sys_rows
    kept = _csv(ulcdb(db, *args, "--sort", "none", "-f", "csv").stdout)
    assert [r["translator"] for r in kept if r["level"] == "sys"] == ["poor", "good", "fair"]


def test_sort_by_any_column_in_every_format(db: Path) -> None:
    result = ulcdb(db, "score", "-m", "BLEU,-TER", "--sort", "-TER", "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.output
    rows = _csv(result.stdout)
    values = [float(r["-TER"]) for r in rows]
    assert values == sorted(values, reverse=True) and rows[0]["translator"] == "good"
    bad = ulcdb(db, "score", "-m", "BLEU", "--sort", "NIST")
    assert bad.exit_code == 1 and "no column 'NIST' to sort by (columns: BLEU, ULC)" in \
        bad.output


@pytest.mark.parametrize("typed, suggested", [
    ("chrf", "did you mean chrF, CHRF, chrF++?"),  # CHRF: the family's set
    ("TER", "did you mean -TER, 1-TER?"),
    ("rouge-l", "did you mean RG-L"),
    ("bleu4", "did you mean BLEU-4"),
])
def test_unknown_names_suggest_the_closest(db: Path, typed: str, suggested: str) -> None:
    result = ulcdb(db, "score", "-m", typed)
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert f"no metric or metric set named {typed!r} ({suggested}" in result.output


def test_unknown_system_suggests(db: Path) -> None:
    result = ulcdb(db, "score", "-m", "BLEU", "-s", "Good")
    assert "no system named 'Good' (did you mean good?)" in result.output


def test_list_metrics_is_compact_and_filters(scored: Path, template: Path, tmp_path: Path
                                         ) -> None:
    result = ulcdb(scored, "list", "metrics", "--family", "meteor", "-f", "csv")
    rows = _csv(result.stdout)
    assert list(rows[0]) == ["name", "family", "level", "languages", "range", "computed"]
    assert [r["name"] for r in rows] == ["MTR-exact", "MTR-stem", "MTR-wnstm", "MTR-wnsyn"]
    assert {r["computed"] for r in rows} == {"yes"}  # MTR-exact scored with its family
    sp = _csv(ulcdb(scored, "list", "metrics", "SP-Op-NN?", "-f", "csv").stdout)
    assert [(r["name"], r["computed"]) for r in sp] == [("SP-Op-NNS", ""), ("SP-Op-NNP", "")]
    assert rows[0]["range"] == "0..1 (higher is better)"
    names = [r["name"] for r in _csv(ulcdb(scored, "list", "metrics", "BLEU*", "-f", "csv").stdout)]
    assert names == ["BLEU", "BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3",
                     "BLEUi-4"]
    stm = [r["name"] for r in _csv(ulcdb(scored, "list", "metrics", "stm", "-f", "csv").stdout)]
    assert "CP-STM-4" in stm and "MTR-wnstm" in stm and all("stm" in n.lower() for n in stm)
    computed = _csv(ulcdb(scored, "list", "metrics", "--computed", "-f", "csv").stdout)
    assert {r["name"] for r in computed} >= {"BLEU", "Ol", "-TER"}
    unscored = copy_store(template, tmp_path)
    assert _csv(ulcdb(unscored, "list", "metrics", "--computed", "-f", "csv").stdout) == []
    long = _csv(ulcdb(scored, "list", "metrics", "NIST", "--long", "-f", "csv").stdout)
    assert long[0]["range_max"] == "" and "mteval" in long[0]["description"]
    bad = ulcdb(scored, "list", "metrics", "--family", "rouge-x")
    assert bad.exit_code == 1 and "no metric family named 'rouge-x'" in bad.output


def test_describe_one_metric(db: Path) -> None:
    result = ulcdb(db, "describe", "MTR-wnsyn")
    assert result.exit_code == 0, result.output
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines())
    assert lines["languages"].strip() == "en"
    assert {"METEOR", "metrics_DEFAULT", "metrics_OPT_mt06_adequacy"} <= {
        s.strip() for s in lines["sets"].split(",")}
    assert "Meteor 1.5" in lines["reference implementation"]
    missing = ulcdb(db, "describe", "mtr-wnsyn")
    assert missing.exit_code == 1 and "(did you mean MTR-wnsyn" in missing.output


def test_list_sets_shows_builtin_and_stored(db: Path) -> None:
    assert ulcdb(db, "set", "define", "metric", "mine", "BLEU", "Ol").exit_code == 0
    rows = _csv(ulcdb(db, "list", "sets", "-f", "csv").stdout)
    by_name = {r["name"]: r for r in rows}
    assert by_name["metrics_LEX"]["members"] == "BLEU NIST GTM-2 MTR-exact RG-L 1-PER Ol"
    assert by_name["LEX"]["members"].split() == list(BUILTIN_SETS["LEX"])
    assert by_name["metrics_SP"]["origin"] == "builtin"
    assert (by_name["mine"]["origin"], by_name["mine"]["members"]) == ("stored", "BLEU Ol")
    described = dict(line.split(":", 1) for line in ulcdb(db, "describe", "Ol").stdout.splitlines())
    assert "mine" in {s.strip() for s in described["sets"].split(",")}


def test_catalogue_without_a_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No store named and none at the default path: the built-in catalogue still lists, and
    no file is created; a store named with --db must exist."""
    from typer.testing import CliRunner

    from ulcdb.cli.main import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ULCDB_DB", raising=False)
    result = CliRunner().invoke(app, ["list", "metrics", "RG-W", "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert "RG-W-1.2,ROUGE,lexical,en" in result.output
    assert CliRunner().invoke(app, ["describe", "Ol"]).exit_code == 0
    assert list(tmp_path.iterdir()) == []
