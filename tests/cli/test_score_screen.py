"""`ulcdb score` on a terminal prints its system table within sight (issue 28): segment and
document tables taller than the terminal are left out with a one-line note saying how many
rows and how to get them (--full); piped output and -f csv/tsv/json keep every row."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from rich.console import Console

import ulcdb.cli.common as common
from tests.cli_helpers import ulcdb as cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")
SEGMENTS = len((SAMPLE / "plain" / "source.es.txt").read_text(encoding="utf-8").splitlines())
DOCS = len({line.split("\t")[1] for line in
            (SAMPLE / "plain" / "docs.tsv").read_text(encoding="utf-8").splitlines()[1:]})
NOTE = "not shown, longer than the terminal"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("screen") / "sample.duckdb"
    result = cli(path, "demo", SAMPLE, "-m", "BLEU,chrF")
    assert result.exit_code == 0, result.output
    return path


def _score(db: Path, *args: str, height: int | None = None) -> str:
    """stdout of `score -m BLEU,chrF ARGS`, on a terminal of ``height`` lines (piped if
    None)."""
    if height is not None:
        common.console = Console(force_terminal=True, height=height, width=120, markup=False,
                                 color_system=None)
    result = cli(db, "score", "-m", "BLEU,chrF", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(autouse=True)
def _restore_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "console", common.console)
    monkeypatch.setenv("TERM", "xterm-256color")


def test_a_short_terminal_sees_the_system_table_and_a_note(db: Path) -> None:
    """40 lines: the 48-row segment table is left out, the document table (12 rows) and the
    system table printed, system last, then the note naming the rows left out."""
    out = _score(db, "-G", "all", height=40)
    assert SEGMENTS * len(SYSTEMS) == 48 and DOCS * len(SYSTEMS) == 12
    assert "seg level" not in out.split(NOTE)[0] and "sysA:12 " not in out
    assert out.index("doc level") < out.index("sys level") < out.index(NOTE)
    note = out.strip().splitlines()[-1]
    assert note == (f"{NOTE}: seg level (48 rows); --full prints them, -f tsv > scores.tsv "
                    "writes every level")
    assert all(f"│ {s} " in out for s in SYSTEMS)


def test_full_prints_every_table_and_piped_output_is_whole(db: Path) -> None:
    full = _score(db, "-G", "all", "--full", height=40)
    common.console = Console(width=200, markup=False)  # as when piped
    piped = _score(db, "-G", "all")
    for out in (full, piped):
        assert NOTE not in out
        assert all(f"{level} level" in out for level in ("seg", "doc", "sys"))
        assert all(f"│ {s}:{n} " in out for s in SYSTEMS for n in range(1, SEGMENTS + 1))


def test_a_tall_terminal_shows_everything(db: Path) -> None:
    out = _score(db, "-G", "all", height=200)
    assert NOTE not in out and "seg level" in out


def test_the_system_table_is_never_left_out(db: Path) -> None:
    out = _score(db, "-G", "sys", height=5)
    assert NOTE not in out and all(f"│ {s} " in out for s in SYSTEMS)


def test_rankings_are_left_out_the_same_way(db: Path) -> None:
    out = _score(db, "-G", "seg", "-f", "rankings", height=40)
    assert "sysA:1 " not in out and out.strip().endswith("writes every level")
    assert "seg level (48 rows)" in out


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json"])
def test_machine_formats_keep_every_row_on_a_terminal(db: Path, fmt: str) -> None:
    out = _score(db, "-G", "all", "-f", fmt, height=10)
    assert NOTE not in out
    if fmt == "json":
        assert out.count('"level":') == 48 + 12 + 4
    else:
        rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert len(rows) == 1 + 48 + 12 + 4
