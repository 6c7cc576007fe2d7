"""The WMT20 DA files read at once (``wmt20_da``) give the same judgments and flags as line by
line, and anything unusual goes to the line-by-line reader (its errors name the line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ulcdb.errors import InputError
from ulcdb.formats.wmt import metrics_task, wmt20
from ulcdb.formats.wmt.wmt20_da import read_da_fast
from ulcdb.ingest.load_assessments import assessment_table

NEEDED = {"seg": ("lp", "system", "doc_id", "seg_in_doc", "line_id"),
          "doc": ("lp", "system", "doc_id"),
          "sys": ("lp", "system", "is_human_translation", "is_outlier")}


def _both(path: Path, lp: str, level: str, details: Path) -> tuple[object, object]:
    data = metrics_task.read_details(details)
    layout = {(s.doc_id, s.seg_in_doc): s.seg_id for s in data.segments}
    needed = (*NEEDED[level], *wmt20.CRITERIA)
    fast = read_da_fast(path, lp, level, layout, needed, wmt20.CRITERIA)
    pair = wmt20.Wmt20Pair(lp, data)
    slow = assessment_table(wmt20._read_da_lines(path, lp, level, layout, pair,
                                                 NEEDED[level])).to_pylist()
    flags = (pair.da_systems, pair.human_systems, pair.outliers)
    return fast, (slow, flags)


@pytest.mark.shared
@pytest.mark.parametrize("level", ["seg", "doc", "sys"])
def test_release_files_read_at_once_equal_line_by_line(shared: Path, level: str) -> None:
    root = shared / "testbeds" / "wmt20_metrics"
    if not root.is_dir():
        pytest.skip("WMT20 release not in shared data")
    path = root / "human" / f"da_{level}.de-en.tsv"
    fast, (slow, flags) = _both(path, "de-en", level, root / "input_details" / "de-en.txt")
    assert fast is not None
    rows, got = fast
    assert rows.to_pylist() == slow and len(slow) > 20
    assert (got.systems, got.human, got.outliers) == flags


DETAILS = "1\tnt\tde-en\tdA\t1\n2\tnt\tde-en\tdA\t2\n3\tnt\tde-en\tdB\t1\n"
HEADER = "lp\tsystem\tdoc_id\tseg_in_doc\tseg_key\tline_id\tda_raw\tda_z\tn_judgments\n"
GOOD = ["de-en\t S1\tdA\t1\tk\t1\t70.5\t-0.25\t1",
        "de-en\tS1\tdA\t2\tk\t2\tNone\t1e-3\t1",
        "de-en\tS2\tdB\t1\tk\t3\t-0.0\t\t2"]


def _file(tmp_path: Path, lines: list[str], ending: str = "\n") -> tuple[Path, Path]:
    details = tmp_path / "de-en.txt"
    details.write_text(DETAILS)
    path = tmp_path / "da_seg.de-en.tsv"
    path.write_bytes((HEADER + ending.join(lines) + ending).encode())
    return path, details


def test_small_file_read_at_once_equals_line_by_line(tmp_path: Path) -> None:
    fast, (slow, flags) = _both(*_file(tmp_path, GOOD)[:1], "de-en", "seg",
                                _file(tmp_path, GOOD)[1])
    assert fast is not None
    rows, got = fast
    assert rows.to_pylist() == slow
    assert [(r["translator"], r["criterion"], r["value"], r["seg"], r["line"])
            for r in slow] == [
        ("S1", "DA-raw", 70.5, 1, 2), ("S1", "DA-z", -0.25, 1, 2), ("S1", "DA-z", 0.001, 2, 3),
        ("S2", "DA-raw", 0.0, 3, 4)]
    assert got.systems == flags[0] == {"S1", "S2"}


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: [g[0], "", *g[1:]], None),                       # a blank line: read, lines kept
    (lambda g: [g[0], g[1].replace("de-en", "en-de", 1), g[2]], "tsv:3: language pair"),
    (lambda g: [g[0], g[1].replace("\t2\tNone", "\t2\tx"), g[2]], "tsv:3: score 'x'"),
    (lambda g: [g[0], g[1], g[2].replace("\t3\t", "\t2\t")], "tsv:4: line_id 2 is not"),
    (lambda g: [g[0], g[1], g[2].replace("\t3\t", "\t0\t")], "tsv:4: line_id '0'"),
    (lambda g: [g[0], g[1], g[2] + "\textra"], "tsv:4: expected 9 columns"),
    (lambda g: [g[0], g[1].replace("1e-3", "1e999"), g[2]], "tsv:3: score '1e999' is NaN"),
    (lambda g: [g[0], g[1].replace("1e-3", " 5 "), g[2]], None),  # spaces: read line by line
])
def test_unusual_files_go_line_by_line(tmp_path: Path, change: object,
                                       message: str | None) -> None:
    lines = change(GOOD)  # type: ignore[operator]
    path, details = _file(tmp_path, lines)
    data = metrics_task.read_details(details)
    layout = {(s.doc_id, s.seg_in_doc): s.seg_id for s in data.segments}
    needed = (*NEEDED["seg"], *wmt20.CRITERIA)
    assert read_da_fast(path, "de-en", "seg", layout, needed, wmt20.CRITERIA) is None
    pair = wmt20.Wmt20Pair("de-en", data)
    if message is None:
        assert wmt20._read_da(path, "de-en", "seg", layout, pair)
        return
    with pytest.raises(InputError, match=message):
        wmt20._read_da(path, "de-en", "seg", layout, pair)


def test_carriage_returns_go_line_by_line(tmp_path: Path) -> None:
    path, details = _file(tmp_path, GOOD, "\r\n")
    data = metrics_task.read_details(details)
    layout = {(s.doc_id, s.seg_in_doc): s.seg_id for s in data.segments}
    needed = (*NEEDED["seg"], *wmt20.CRITERIA)
    assert read_da_fast(path, "de-en", "seg", layout, needed, wmt20.CRITERIA) is None
    fast, (slow, _) = _both(*_file(tmp_path, GOOD)[:1], "de-en", "seg", details)
    assert fast is not None and fast[0].to_pylist() == slow


@pytest.mark.shared
@pytest.mark.slow
def test_store_holds_the_same_rows_as_line_by_line(shared: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """One language pair of the release into two stores, DA read at once and line by line:
    the same assessments, sets and scores, row for row."""
    from ulcdb.store.database import Store

    root = shared / "testbeds" / "wmt20_metrics"
    if not root.is_dir():
        pytest.skip("WMT20 release not in shared data")
    rows = {}
    for name in ("fast", "lines"):
        if name == "lines":
            monkeypatch.setattr(wmt20, "read_da_fast", lambda *args: None)
        with Store(tmp_path / f"{name}.duckdb") as store:
            wmt20.ingest_wmt20(store, root, lps=["ru-en"])
            rows[name] = {t: store.query(f"select * exclude (created_at) from {t} order by all")
                          if t == "testbed" else
                          store.query(f"select * from {t} order by all")
                          for t in ("testbed", "translator", "assessment", "named_set_member",
                                    "seg_score", "doc_score", "sys_score")}
    assert len(rows["fast"]["assessment"]) > 10000
    assert rows["fast"] == rows["lines"]
