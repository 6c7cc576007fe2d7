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
from tests.cli_helpers import copy_store
from tests.cli_helpers import ulcdb as cli
from ulcdb.cli import screen
from ulcdb.scoring.report import Matrix

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")
SEGMENTS = len((SAMPLE / "plain" / "source.es.txt").read_text(encoding="utf-8").splitlines())
DOCS = len({line.split("\t")[1] for line in
            (SAMPLE / "plain" / "docs.tsv").read_text(encoding="utf-8").splitlines()[1:]})
NOTE = "not shown, to fit the terminal"


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
                    "writes everything")
    assert all(f"│ {s} " in out for s in SYSTEMS)


def test_full_prints_every_table_and_piped_output_is_whole(db: Path) -> None:
    full = _score(db, "-G", "all", "--full", height=40)
    common.console = Console(width=200, markup=False)  # as when piped
    piped = _score(db, "-G", "all")
    for out in (full, piped):
        assert NOTE not in out
        assert all(f"{level} level" in out for level in ("seg", "doc", "sys"))
        assert all(f"│ {s}:{n} " in out for s in SYSTEMS for n in range(1, SEGMENTS + 1))


def test_piped_long_tables_are_plain_lines(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped, a table longer than PLAIN_ROWS is plain aligned columns, a row a line with every
    metric (rich drew WMT21 en-de's 20,040 LEX segment rows in a minute and a half); shorter
    ones stay rich tables.  The values are those of -f csv, at 4 decimals."""
    import ulcdb.cli.score as score_cli

    monkeypatch.setattr(score_cli, "PLAIN_ROWS", 20, raising=False)  # the 48 segment rows
    common.console = Console(width=200, markup=False)  # as when piped
    out = _score(db, "-G", "all")
    lines = out.splitlines()
    title = lines.index("seg level, against ref-A+ref-B+ref-C, variant case:mixed (ULC: asiya)")
    assert lines[title + 1].split() == ["SEG", "BLEU", "chrF", "ULC"]
    assert set(lines[title + 2].replace(" ", "")) == {"-"}
    shown = {line.split()[0]: line.split()[1:] for line in lines[title + 3:title + 3 + 48]}
    rows = list(csv.DictReader(io.StringIO(_score(db, "-G", "seg", "-f", "csv"))))
    assert len(rows) == 48 and len(shown) == 48
    for row in rows:
        assert shown[f"{row['translator']}:{row['unit']}"] == [
            f"{float(row[m]):.4f}" for m in ("BLEU", "chrF", "ULC")]
    assert "│ sysA:madrid-metro " in out and "│ sysA " in out  # 12 and 4 rows: rich


def test_a_tall_terminal_shows_everything(db: Path) -> None:
    out = _score(db, "-G", "all", height=200)
    assert NOTE not in out and "seg level" in out


def test_the_system_table_is_never_left_out(db: Path) -> None:
    out = _score(db, "-G", "sys", height=5)
    assert NOTE not in out and all(f"│ {s} " in out for s in SYSTEMS)


def test_rankings_are_left_out_the_same_way(db: Path) -> None:
    out = _score(db, "-G", "seg", "-f", "rankings", height=40)
    assert "sysA:1 " not in out and out.strip().endswith("writes everything")
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


WIDE = "metrics_BLEU,metrics_NIST,chrF,chrF++"  # 18 metric columns and ULC


@pytest.fixture(scope="module")
def wide(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample store with the BLEU and NIST families and chrF scored."""
    path = copy_store(db, tmp_path_factory.mktemp("wide"))
    result = cli(path, "score", "-m", WIDE)
    assert result.exit_code == 0, result.output
    return path


def _header(out: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith("┃ SYS"))
    return [c.strip() for c in line.strip("┃").split("┃")]


def test_a_wide_set_fits_the_terminal_width(wide: Path) -> None:
    """One table as wide as the terminal at most: ULC (last, as it ranks), ULC's default set
    (BLEU-4, NIST-5), the family with none of those (chrF), then one more of each family in
    turn; the note counts and names the columns left out; every system still shown."""
    common.console = Console(force_terminal=True, height=40, width=80, markup=False,
                             color_system=None)
    result = cli(wide, "score", "-m", WIDE)
    out = result.stdout
    assert out.count("sys level") == 1
    assert max(len(line) for line in out.splitlines() if line[:1] in "┏┃┡│└") <= 80
    assert _header(out) == ["SYS", "BLEU-1", "BLEU-2", "BLEU-4", "NIST-1", "NIST-5", "chrF",
                            "chrF++", "ULC"]
    assert all(f"│ {s} " in out for s in SYSTEMS)
    note = out.strip().splitlines()[-1]
    assert note.startswith(f"{NOTE}: 11 metric columns (BLEU-3, BLEUi-2, BLEUi-3, BLEUi-4, "
                           "NIST-2, NIST-3 and 5 more); --full prints them")
    sorted_by = _header(_score_wide(wide, "--sort", "NISTi-3", width=80))
    assert "NISTi-3" in sorted_by and sorted_by[-1] == "ULC"


def _score_wide(db: Path, *args: str, width: int) -> str:
    common.console = Console(force_terminal=True, height=40, width=width, markup=False,
                             color_system=None)
    result = cli(db, "score", "-m", WIDE, *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_column_piped_with_full_and_in_tsv(wide: Path) -> None:
    full = _score_wide(wide, "--full", width=80)
    tsv = _score_wide(wide, "-f", "tsv", width=80)
    common.console = Console(width=200, markup=False)  # as when piped
    piped = cli(wide, "score", "-m", WIDE).stdout
    for out in (full, piped):  # as before: tables of at most 12 metrics
        assert NOTE not in out and out.count("sys level") == 2
        headers = [c for line in out.splitlines() if line.startswith("┃ SYS")
                   for c in _header(line)[1:]]
        assert len(headers) == 19 and headers[-1] == "ULC"
    assert len(next(csv.reader(io.StringIO(tsv), delimiter="\t"))) == 5 + 19


def _matrix(systems: int) -> Matrix:
    rows = [(f"system{i:02}", "", [0.5 - i / 100, 20.0 - i / 10, 1.0 - i / 50])
            for i in range(systems)]
    return Matrix("sys", "ref-A", ["BLEU", "NIST", "ULC"], rows, "case:mixed",
                  {"BLEU|nrefs:1": ["BLEU"], "NIST|nrefs:1": ["NIST"]})


def test_a_short_terminal_keeps_the_best_rows() -> None:
    """30 systems on a 20-line terminal 100 wide: the frame takes 7 lines (title, 4 of
    borders and header, 2 signatures), 5 are kept free (the summary line printed above, the
    note of 114 characters, the prompt): 9 rows, the best."""
    matrix = _matrix(30)
    fitted = screen.fit([matrix], (100, 20), "table", "sys level", {"ULC"}, {}, 4,
                        above=["computed nothing new"])
    (shown,) = fitted.shown
    assert [t for t, _, _ in shown.rows] == [f"system{i:02}" for i in range(9)]
    assert fitted.note() == (f"{NOTE}: system rows 10-30 of 30; --full prints them, "
                             "-f tsv > scores.tsv writes everything")
    tiny = screen.fit([matrix], (100, 6), "table", "sys level", {"ULC"}, {}, 4)
    assert len(tiny.shown[0].rows) == screen.MIN_ROWS
    assert screen.fit([_matrix(10)], (100, 20), "table", "t", {"ULC"}, {}, 4).note() is None


def test_columns_by_priority_shown_in_their_order() -> None:
    """A rich table is 1 + the sum of (widest cell + 3): SYS column 8 (system00) + 3, ULC 9,
    BLEU 9, NIST 10 (20.0000): 39 columns fit ULC and BLEU only (both in ULC's default set,
    BLEU first), with NIST's signature dropped; 40 fit all."""
    matrix = _matrix(3)
    fitted = screen.fit([matrix], (39, 40), "table", "t", {"ULC"}, {}, 4)
    assert fitted.shown[0].metrics == ["BLEU", "ULC"] and fitted.columns == ["NIST"]
    assert fitted.shown[0].signatures == {"BLEU|nrefs:1": ["BLEU"]}
    assert screen.fit([matrix], (40, 40), "table", "t", {"ULC"}, {}, 4).columns == []
    common.console = Console(width=200, record=True, markup=False)  # the rule, checked
    common.render(["SYS", *matrix.metrics], [(t, *v) for t, _, v in matrix.rows])
    assert {len(line) for line in common.console.export_text().splitlines()[1:]} == {40}
    families = {"BLEU-1": "BLEU", "BLEU-4": "BLEU", "NIST-1": "NIST", "NIST-5": "NIST",
                "chrF": "chrF", "chrF++": "chrF", "GTM-1": "GTM", "GTM-3": "GTM"}
    assert screen.priority(["BLEU-1", "BLEU-4", "NIST-1", "NIST-5", "GTM-1", "GTM-3", "chrF",
                            "chrF++", "ULC"], {"ULC"}, families) == [
        "ULC", "BLEU-4", "NIST-5", "GTM-1", "chrF", "BLEU-1", "NIST-1", "GTM-3", "chrF++"]
