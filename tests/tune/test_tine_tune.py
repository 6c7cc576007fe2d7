"""`ulcdb tune TINE` (issue 13): the paper's genetic algorithm finds a known optimum, is
seeded, and the tuned metric is stored under its own name and signature, correlates as scipy
says, and is flagged when evaluated on the test bed it was tuned on."""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store
from ulcdb.tune.tine import combined, genetic_search

SHARED = Path(os.environ.get("ULCDB_SHARED", Path(__file__).resolve().parents[3] / "shared"))
VERBNET = SHARED / "resources" / "verbnet3.zip"


def test_ga_finds_a_known_optimum_and_is_seeded() -> None:
    def fitness(a: float, b: float) -> float:
        return -((a - 0.3) ** 2) - (b - 0.7) ** 2

    best = genetic_search(fitness, seed=7)
    assert abs(best.alpha - 0.3) < 0.05 and abs(best.beta - 0.7) < 0.05
    assert best.fitness == pytest.approx(fitness(best.alpha, best.beta))
    assert genetic_search(fitness, seed=7) == best
    assert genetic_search(fitness, seed=8) != best


def test_undefined_fitness_everywhere_is_an_error() -> None:
    with pytest.raises(Exception, match="no \\(alpha, beta\\)"):
        genetic_search(lambda a, b: math.nan, seed=1, individuals=4, generations=2)


def test_combined_is_the_max_over_references_of_the_weighted_mean() -> None:
    lex = np.array([[0.5, 0.9], [0.2, np.nan]])
    ade = np.array([[1.0, 0.0], [0.4, np.nan]])
    # (0.5 + 0.25)/1.25 = 0.6 vs 0.9/1.25 = 0.72; (0.2 + 0.1)/1.25 = 0.24
    assert combined(lex, ade, 1, 0.25) == pytest.approx([0.72, 0.24])
    assert combined(lex, ade, 2, 0.5) == pytest.approx([0.72, 0.24])  # only the ratio counts
    assert np.isnan(combined(lex, ade, 0, 0)).all()


@pytest.mark.skipif(not VERBNET.is_file(), reason=f"no {VERBNET}")
def test_tune_on_the_ruen_sample(shared: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from ulcdb.metrics import tine_resources

    monkeypatch.delenv("ULCDB_VERBNET", raising=False)  # --verbnet names it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tine_resources.verbnet.cache_clear()
    bed = shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"
    db = tmp_path / "t.duckdb"
    result = ulcdb(db, "ingest", "testbed", bed / "segments_long.tsv", "--name", "ruen",
                   "--src-lang", "ru", "--tgt-lang", "en")
    assert result.exit_code == 0, result.output
    result = ulcdb(db, "tune", "TINE", "-c", "DA-raw", "-G", "sys", "-j", "1", "-f", "csv",
                   "--verbnet", VERBNET)
    assert result.exit_code == 0, result.output
    row = next(csv.reader(io.StringIO(result.stdout.strip().splitlines()[-1])))
    name, alpha, beta, tau = row[0], float(row[1]), float(row[2]), float(row[3])
    assert name == f"TINE[alpha={alpha:.2f},beta={beta:.2f}]"
    with Store(db, read_only=True) as store:
        sig = store.scalar("select distinct signature from scores s join score_batch b "
                           "using (batch_id) where metric = ?", [name])
        tuned = dict(store.query("select translator, value from scores where metric = ? and "
                                 "level = 'sys' and refset = 'ref-A+ref-B'", [name]))
        seg = store.query(
            "select translator, seg_id, refset, metric, value from scores where level = 'seg' "
            "and metric in ('TINE-L', 'TINE-A') and refset in ('ref-A', 'ref-B')")
        human = dict(store.query("select translator, avg(value) from assessments where "
                                 "criterion = 'DA-raw' and level = 'seg' group by translator"))
    assert "tuned-on:ruen" in sig and "seed:1234" in sig and "criterion:DA-raw" in sig
    # the system score by hand: mean over segments of the max over references
    parts: dict[tuple, dict] = {}
    for t, s, r, m, v in seg:
        parts.setdefault((t, s), {}).setdefault(r, {})[m] = v
    for system, value in tuned.items():
        per = [max((alpha * p["TINE-L"] + beta * p["TINE-A"]) / (alpha + beta)
                   for p in refs.values()) for (t, _), refs in parts.items() if t == system]
        assert value == pytest.approx(sum(per) / len(per))
    systems = sorted(tuned)
    assert tau == pytest.approx(kendalltau([human[s] for s in systems],
                                           [tuned[s] for s in systems]).statistic, abs=1e-4)
    default = {s: np.mean([max((p["TINE-L"] + 0.25 * p["TINE-A"]) / 1.25
                               for p in refs.values())
                           for (t, _), refs in parts.items() if t == s]) for s in systems}
    assert tau >= kendalltau([human[s] for s in systems],
                             [default[s] for s in systems]).statistic - 1e-9
    result = ulcdb(db, "meta", "-c", "DA-raw", "-G", "sys", "-m", name, "-B", "0")
    assert result.exit_code == 0, result.output
    assert f"{name} was tuned on 'ruen' itself" in result.stderr
    result = ulcdb(db, "meta", "--protocol", "wmt24", "-c", "DA-raw", "-m", name)
    assert result.exit_code == 0, result.output
    assert f"{name} was tuned on 'ruen' itself" in result.stderr


def test_only_tine_is_tunable(tmp_path: Path) -> None:
    result = ulcdb(tmp_path / "none.duckdb", "tune", "BLEU", "-c", "DA")
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: cannot tune 'BLEU': tunable metrics are TINE"
