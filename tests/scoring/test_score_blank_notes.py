"""`ulcdb score` with imported metrics: a column left blank (a metric imported under another
variant, at segment level only, or for some systems only) and the ULC blank with it were
printed with no word, as if nothing had been asked; a note now says where and why (issue
25).  Sample test bed; the imported scores are made up here and counted by hand."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from cli_helpers import ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"


def _import(db: Path, tmp: Path, metric: str, systems: tuple[str, ...], *extra: str) -> Path:
    path = tmp / f"{metric}.tsv"
    path.write_text("system\tseg_id\tscore\n" + "".join(
        f"{s}\t{i}\t{0.01 * i}\n" for s in systems for i in range(1, 13)))
    result = ulcdb(db, "ingest", "scores", path, "--format", "table", "--map",
                   "target=system", "--map", "seg_id=seg_id", "--map", "value=score",
                   "--metric", metric, "--ref", "ref-A", "--level", "seg", *extra)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("blank_notes")
    path = tmp / "s.duckdb"
    assert ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample"
                 ).exit_code == 0
    _import(path, tmp, "Ylc", ("sysA", "sysB", "sysC", "sysD"), "--variant", "case:lc")
    two = _import(path, tmp, "Xtwo", ("sysA", "sysB"))
    return path, two


def _score(db: Path, *args: str) -> tuple[list[dict[str, str]], list[str]]:
    result = ulcdb(db, "score", "-r", "ref-A", "-j", "1", "-f", "csv", *args)
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout))), result.stderr.splitlines()


def test_a_metric_of_another_variant_is_said_blank(db: tuple[Path, Path]) -> None:
    rows, said = _score(db[0], "-m", "Ylc,BLEU", "-G", "seg")
    assert len(rows) == 4 * 12 and all(r["Ylc"] == "" and r["ULC"] == "" for r in rows)
    assert ("Ylc: blank at seg level (no score under case:mixed), ULC blank with it: its "
            "scores against ref-A are of variant case:lc") in said


def test_some_systems_and_a_missing_level_are_counted(db: tuple[Path, Path]) -> None:
    path, origin = db
    rows, said = _score(path, "-m", "Xtwo,BLEU", "-G", "all")
    seg = [r for r in rows if r["level"] == "seg"]
    blank = [r for r in seg if r["Xtwo"] == ""]
    assert {r["translator"] for r in blank} == {"sysC", "sysD"} and len(blank) == 24
    assert all(r["ULC"] == "" for r in blank)
    assert "Xtwo: blank in 24 of 48 seg-level rows (no score against ref-A), ULC blank with it" \
        in said
    assert ("Xtwo: blank at sys level (no score under case:mixed), ULC blank with it: Xtwo is "
            f"imported only, not computed by ulcdb: its import ({origin}) holds no sys-level "
            "scores (case:mixed) against 'ref-A' in test bed 'sample'; import a file that has "
            "them") in said


def test_nothing_said_when_every_cell_is_there(db: tuple[Path, Path]) -> None:
    rows, said = _score(db[0], "-m", "BLEU", "-G", "all")
    assert rows and not any("blank" in line for line in said)


def test_a_table_with_no_row_at_all_says_why(db: tuple[Path, Path]) -> None:
    """An imported metric alone at a level it has no score at: the table had no row and no
    note (the blank-column count found no blank cell in no row)."""
    path, origin = db
    rows, said = _score(path, "-m", "Xtwo", "-G", "sys")
    assert rows == []
    assert ("Xtwo: blank at sys level (no score under case:mixed), ULC blank with it: Xtwo is "
            f"imported only, not computed by ulcdb: its import ({origin}) holds no sys-level "
            "scores (case:mixed) against 'ref-A' in test bed 'sample'; import a file that has "
            "them") in said
