"""`ulcdb meta --min-segments N` leaves out document and system human scores of fewer than N
assessed segments.  It did so without a word (only the item count fell), named a system it
dropped that way as having "no judgment", and when it left nothing refused with "no
doc-level human scores" (issue 25); its note counted the units of ref-B, a human translation
meta leaves out, too.  WMT21 ru-en sample (DA: not every system judged on each segment; ref-B
judged too); expected counts from plain SQL on the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import copy_store, ulcdb
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
    counts = {t: n for t, role, _, n in _judged(ruen, by_doc=False) if role == "system"}
    short = sorted(t for t, n in counts.items() if n < 60)
    assert short == ["Online-G"] and counts["Online-G"] == 56 and len(counts) == 10
    run = _meta(ruen, "-G", "sys", "--min-segments", "60")["run"]
    assert run["dropped_targets"] == {
        "Online-G": "fewer than 60 assessed segments at sys level (--min-segments)"}
    assert ("human sys-level scores of fewer than 60 assessed segments left out "
            "(--min-segments): 1 of 10") in run["summary"]  # the 10 systems, not ref-B


def test_documents_left_out_are_counted(ruen: Path) -> None:
    units = [u for u in _judged(ruen, by_doc=True) if u[1] == "system"]
    short = sum(1 for *_, n in units if n < 9)
    out = _meta(ruen, "-G", "doc", "--min-segments", "9")
    assert out["run"]["n_items"] == len(units) - short
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


def test_the_note_counts_the_targets_meta_evaluates(ruen: Path, tmp_path: Path) -> None:
    """With ref-B scored against ref-A, it is a target with --include-human only: the note
    counts its documents then, and never those of a system left out with -x (the note
    counted every judged translator: 43 of 87 whatever was evaluated)."""
    db = copy_store(ruen, tmp_path)
    _ok(ulcdb(db, "score", "-m", "BLEU", "-G", "seg", "-f", "csv", "-j", "1"))  # every ref
    units = _judged(db, by_doc=True)
    assert len(units) == 87 and {t for t, role, *_ in units if role != "system"} == {"ref-B"}

    def note(keep: set[str]) -> str:
        kept = [n for t, _, _, n in units if t in keep]
        return (f"human doc-level scores of fewer than 9 assessed segments left out "
                f"(--min-segments): {sum(n < 9 for n in kept)} of {len(kept)}")

    systems = {t for t, role, *_ in units if role == "system"}
    for args, targets in (((), systems), (("--include-human",), systems | {"ref-B"}),
                          (("-x", "Online-G"), systems - {"Online-G"})):
        run = _meta(db, "-G", "doc", "--min-segments", "9", *args)["run"]
        assert note(targets) in run["summary"], args
        assert run["n_items"] == sum(1 for t, _, _, n in units if t in targets and n >= 9)
    assert note(systems) == ("human doc-level scores of fewer than 9 assessed segments left "
                             "out (--min-segments): 39 of 79")
