"""A table's title is read in one piece: rich folds a title into the width of its table, so
`ulcdb king -m BLEU,chrF` printed "KING of {BLEU, / chrF}, seg level, / references ..." over
five lines above a two-column table.  A title wider than its table is a line of its own;
one that fits stays centred over it."""

from __future__ import annotations

import pytest
from rich.console import Console

import ulcdb.cli.common as common
from ulcdb.cli.common import render


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Console:
    console = Console(width=80, record=True, markup=False, color_system=None)
    monkeypatch.setattr(common, "console", console)
    return console


def test_a_title_wider_than_its_table_is_one_line_above_it(screen: Console) -> None:
    title = "KING of {BLEU, chrF}, seg level, references ref-A+ref-B, variant case:mixed"
    render(["measure", "KING"], [("BLEU", 0.19), ("ULC", 0.1835)], title=title)
    lines = screen.export_text().splitlines()
    assert lines[0] == title
    assert lines[1].startswith("┏") and lines[2] == "┃ measure ┃ KING   ┃"
    assert "│ BLEU    │ 0.1900 │" in lines


def test_a_title_that_fits_stays_centred_over_the_table(screen: Console) -> None:
    render(["system", "BLEU", "chrF", "TER"], [("sysA", 0.5, 0.6, 0.7)], title="sys level")
    lines = screen.export_text().splitlines()
    width = len(lines[1])
    assert lines[0].strip() == "sys level" and lines[0].startswith(" ")
    assert abs(len(lines[0].rstrip()) - (width + len("sys level")) / 2) <= 1
