"""`ulcdb meta --min-segments N` leaves out document and system human scores of fewer than N
assessed segments.  It did so without a word (only the item count fell), named a system it
dropped that way as having "no judgment", and when it left nothing refused with "no
doc-level human scores" (issue 25).  WMT21 ru-en sample (DA: not every system judged on each
segment); expected counts from plain SQL on the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from tests.meta.test_meta_honest import _ok, _sql, bleu_against_ref_a


@pytest.fixture(scope="module")
def ruen(ruen_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("min_segments") / "ruen.duckdb"
    return bleu_against_ref_a(db, ruen_sample, "ruen")


def _meta(db: Path, *args: str) -> dict:
    return json.loads(_ok(ulcdb(db, "meta", "-c", "DA-z", "-m", "BLEU", "-r", "ref-A", "-B",
                                "0", *args, "-f", "json")))


def _judged(db: Path, by_doc: bool) -> list[tuple]:
    unit = "doc_id" if by_doc else "''"
    return _sql(db, f"select translator, role, {unit}, count(*) from assessments where "
                "criterion = 'DA-z' and level = 'seg' group by all")


def test_a_system_left_out_by_min_segments_is_named_so(ruen: Path) -> None:
    counts = {t: n for t, _, _, n in _judged(ruen, by_doc=False)}
    short = sorted(t for t, n in counts.items() if n < 60)
    assert short == ["Online-G"] and counts["Online-G"] == 56 and len(counts) == 11
    run = _meta(ruen, "-G", "sys", "--min-segments", "60")["run"]
    assert run["dropped_targets"] == {
        "Online-G": "fewer than 60 assessed segments at sys level (--min-segments)"}
    assert ("human sys-level scores of fewer than 60 assessed segments left out "
            "(--min-segments): 1 of 11") in run["summary"]


def test_documents_left_out_are_counted(ruen: Path) -> None:
    units = _judged(ruen, by_doc=True)
    short = sum(1 for *_, n in units if n < 9)
    kept_systems = sum(1 for _, role, _, n in units if n >= 9 and role == "system")
    out = _meta(ruen, "-G", "doc", "--min-segments", "9")
    assert out["run"]["n_items"] == kept_systems
    assert (f"human doc-level scores of fewer than 9 assessed segments left out "
            f"(--min-segments): {short} of {len(units)}") in out["run"]["summary"]
    assert 0 < short < len(units)


def test_nothing_left_names_min_segments(ruen: Path) -> None:
    most = max(n for *_, n in _judged(ruen, by_doc=True))
    assert most < 20
    result = ulcdb(ruen, "meta", "-c", "DA-z", "-m", "BLEU", "-r", "ref-A", "-G", "doc",
                   "--min-segments", "20")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("Error: no doc-level unit has 20 assessed segments of "
                                     "criterion 'DA-z' (--min-segments 20)")
