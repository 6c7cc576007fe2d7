"""The one assessment loader (ulcdb.ingest.load_assessments), which `ingest assessments`, a
long TSV's human columns, mt-metrics-eval folders and the WMT20 release all go through:
where each row lands (checked with plain SQL against positions worked out by hand), every
bad row named with its line and nothing written, the first bad line in file order reported,
and the same-value / other-value / --replace rules."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_interchange import tiny_data

from ulcdb.errors import Conflict, InputError
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.ingest.model import Assessment
from ulcdb.store.database import Store

FILE = Path("judged.tsv")


@pytest.fixture
def store() -> Iterator[Store]:
    """The tiny test bed (d1: segments 1-3, d-2: segments 4-5; S1, S_2, ref-A..C) in memory."""
    with Store(":memory:") as st:
        load_testbed(st, tiny_data())
        yield st


def _rows(store: Store) -> list[tuple]:
    return store.query(
        "select t.name, a.level, a.seg_id, a.doc_id, a.criterion, a.judge, a.value "
        "from assessment a join translator t using (translator_id) order by all")


def test_rows_land_on_the_units_their_conventions_name(store: Store) -> None:
    items = [
        Assessment("S1", "DA", 10.0, "seg", 4, line=1),            # test-bed segment 4
        Assessment("S1", "DA", 20.0, "seg", 2, "d-2", line=2),     # 2nd of d-2 = segment 5
        Assessment("S_2", "DA", 30.0, "doc", 2, line=3),            # 2nd document = d-2
        Assessment("S_2", "DA", 40.0, "doc", None, "d1", line=4),
        Assessment("ref-A", "DA", 50.0, "sys", judge="J1", line=5),
    ]
    report = load_assessments(store, "tiny", items, FILE)
    assert (report.read, report.inserted, report.unchanged, report.replaced) == (5, 5, 0, 0)
    assert _rows(store) == [
        ("S1", "seg", 4, None, "DA", "", 10.0), ("S1", "seg", 5, None, "DA", "", 20.0),
        ("S_2", "doc", None, "d-2", "DA", "", 30.0), ("S_2", "doc", None, "d1", "DA", "", 40.0),
        ("ref-A", "sys", None, None, "DA", "J1", 50.0)]
    assert store.query("select distinct origin from assessment") == [("judged.tsv",)]


BAD = {
    "unknown translator": (Assessment("S9", "DA", 1.0, "seg", 1),
                           "unknown system or reference 'S9' in test bed 'tiny' (--rename "
                           "S9=NAME if the test bed holds it under another name, "
                           "--skip-unknown to leave its rows out)"),
    "level": (Assessment("S1", "DA", 1.0, "para", 1), "level must be seg, doc or sys, not 'para'"),
    "segment id": (Assessment("S1", "DA", 1.0, "seg", 6),
                   "segment 6 does not exist (test bed has 1..5)"),
    "position in document": (Assessment("S1", "DA", 1.0, "seg", 3, "d-2"),
                             "document 'd-2' has no segment 3"),
    "document of a segment": (Assessment("S1", "DA", 1.0, "seg", 1, "d9"),
                              "unknown document 'd9'"),
    "document": (Assessment("S1", "DA", 1.0, "doc", None, "d9"), "unknown document 'd9'"),
    "document number": (Assessment("S1", "DA", 1.0, "doc", 3),
                        "document number 3 does not exist (test bed has 1..2)"),
    "duplicate": (Assessment("S1", "DA", 2.0, "seg", 1), "duplicate assessment (first at line 1)"),
    "NaN": (Assessment("S1", "DA", math.nan, "seg", 2), "score is NaN or infinite"),
    "infinite": (Assessment("S1", "DA", math.inf, "seg", 2), "score is NaN or infinite"),
    "outside the scale": (Assessment("S1", "DA", 101.0, "seg", 2),
                          "score 101 lies outside the scale 0:100 given with --scale"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_row_is_named_with_its_line_and_nothing_is_written(store: Store, case: str) -> None:
    good = Assessment("S1", "DA", 1.0, "seg", 1, line=1)
    bad, message = BAD[case]
    bad.line = 2
    with pytest.raises(InputError) as err:
        load_assessments(store, "tiny", [good, bad], FILE, scale=(0.0, 100.0))
    assert str(err.value) == f"judged.tsv:2: {message}"
    assert _rows(store) == []
    assert store.query("select count(*) from criterion") == [(0,)]


def test_the_first_bad_line_is_reported_whatever_its_problem(store: Store) -> None:
    items = [Assessment("S1", "DA", 1.0, "seg", 1, line=1),
             Assessment("S9", "DA", 1.0, "seg", 2, line=5),       # unknown translator, later
             Assessment("S1", "DA", math.nan, "seg", 3, line=3),  # NaN, earlier
             Assessment("S1", "DA", 1.0, "seg", 1, line=4)]       # duplicate of line 1
    with pytest.raises(InputError, match=r"^judged.tsv:3: score is NaN"):
        load_assessments(store, "tiny", items, FILE)


def test_same_values_are_left_other_values_need_replace(store: Store) -> None:
    items = [Assessment("S1", "DA", float(i), "seg", i, line=i) for i in range(1, 4)]
    load_assessments(store, "tiny", items, FILE)
    again = load_assessments(store, "tiny", items, FILE)
    assert (again.inserted, again.unchanged, again.replaced) == (0, 3, 0)
    changed = [*items[:2], Assessment("S1", "DA", 9.0, "seg", 3, line=3)]
    with pytest.raises(Conflict, match="1 assessments are already stored with other values"):
        load_assessments(store, "tiny", changed, FILE)
    assert [r[-1] for r in _rows(store)] == [1.0, 2.0, 3.0]
    done = load_assessments(store, "tiny", changed, FILE, replace=True)
    assert (done.inserted, done.unchanged, done.replaced) == (1, 2, 1)
    assert [r[-1] for r in _rows(store)] == [1.0, 2.0, 9.0]


def test_unknown_translators_skipped_on_request(store: Store) -> None:
    items = [Assessment("S1", "MQM", -1.0, "seg", 1, line=1),
             Assessment("S9", "MQM", -2.0, "seg", 1, line=2),
             Assessment("S9", "MQM", -3.0, "seg", 2, line=3)]
    report = load_assessments(store, "tiny", items, FILE, skip_unknown=True)
    assert report.skipped == {"S9": 2}
    assert (report.read, report.inserted) == (1, 1)
    assert _rows(store) == [("S1", "seg", 1, None, "MQM", "", -1.0)]


def test_the_summary_counts_each_criterion_and_the_rows(store: Store) -> None:
    """A row of two criteria (WMT's da_raw and da_z) is two assessments: the summary says how
    many of each and from how many rows, not their sum alone ('6 assessments' for 3 rows)."""
    items = [Assessment("S1", c, v, "seg", i, line=i + 1)
             for i in range(1, 4) for c, v in (("DA-raw", 70.0 + i), ("DA-z", i / 10))]
    report = load_assessments(store, "tiny", items, FILE)
    assert report.criteria == {"DA-raw": 3, "DA-z": 3} and report.rows == 3
    assert report.summary() == ("3 DA-raw and 3 DA-z assessments read from 3 rows: 6 stored, "
                                "0 already there, 0 replaced")
    one = load_assessments(store, "tiny", [Assessment("S_2", "adequacy", 4.0, "sys", line=1)],
                           FILE)
    assert one.summary() == "1 adequacy assessment read: 1 stored, 0 already there, 0 replaced"


def test_segment_rows_read_at_system_level_say_which_level_fits(store: Store) -> None:
    """WMT's da_seg.tsv given with --level sys: its rows are the system's again and again.
    'duplicate assessment' alone left the user to guess; the error says to give --level seg."""
    rows = [Assessment("S1", "DA-raw", 70.0 + i, "sys", line=i) for i in (2, 3)]
    with pytest.raises(InputError) as err:
        load_assessments(store, "tiny", rows, FILE)
    assert str(err.value) == (
        "judged.tsv:3: duplicate assessment (first at line 2): the file holds several rows "
        "for system 'S1', as a file of segment scores does: give --level seg (--level doc "
        "for document scores)")
    docs = [Assessment("S1", "DA-raw", 70.0 + i, "doc", None, "d1", line=i) for i in (2, 3)]
    with pytest.raises(InputError, match=r"judged.tsv:3: duplicate assessment \(first at line "
                       r"2\): the file holds several rows for document 'd1' of 'S1', as a "
                       "file of segment scores does: give --level seg$"):
        load_assessments(store, "tiny", docs, FILE)
    assert _rows(store) == []


def test_a_look_alike_criterion_is_refused_within_its_test_bed(store: Store) -> None:
    """'da' beside the test bed's 'DA' is refused; another test bed (an mt-metrics-eval
    folder's 'mqm' beside a WMT TSV's 'MQM') keeps its own spelling."""
    load_testbed(store, dataclasses.replace(tiny_data(), name="other"))
    load_assessments(store, "tiny", [Assessment("S1", "DA", 1.0, "seg", 1, line=1)], FILE)
    load_assessments(store, "other", [Assessment("S1", "da", 1.0, "seg", 1, line=1)], FILE)
    with pytest.raises(InputError, match="^judged.tsv:4: the criterion name 'da' differs from "
                       "'DA' in test bed 'tiny' only by case"):
        load_assessments(store, "tiny", [Assessment("S1", "da", 2.0, "seg", 2, line=4)], FILE)
    assert store.query("select criterion, count(*) from assessment group by all order by 1") \
        == [("DA", 1), ("da", 1)]
