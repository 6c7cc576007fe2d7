"""Long TSV documents as a docs file must have them: contiguous runs of segments, seg_in_doc
the segment's place in its document; the line of the first row that breaks this is named
(second hostile-input audit, s8).  A document split by another one was stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from ulcdb.errors import InputError
from ulcdb.formats.longtsv import read_long_tsv


def long_tsv(tmp_path: Path, rows: list[tuple[int, str, str]]) -> Path:
    """One system's rows: (seg_id, doc_id, seg_in_doc) each, no seg_in_doc column when they
    are all ''; line n + 1 holds row n."""
    place = any(p for _, _, p in rows)
    lines = ["seg_id\tdoc_id\t" + ("seg_in_doc\t" if place else "") +
             "source\ttranslator\tkind\ttranslation"]
    lines += [f"{i}\t{d}\t" + (f"{p}\t" if place else "") + f"src {i}\tS1\tsystem\thyp {i}"
              for i, d, p in rows]
    path = tmp_path / "long.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("rows", "line", "problem"), [
    ([(1, "a", ""), (2, "b", ""), (3, "a", "")], 4,
     "document 'a' (first seen on line 2) is not contiguous: its segments must follow one "
     "another in seg_id order"),
    # rows in another order than seg_id: segment 3 (line 2) comes after b's segment 2
    ([(3, "a", ""), (1, "a", ""), (2, "b", "")], 2,
     "document 'a' (first seen on line 3) is not contiguous: its segments must follow one "
     "another in seg_id order"),
    ([(1, "a", "1"), (2, "a", "3"), (3, "a", "2")], 3,
     "seg_in_doc is 3, but the segment is number 2 of document 'a'"),
])
def test_documents_must_be_runs_of_segments(tmp_path: Path, rows: list[tuple[int, str, str]],
                                            line: int, problem: str) -> None:
    path = long_tsv(tmp_path, rows)
    with pytest.raises(InputError) as caught:
        read_long_tsv("t", path)
    assert str(caught.value) == f"{path}:{line}: {problem}"


def test_contiguous_documents_in_any_row_order_are_read(tmp_path: Path) -> None:
    data = read_long_tsv("t", long_tsv(tmp_path, [(3, "b", "1"), (1, "a", "1"),
                                                  (2, "a", "2")]))
    assert [(s.seg_id, s.doc_id, s.seg_in_doc) for s in data.segments] == [
        (1, "a", 1), (2, "a", 2), (3, "b", 1)]
