"""System-level judgments ingested for some systems only: `ulcdb meta` reads the ingested
ones (the rule of meta_human) and drops the other systems; it said "no MQM judgment at sys
level" of systems whose segments are all judged.  The reason now says so and how to use them
(issue 25); and the bootstrap resamples in which a coefficient is undefined are counted.
WMT21 en-de sample; expected numbers from plain SQL on the store, scipy and NumPy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scipy.stats

from tests.cli_helpers import ulcdb
from tests.meta.test_meta_honest import _ok, _sql

THREE = {"Facebook-AI": -1.5, "Online-W": -0.5, "UEdin": -2.25}  # made-up system scores


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("partial_human")
    db = tmp / "ende.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", ende_sample / "segments_long.tsv", "--name", "ende"))
    _ok(ulcdb(db, "score", "-m", "BLEU", "-r", "ref-A", "-f", "csv", "-j", "1"))
    sys_file = tmp / "mqm_sys.tsv"
    sys_file.write_text("system\tmqm\n" + "".join(f"{s}\t{v}\n" for s, v in THREE.items()))
    _ok(ulcdb(db, "ingest", "assessments", sys_file, "--format", "table", "--level", "sys",
              "--map", "system=system", "--map", "score=mqm", "-c", "MQM"))
    return db


def test_systems_judged_by_segment_only_are_dropped_with_the_way_to_keep_them(ende: Path
                                                                             ) -> None:
    out = json.loads(_ok(ulcdb(ende, "meta", "-c", "MQM", "-m", "BLEU", "-r", "ref-A", "-B",
                               "0", "-f", "json")))
    run = out["run"]
    assert run["targets"] == sorted(THREE)
    by_segment = sorted({r[0] for r in _sql(ende, "select translator from assessments where "
                                             "criterion = 'MQM' and level = 'seg' and role = "
                                             "'system'")} - set(THREE))
    assert len(by_segment) == 5
    why = ("no ingested MQM judgment at sys level (judged at seg level: --human derived "
           "averages those)")
    assert {t: run["dropped_targets"][t] for t in by_segment} == dict.fromkeys(by_segment, why)
    assert f"dropped, {why}: {', '.join(by_segment)}" in run["summary"]
    unjudged = [t for t, w in run["dropped_targets"].items() if t not in by_segment]
    assert len(unjudged) == 12
    assert {run["dropped_targets"][t] for t in unjudged} == {"no MQM judgment at sys level"}
    bleu = dict(_sql(ende, "select translator, value from scores where metric = 'BLEU' and "
                     "level = 'sys' and refset = 'ref-A'"))
    names = sorted(THREE)
    assert out["results"][0]["pearson"] == pytest.approx(scipy.stats.pearsonr(
        [THREE[s] for s in names], [bleu[s] for s in names])[0], abs=1e-12)
    derived = json.loads(_ok(ulcdb(ende, "meta", "-c", "MQM", "-m", "BLEU", "-r", "ref-A",
                                   "-B", "0", "--human", "derived", "-f", "json")))
    assert derived["run"]["targets"] == sorted([*THREE, *by_segment])


def test_resamples_where_a_coefficient_is_undefined_are_counted(ende: Path) -> None:
    """Three systems, 200 resamples of systems: a resample drawing one system three times
    leaves Pearson undefined; the interval and --sig rest on the others, and the header
    says how many (counted here from NumPy's draws with the same seed)."""
    import numpy as np

    out = json.loads(_ok(ulcdb(ende, "meta", "-c", "MQM", "-m", "BLEU", "-r", "ref-A", "-s",
                               ",".join(THREE), "--coef", "pearson", "-B", "200", "-f",
                               "json")))
    draws = np.random.default_rng(1234).multinomial(3, [1 / 3] * 3, size=200)
    one_system = int(((draws > 0).sum(axis=1) == 1).sum())
    assert one_system == 27
    assert ("warning: bootstrap: undefined in some of the 200 resamples (too few distinct "
            f"systems or constant scores), intervals and --sig over the others: BLEU Pearson "
            f"{one_system}") in out["run"]["warnings"]
