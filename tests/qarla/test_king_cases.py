"""The KING table was bare numbers (`KING 0.0908` on WMT21 en-de, share of what?): the line
under it gives the cases (a held-out reference and a unit) and the systems a held-out
reference must beat.  The sample: 12 segments, 3 documents, 3 references, 4 systems; KING
and ORANGE are whole counts of those cases and of the (case, system) pairs."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.cli_helpers import sample_store, ulcdb


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_store(tmp_path_factory.mktemp("king_cases") / "s.duckdb")


@pytest.mark.parametrize(("level", "cases", "unit"), [
    ("seg", 36, "a held-out reference and a segment"),
    ("doc", 9, "a held-out reference and a document"),
    ("sys", 3, "one per held-out reference"),
])
def test_king_says_what_its_numbers_are_the_share_of(store: Path, level: str, cases: int,
                                                     unit: str) -> None:
    result = ulcdb(store, "king", "-m", "BLEU,chrF", "-G", level, "--orange")
    assert result.exit_code == 0, result.output
    assert (f"KING: the share of {cases} cases ({unit}) in which the held-out reference "
            "scores at least as high as each of the 4 systems against the other references; "
            f"ORANGE: the share of its {cases * 4} (case, system) pairs"
            ) in " ".join(result.output.split())
    rows = list(csv.DictReader(io.StringIO(ulcdb(store, "king", "-m", "BLEU,chrF", "-G", level,
                                                 "--orange", "-f", "csv").stdout)))
    assert {r["measure"] for r in rows} == {"BLEU", "chrF", "ULC"}
    assert {(r["cases"], r["systems"]) for r in rows} == {(str(cases), "4")}  # -f csv too
    for r in rows:
        assert float(r["KING"]) * cases == pytest.approx(round(float(r["KING"]) * cases))
        assert float(r["ORANGE"]) * cases * 4 == pytest.approx(
            round(float(r["ORANGE"]) * cases * 4))
