"""The loader's checks of rows as read (level, value, reference set) still name
the first offending row when its quick look (names on their distinct values, one pass over
the rest) runs first, and the store stays as it was."""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa
import pytest
from test_interchange import empty_store, score_frame

from ulcdb.errors import InputError
from ulcdb.interchange.load import load_scores
from ulcdb.interchange.model import ScoreFrame
from ulcdb.store.database import Store

ROW = 7  # the row made wrong (its line is ROW + 1 in the frame's numbering below)


def _broken(column: str, value: object) -> ScoreFrame:
    frame = score_frame("MINE", 0.0)
    table = frame.table
    values = table[column].to_pylist()
    values[ROW] = value
    table = table.set_column(table.schema.get_field_index(column), column,
                             pa.array(values, table.schema.field(column).type))
    lines = pa.array(range(1, table.num_rows + 1), pa.int32())
    table = table.set_column(table.schema.get_field_index("line"), "line", lines)
    return ScoreFrame(table, frame.sources, frame.metrics)


@pytest.mark.parametrize(("column", "value", "message"), [
    ("level", "word", "level must be seg, doc or sys, not 'word'"),
    ("value", math.nan, "score is NaN or infinite"),
    ("value", -math.inf, "score is NaN or infinite"),
    ("refs", [], "no reference set given for target 'S1'"),
    ("refs", ["S1"], "'S1' is scored against a reference set holding itself"),
])
def test_first_bad_row_named(tmp_path: Path, column: str, value: object, message: str) -> None:
    db = empty_store(tmp_path / "s.duckdb")
    frame = _broken(column, value)
    with Store(db) as store, pytest.raises(InputError) as err:
        load_scores(store, frame)
    assert str(err.value) == f"built-in-test:{ROW + 1}: {message}"
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from seg_score") == 0
        assert store.scalar("select count(*) from metric where name = 'MINE'") == 0


def test_good_frame_loads(tmp_path: Path) -> None:
    db = empty_store(tmp_path / "s.duckdb")
    with Store(db) as store:
        report = load_scores(store, score_frame("MINE", 0.0))
        assert report.stored["seg"] == store.scalar("select count(*) from seg_score") > 0
