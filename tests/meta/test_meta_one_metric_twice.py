"""Scoring LEX stores BLEU and BLEU-4, NIST and NIST-5, -PER and 1-PER (one metric under two
names, or up to a constant), and `ulcdb meta` after it printed them all as if they were
different metrics (WMT21 en-de: 32 rows, 5 repeating others).  The header now names them.
The sample with DA; the equal coefficients checked in the JSON, the scores in the store."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from tests.cli_helpers import sample_judged, ulcdb

NOTE = ("one metric under two names (the same scores up to a constant, so the same "
        "coefficients): -PER = 1-PER; BLEU = BLEU-4")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_judged(tmp_path_factory.mktemp("twice") / "s.duckdb",
                         "-m", "BLEU,BLEU-4,1-PER,-PER,chrF", "-G", "all", "-f", "csv")


@pytest.mark.parametrize("level", ["seg", "sys"])
def test_the_twins_are_named(store: Path, level: str) -> None:
    result = ulcdb(store, "meta", "-c", "DA-raw", "-G", level, "-m",
                   "BLEU,BLEU-4,1-PER,-PER,chrF", "--coef", "pearson,kendall_tau_b", "-B", "0",
                   "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert NOTE in out["run"]["summary"]
    rows = {r["metric"]: r for r in out["results"]}
    for a, b in (("BLEU", "BLEU-4"), ("-PER", "1-PER")):
        assert rows[a]["pearson"] == pytest.approx(rows[b]["pearson"], abs=1e-12)
        assert rows[a]["kendall_tau_b"] == pytest.approx(rows[b]["kendall_tau_b"], abs=1e-12)
    con = duckdb.connect(str(store), read_only=True)
    try:
        shift = con.execute(
            "select min(a.value - b.value), max(a.value - b.value) from scores a join scores b "
            "on a.translator = b.translator and a.refset = b.refset and a.variant = b.variant "
            "and a.level = b.level and a.seg_id is not distinct from b.seg_id and a.doc_id is "
            "not distinct from b.doc_id where a.metric = '1-PER' and b.metric = '-PER' and "
            "a.level = ?", [level]).fetchone()
    finally:
        con.close()
    assert shift == pytest.approx((1.0, 1.0))


def test_different_metrics_are_not_named(store: Path) -> None:
    result = ulcdb(store, "meta", "-c", "DA-raw", "-m", "BLEU,chrF", "-B", "0", "-f", "json")
    assert result.exit_code == 0, result.output
    assert not any(line.startswith("one metric under two names")
                   for line in json.loads(result.stdout)["run"]["summary"])
