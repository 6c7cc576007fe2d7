"""METEOR in Meteor 1.5's other languages (issue 11 section 2).

Expected values: Meteor 1.5 built from its published source (cmu-mtlab/meteor, javac, the
jar's resources), run as ``java Meteor SYS ref-A.de.txt -l de -m "exact"`` and ``-m "exact
stem"`` on the shared en-de sample.  All 342 segment and system values of the three systems
below agree to the last digit; a few are pinned here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.meteor import MeteorFamily
from ulcdb.metrics.meteor.lang import meteor_language
from ulcdb.store.database import Store

JAR = {  # (system, variant): (segment 1, segment 34, system)
    ("UEdin", "MTR-exact"): (0.5943123750277715, 0.35509138381201044, 0.4094409646778254),
    ("UEdin", "MTR-stem"): (0.7493779160186627, 0.3991644908616188, 0.42531943466068306),
    ("Online-W", "MTR-exact"): (0.5943123750277715, 0.28157894736842104, 0.4101335839916126),
    ("Online-W", "MTR-stem"): (0.7493779160186627, 0.29763157894736847, 0.4261243018643695),
    ("Facebook-AI", "MTR-exact"): (0.4136054421768707, 0.3968668407310704, 0.4312474767095675),
    ("Facebook-AI", "MTR-stem"): (0.4136054421768707, 0.5148825065274151, 0.44845137568245724),
}


@pytest.fixture(scope="module")
def sample(shared: Path) -> Path:
    path = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not path.is_dir():
        pytest.skip("en-de sample not in shared data")
    return path


@pytest.mark.parametrize("system", ["UEdin", "Online-W", "Facebook-AI"])
def test_german_equals_meteor_built_from_source(sample: Path, system: str) -> None:
    hyps = (sample / "systems" / f"{system}.de.txt").read_text(encoding="utf-8").splitlines()
    ref = (sample / "refs" / "ref-A.de.txt").read_text(encoding="utf-8").splitlines()
    out = MeteorFamily().compute(hyps, [ref], Documents(("d",) * len(hyps)), Params(lang="de"))
    assert sorted(out) == ["MTR-exact", "MTR-stem"]  # no WordNet for German
    for variant in ("MTR-exact", "MTR-stem"):
        scores = out[variant]
        assert (scores.seg[0], scores.seg[33], scores.sys) == JAR[(system, variant)]


def test_language_settings_follow_meteor_constants() -> None:
    de, ru, nl, xx = (meteor_language(c) for c in ("de", "ru", "nl", "ja"))
    assert (de.params, de.weights) == ((0.95, 1.00, 0.55, 0.55), (1.0, 0.8))
    assert (ru.params, ru.weights) == ((0.75, 1.40, 0.70, 0.50), (1.0, 0.5))
    assert (nl.name, nl.params, nl.weights) == ("dutch", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5))
    assert (xx.name, xx.snowball) == ("other", None)
    assert MeteorFamily().metrics_for(Params(lang="ja")) == ["MTR-exact"]
    # the language once (it said lang:german and, from the scorer, lang:de)
    assert MeteorFamily().signature(Params(lang="de"), 1) == (
        "METEOR|nrefs:1|case:mixed|tok:ascii-ws|norm:no|params:0.95_1.0_0.55_0.55"
        "|weights:1.0_0.8|impl:meteor-1.5|version:1|lang:de")
    assert MeteorFamily().signature(Params(), 1).endswith("|version:1|lang:en")  # as it ran


def test_a_german_test_bed_scores_exact_and_stem_only(sample: Path, tmp_path: Path) -> None:
    db = tmp_path / "de.duckdb"
    done = ulcdb(db, "ingest", "testbed", "--name", "ende", "--source",
                 sample / "source.en.txt", "--ref", f"ref-A={sample / 'refs' / 'ref-A.de.txt'}",
                 "--sys", f"UEdin={sample / 'systems' / 'UEdin.de.txt'}", "--tgt-lang", "de")
    assert done.exit_code == 0, done.output
    result = ulcdb(db, "score", "-m", "METEOR", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "left out for target language de: MTR-wnstm, MTR-wnsyn" in result.stderr
    refused = ulcdb(db, "score", "-m", "MTR-wnsyn", "-j", "1")
    assert refused.exit_code == 1 and "English only" in refused.output
    with Store(db, read_only=True) as store:
        got = dict(store.query("select metric, value from scores where level = 'sys' and "
                               "translator = 'UEdin' and refset = 'ref-A'"))
    assert got == {"MTR-exact": JAR[("UEdin", "MTR-exact")][2],
                   "MTR-stem": JAR[("UEdin", "MTR-stem")][2]}
    again = ulcdb(db, "score", "-m", "METEOR", "-j", "1")  # nothing missing for German
    assert "computed nothing new" in again.output
