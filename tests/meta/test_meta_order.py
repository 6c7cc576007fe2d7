"""`ulcdb meta` ranks the metrics as mt-metrics-eval and the WMT results tables do: best first
by the first coefficient shown, ties in name order; `--sort COEF` ranks by another and
`--sort name` lists them by name (the order every table had before).  Decided in
``MetaReport.ordered``, so every format and ``Database.meta`` agree.  The sample with DA at
system level: Pearson BLEU 0.9938 > 1-TER 0.9887 > chrF 0.9746 > NIST 0.8201; tau-b 1.0 for
all but NIST (0.6667)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import ulcdb as ulcdb_api
from tests.cli_helpers import sample_judged, ulcdb

METRICS = "BLEU,chrF,1-TER,NIST"
ARGS = ("meta", "-c", "DA-raw", "-m", METRICS, "--coef", "pearson,kendall_tau_b", "-B", "0")
BY_PEARSON = ["BLEU", "1-TER", "chrF", "NIST"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_judged(tmp_path_factory.mktemp("order") / "s.duckdb", "-m", METRICS,
                         "-f", "csv")


def _order(store: Path, *extra: str) -> dict[str, list[str]]:
    """The metrics' order in the table, the CSV, the JSON and the LaTeX of `ulcdb meta`."""
    out: dict[str, list[str]] = {}
    for fmt in ("table", "csv", "json", "latex"):
        result = ulcdb(store, *ARGS, *extra, "-f", fmt)
        assert result.exit_code == 0, result.output
        text = result.stdout
        if fmt == "table":
            out[fmt] = [line.split("│")[1].strip() for line in text.splitlines()
                        if line.startswith("│")]
        elif fmt == "csv":
            out[fmt] = [r["metric"] for r in csv.DictReader(io.StringIO(text))]
        elif fmt == "json":
            out[fmt] = [r["metric"] for r in json.loads(text)["results"]]
        else:
            out[fmt] = [line.split(" & ")[0] for line in text.splitlines() if " & 4 & " in line]
    return out


def test_rows_rank_best_first_by_the_first_coefficient(store: Path) -> None:
    order = _order(store)
    assert order == dict.fromkeys(("table", "csv", "json", "latex"), BY_PEARSON)
    values = [r["pearson"] for r in json.loads(ulcdb(store, *ARGS, "-f", "json").stdout)
              ["results"]]
    assert values == sorted(values, reverse=True) and values[0] == pytest.approx(0.9938,
                                                                                abs=1e-4)
    with ulcdb_api.open(store, read_only=True) as db:
        api = db.meta("DA-raw", metrics=METRICS, coefficients="pearson,kendall_tau_b",
                      n_resamples=0)
    assert api.column("metric").to_pylist() == BY_PEARSON


def test_sort_ranks_by_another_coefficient_ties_in_name_order(store: Path) -> None:
    # tau-b is 1.0 for BLEU, 1-TER and chrF: they stay in name order, NIST (0.6667) last
    assert set(map(tuple, _order(store, "--sort", "kendall_tau_b").values())) == {
        ("1-TER", "BLEU", "chrF", "NIST")}


def test_sort_name_lists_by_name(store: Path) -> None:
    assert set(map(tuple, _order(store, "--sort", "name").values())) == {
        ("1-TER", "BLEU", "NIST", "chrF")}
    with ulcdb_api.open(store, read_only=True) as db:
        api = db.meta("DA-raw", metrics=METRICS, n_resamples=0, sort="name")
    assert api.column("metric").to_pylist() == ["1-TER", "BLEU", "NIST", "chrF"]


def test_sort_refuses_what_is_neither_a_coefficient_nor_name(store: Path) -> None:
    result = ulcdb(store, *ARGS, "--sort", "spearman")
    assert result.exit_code == 1
    assert ("--sort 'spearman' is not among the coefficients (pearson, kendall_tau_b) nor "
            "'name'") in result.output


def test_sig_with_sort_name_tests_the_first_coefficient(store: Path) -> None:
    out = json.loads(ulcdb(store, *ARGS, "--sort", "name", "-B", "50", "--sig",
                           "paired-bootstrap", "-f", "json").stdout)
    assert {r["coefficient"] for r in out["significance"]} == {"pearson"}
    assert out["significance"][0]["better"] == "BLEU"
