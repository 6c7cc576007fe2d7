"""`ulcdb report` on the WMT21 ru-en sample: what the page says it was computed on, and a
test bed (or -s) of one system refused in one line in the report's words, nothing written
(it said 'compare needs at least two systems', a command the user had not run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import ulcdb


@pytest.fixture(scope="module")
def store(ruen_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("report") / "ruen.duckdb"
    refs = ruen_sample / "refs"
    result = ulcdb(db, "ingest", "testbed", "--name", "ruen", "--source",
                   ruen_sample / "source.ru.txt", "--docs", ruen_sample / "docs.tsv",
                   "--ref", f"ref-A={refs / 'ref-A.en.txt'}",
                   *(w for s in ("AFRL", "Online-B") for w in
                     ("--sys", f"{s}={ruen_sample / 'systems' / f'{s}.en.txt'}")))
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.parametrize(("args", "said"), [
    (["-t", "ruen", "-s", "AFRL"], "-s AFRL names one system (AFRL)"),
    (["-s", "Online-B"], "-s Online-B names one system (Online-B)"),
])
def test_one_system_is_refused_in_the_reports_words(store: Path, tmp_path: Path,
                                                    args: list[str], said: str) -> None:
    out = tmp_path / "one.html"
    result = ulcdb(store, "report", out, "-m", "BLEU", *args)
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: a report compares systems, and {said}: give "
                                     "two or more (`ulcdb score -t ruen` prints the scores "
                                     "of one)")
    assert not out.exists()


def test_a_test_bed_of_one_system(ruen_sample: Path, tmp_path: Path) -> None:
    db = tmp_path / "one.duckdb"
    made = ulcdb(db, "ingest", "testbed", "--name", "one", "--source",
                 ruen_sample / "source.ru.txt", "--ref",
                 f"ref-A={ruen_sample / 'refs' / 'ref-A.en.txt'}", "--sys",
                 f"AFRL={ruen_sample / 'systems' / 'AFRL.en.txt'}")
    assert made.exit_code == 0, made.output
    result = ulcdb(db, "report", tmp_path / "one.html", "-m", "BLEU")
    assert result.exit_code == 1
    assert "test bed 'one' has one system (AFRL): give two or more" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_page_says_what_it_was_computed_on(store: Path, tmp_path: Path) -> None:
    """The header named the test bed and references only: not its languages, its size, the
    systems or the metrics (past the command line, which has no -m by default)."""
    out = tmp_path / "ruen.html"
    result = ulcdb(store, "report", out, "-m", "BLEU,chrF")
    assert result.exit_code == 0, result.output
    line = re.search(r'<p class="made" id="computed">(.*?)</p>', out.read_text("utf-8"))
    assert line is not None
    assert re.sub("<[^>]+>", "", line.group(1)) == (
        "Computed on 64 segments in 8 documents of test bed ruen (ru-en): 2 systems against "
        "the references ref-A (variant case:mixed), metrics BLEU, chrF; each metric's "
        "signature is under signatures.")


def test_one_document_is_one(ruen_sample: Path, tmp_path: Path) -> None:
    """A test bed without documents (`ulcdb eval --save`'s) read '64 segments in 1
    documents'."""
    db = tmp_path / "eval.duckdb"
    saved = ulcdb(db, "eval", ruen_sample / "refs" / "ref-A.en.txt", "-i",
                  *(ruen_sample / "systems" / f"{s}.en.txt" for s in ("AFRL", "Online-B")),
                  "--save", db)
    assert saved.exit_code == 0, saved.output
    out = tmp_path / "eval.html"
    result = ulcdb(db, "report", out, "-m", "BLEU")
    assert result.exit_code == 0, result.output
    line = re.search(r'<p class="made" id="computed">(.*?)</p>', out.read_text("utf-8"))
    assert line is not None
    assert line.group(1).startswith("Computed on 64 segments in 1 document of test bed eval:")


def test_a_criterion_the_test_bed_has_not_is_refused_first(store: Path, tmp_path: Path) -> None:
    """-c naming no criterion of the test bed wrote the whole page (exit 0), its
    meta-evaluation a line saying so; it is refused before anything is computed, as -m and
    -b are."""
    out = tmp_path / "da.html"
    result = ulcdb(store, "report", out, "-m", "BLEU", "-c", "DA")
    assert result.exit_code == 1
    assert result.output == ("Error: no human assessments with criterion 'DA' in 'ruen' "
                             "(have: none)\n")
    assert not out.exists()
