"""`ulcdb report`'s meta-evaluation shows the warnings `ulcdb meta` prints on stderr (a
coefficient left blank over too few items, bootstrap resamples in which it is undefined):
the page showed the blank cells and intervals without them (issue 25).  Sample test bed,
adequacy judgments of 4 systems; the count from NumPy's draws with meta's seed."""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np
from cli_helpers import run_all, sample_store, ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"


def test_report_shows_the_meta_warnings(tmp_path: Path) -> None:
    db = run_all(sample_store(tmp_path / "s.duckdb"),
                 ("ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c", "adequacy"))
    out = tmp_path / "r.html"
    result = ulcdb(db, "report", out, "-m", "BLEU", "-c", "adequacy")
    assert result.exit_code == 0, result.output
    draws = np.random.default_rng(1234).multinomial(4, [1 / 4] * 4, size=1000)
    one = int(((draws > 0).sum(axis=1) == 1).sum())
    assert one == 16
    page = html.unescape(out.read_text(encoding="utf-8"))
    assert ("warning: bootstrap: undefined in some of the 1000 resamples (too few distinct "
            f"systems or constant scores), intervals and --sig over the others: BLEU Pearson "
            f"{one}, BLEU Spearman {one}") in page


def test_report_computes_and_notes_only_its_coefficients(tmp_path: Path) -> None:
    """The page's meta table shows Pearson, Spearman and Kendall tau-b; meta's other default
    coefficients were computed too, and the header said "DARR left out: ... (give --coef
    darr_tau --threshold T)", options `ulcdb report` does not have (WMT21 en-de with MQM)."""
    db = run_all(sample_store(tmp_path / "s.duckdb"),
                 ("ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c", "adequacy"))
    out = tmp_path / "r.html"
    result = ulcdb(db, "report", out, "-m", "BLEU,chrF", "-c", "adequacy")
    assert result.exit_code == 0, result.output
    page = html.unescape(out.read_text(encoding="utf-8"))
    assert "meta-evaluation: seg level, adequacy" in page
    assert "DARR" not in page and "--coef" not in page
