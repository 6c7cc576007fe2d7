"""`ulcdb list ...` prints what grep reads (issue 28): piped, or longer than the terminal, plain
aligned columns, one row a line (the whole catalogue in milliseconds, where rich took a second
to draw it); a rich table only on a terminal it fits; -f csv/tsv/json unchanged."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import ulcdb.cli.common as common
from tests.cli_helpers import ulcdb
from ulcdb.cli.common import plain_table

TITLE = "metrics (scores on a 0-1 scale unless their range says otherwise)"


@pytest.fixture(autouse=True)
def _restore_console(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(common, "console", common.console)
    monkeypatch.chdir(tmp_path)  # no store: the built-in catalogue
    monkeypatch.delenv("ULCDB_DB", raising=False)


def _terminal(height: int) -> None:
    common.console = Console(force_terminal=True, height=height, width=150, markup=False,
                             color_system=None)


def _catalogue() -> list[list[str]]:
    result = ulcdb(Path("ulcdb.duckdb"), "list", "metrics", "-f", "csv")
    assert result.exit_code == 0, result.output
    return list(csv.reader(io.StringIO(result.stdout)))


def _fields(line: str) -> list[str]:
    return re.split(r" {2,}", line.rstrip())


def test_piped_list_metrics_is_one_plain_line_per_metric() -> None:
    header, *rows = _catalogue()
    result = ulcdb(Path("ulcdb.duckdb"), "list", "metrics")
    assert result.exit_code == 0, result.output
    title, columns, rule, *lines = result.stdout.splitlines()
    assert title == f"{len(rows)} {TITLE}" and len(rows) > 1700
    assert _fields(columns) == header == ["name", "family", "level", "languages", "range",
                                          "computed"]
    assert set(rule) == {"-", " "} and "┃" not in result.stdout and "│" not in result.stdout
    # the same cells as the csv, in its order (an empty `computed` ends the line)
    assert [_fields(line) for line in lines] == [[c for c in r if c] for r in rows]
    meteor = next(line for line in lines if line.startswith("MTR-stem "))
    assert _fields(meteor)[3] == "da, de, en, es, fi, fr, hu, it, nl, no, pt, ro, ru, sv, tr"
    # columns line up: the family starts where the header's does (but after the rare name
    # longer than its column)
    at = columns.index("family")
    aligned = [line[at:].startswith(_fields(line)[1] + " ") for line in lines]
    assert sum(aligned) >= 0.98 * len(lines)


def test_a_terminal_gets_a_rich_table_only_when_it_fits() -> None:
    _terminal(height=40)
    long = ulcdb(Path("ulcdb.duckdb"), "list", "metrics").stdout
    short = ulcdb(Path("ulcdb.duckdb"), "list", "metrics", "BLEU*").stdout
    assert "┃" not in long and long.splitlines()[1].startswith("name ")
    assert "┃ name" in short and "│ BLEUi-4 " in short
    _terminal(height=3000)
    assert "│ MTR-stem " in ulcdb(Path("ulcdb.duckdb"), "list", "metrics").stdout


def test_machine_formats_are_unchanged() -> None:
    result = ulcdb(Path("ulcdb.duckdb"), "list", "sets", "-f", "tsv")
    first = next(csv.reader(io.StringIO(result.stdout), delimiter="\t"))
    assert first == ["origin", "testbed", "kind", "name", "size", "members"]


def test_plain_table_widths() -> None:
    """Each column as wide as its widest cell but for at most 1 in 50 longer ones; numbers
    as in rich tables (4 decimals), None empty, the last column unpadded."""
    rows = [("a", 0.5, None)] + [(f"n{i}", 1.0, "x") for i in range(98)] + [("long" * 5, 2, "y")]
    text = plain_table(["name", "value", "z"], rows, "t")
    lines = text.splitlines()
    assert lines[:4] == ["t", "name  value   z", "----  ------  -", "a     0.5000"]
    assert lines[-1] == "longlonglonglonglong  2       y"
    assert plain_table(["only"], [], "empty") == "empty\nonly\n----\n"


def test_negative_zero_shows_as_zero(tmp_path: Path) -> None:
    """WMT21 en-de's long TSV writes an error-free MQM as "-0.0": `ulcdb list criteria` gave
    its maximum as -0.0000.  A table cell shows 0.0000, as a CSV reader reads -0.0 == 0."""
    from tests.cli_helpers import sample_store

    db = sample_store(tmp_path / "s.duckdb")
    scores = tmp_path / "judged.tsv"
    scores.write_text("system\tseg_id\tmqm\nsysA\t1\t-0.0\nsysB\t1\t-1.5\n", encoding="utf-8")
    assert ulcdb(db, "ingest", "assessments", scores).exit_code == 0
    lines = ulcdb(db, "list", "criteria").stdout.splitlines()
    (row,) = [line.split() for line in lines if line.startswith("MQM")]
    assert row[-2:] == ["-1.5000", "0.0000"]
    assert common.cell_text(-0.0) == "0.0000" and common.cell_text(-0.0, 2) == "0.00"
