"""`ulcdb queen/king/jack -T` evaluate on the segments given at every level (IQMT's -T), but
the titles name the level only ("QUEEN over {BLEU}, sys level"): a note now says which
segments the values are of (issue 25).  Sample test bed: 3 references give 18 triples a
segment (IQMT manual section 3)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from cli_helpers import sample_store, ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
NOTE = ("evaluated on 3 segments only (-T 1-3), at every level: document and system values "
        "are those of these segments")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = sample_store(tmp_path_factory.mktemp("qarla_t") / "s.duckdb")
    return path


def _rows(result) -> list[dict[str, str]]:  # noqa: ANN001
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_queen_under_t_says_its_segments(db: Path) -> None:
    result = ulcdb(db, "queen", "-m", "BLEU", "-T", "1-3", "-j", "1", "-f", "csv")
    sys_rows = _rows(result)
    assert NOTE in result.stderr.splitlines()
    seg_rows = _rows(ulcdb(db, "queen", "-m", "BLEU", "-G", "seg", "-j", "1", "-f", "csv"))
    for row in sys_rows:
        assert int(row["triples"]) == 3 * 18
        assert int(row["hits"]) == sum(int(r["hits"]) for r in seg_rows
                                       if r["translator"] == row["translator"]
                                       and r["unit"] in {"1", "2", "3"})
    plain = ulcdb(db, "queen", "-m", "BLEU", "-j", "1", "-f", "csv")
    assert plain.exit_code == 0 and "evaluated on" not in plain.stderr


def test_king_and_jack_say_it_too(db: Path) -> None:
    for command in ("king", "jack"):
        result = ulcdb(db, command, "-m", "BLEU", "-T", "1-3", "-j", "1", "-f", "csv")
        assert result.exit_code == 0, result.output
        assert NOTE in result.stderr.splitlines()
