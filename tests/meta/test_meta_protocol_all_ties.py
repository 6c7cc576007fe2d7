"""acc-t at the all-ties baseline is said (walkthrough).

On WMT21 en-de with MQM, `ulcdb meta protocol wmt24` gave every lexical metric an acc-t of
about 0.4657 (BLEU at epsilon 0.87).  That is right: mt-metrics-eval's own
``stats.KendallWithTiesOpt`` (tasks.WMT24: acc23, average_by='item', sample_rate 1.0) gives
the same values and epsilons bit for bit on the same scores and the published MQM file
(BLEU 0.4657088641908385 at 0.8727453069989857, -TER 0.4661154784494441 at 0.6, chrF
0.4657088641908381 at 0.5588349316548623; checked with the fetched source, not installed).
0.4657 is the mean share of pairs of systems MQM ties on a segment: what acc-t gives a metric
that calls every pair a tie (epsilon above every difference).  The header now says so, naming
the metrics that do no better and that baseline's value.
"""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import ulcdb as ulcdb_api
from tests.cli_helpers import ingest_ende, ulcdb
from ulcdb.meta.protocol import Bed, Column, ProtocolReport, Settings, run_column
from ulcdb.meta.protocol_report import all_ties_lines

ACC_T = Column("seg_acc_t", "seg acc-t", "acc_t", "seg", ("tb",))
# 3 systems x 4 segments; segment 1 ties all three, segments 2 and 4 tie one pair of three,
# segment 3 none: tied shares 1, 1/3, 0, 1/3, mean 5/12
HUMAN = np.array([[0.0, -1.0, -5.0, 0.0],
                  [0.0, -1.0, -2.0, -3.0],
                  [0.0, -4.0, -1.0, 0.0]])


def _column(metrics: dict[tuple[str, str], np.ndarray]) -> ProtocolReport:
    bed = Bed("tb", "seg", ["s1", "s2", "s3"], ["1", "2", "3", "4"], HUMAN, metrics,
              HUMAN.size, "ingested")
    settings = Settings("wmt24", k=0)
    result = run_column(ACC_T, {("tb", "seg"): bed}, sorted(metrics), settings)
    return ProtocolReport(settings, "MQM", [], {("tb", "seg"): bed}, [result], result.order)


def test_a_metric_that_ties_every_pair_scores_the_share_of_human_ties() -> None:
    flat = np.array([[0.5, 0.2, 0.9, 0.1]] * 3)  # one value per segment: every pair tied
    ordered = HUMAN + 10.0  # the human order itself: better than all ties
    report = _column({("FLAT", "v"): flat, ("GOOD", "v"): ordered})
    (result,) = report.results
    assert result.values[("FLAT", "v")] == pytest.approx(5 / 12, abs=1e-15)
    assert result.all_ties == {("FLAT", "v"): pytest.approx(5 / 12, abs=1e-15),
                               ("GOOD", "v"): pytest.approx(5 / 12, abs=1e-15)}
    assert result.values[("GOOD", "v")] == 1.0
    assert result.at_all_ties() == [("FLAT", "v")]
    assert all_ties_lines(report) == [
        "seg acc-t of FLAT = 0.4167, the all-ties baseline: a metric that calls every pair of "
        "translations of a segment a tie scores it, as MQM ties 41.7% of those pairs (mean "
        "over segments); no better than predicting ties"]


def test_no_line_when_every_metric_beats_the_baseline() -> None:
    report = _column({("GOOD", "v"): HUMAN + 10.0, ("NEAR", "v"): HUMAN * 2.0})
    assert report.results[0].at_all_ties() == [] and all_ties_lines(report) == []


def _tied_share(mqm: Path, systems: set[str]) -> float:
    """The mean over segments of the share of pairs of ``systems`` whose MQM is equal, from
    the test bed's MQM file (-0.0 is 0.0)."""
    by_seg: dict[str, list[float]] = {}
    with mqm.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["system"] in systems:
                by_seg.setdefault(row["seg_id"], []).append(float(row["mqm_avg_score"]))
    shares = [np.mean([a == b for a, b in itertools.combinations(v, 2)])
              for v in by_seg.values()]
    return float(np.mean(shares))


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = ingest_ende(tmp_path_factory.mktemp("all_ties") / "ende.duckdb", ende_sample)
    result = ulcdb(db, "score", "-m", "BLEU,chrF,1-TER", "-r", "ref-A", "-G", "seg", "-f", "csv")
    assert result.exit_code == 0, result.output
    return db


def test_wmt21_ende_sample_says_bleu_is_at_the_all_ties_baseline(ende: Path,
                                                                 ende_sample: Path) -> None:
    args = ("meta", "protocol", "wmt24", "-c", "MQM", "-r", "ref-A", "-m", "BLEU,chrF,1-TER",
            "-B", "0")
    out = json.loads(ulcdb(ende, *args, "-f", "json").stdout)
    rows = {r["metric"]: r for r in out["results"]}
    systems = set(out["run"]["testbeds"]["ende"]["seg"]["systems"])
    share = _tied_share(ende_sample / "human" / "mqm_seg.tsv", systems)
    assert share == pytest.approx(0.4947, abs=1e-4)
    assert rows["BLEU"]["seg_acc_t"] == pytest.approx(share, abs=1e-12)
    assert rows["chrF"]["seg_acc_t"] > share + 1e-4 and rows["1-TER"]["seg_acc_t"] > share
    line = (f"seg acc-t of BLEU = {share:.4f}, the all-ties baseline: a metric that calls "
            "every pair of translations of a segment a tie scores it, as MQM ties "
            f"{share:.1%} of those pairs (mean over segments); no better than predicting ties")
    assert out["run"]["summary"][-1] == line
    table = ulcdb(ende, *args).stdout
    assert line in table.splitlines()
    with pytest.warns(ulcdb_api.UlcdbNote, match="the all-ties baseline"):
        with ulcdb_api.open(ende, read_only=True) as db:
            db.meta_protocol("wmt24", "MQM", refs="ref-A", metrics="BLEU,chrF,1-TER",
                             n_resamples=0)
