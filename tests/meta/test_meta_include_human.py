"""`--include-human` asks for the judged human translations as systems: when they have no
scores against the reference set, `ulcdb meta` and `ulcdb meta protocol` say they were
dropped and why (they correlated the MT systems alone without a word, and the protocol's
header said "human translations scored as systems").  WMT21 en-de sample: MQM judges ref-A,
ref-C and ref-D; BLEU is scored against ref-A only, for the systems.  Expected numbers from
plain SQL on the store and scipy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scipy.stats

from tests.cli_helpers import ulcdb
from tests.meta.test_meta_honest import _ok, _sql, bleu_against_ref_a


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("include_human") / "ende.duckdb"
    return bleu_against_ref_a(db, ende_sample, "ende")


def _judged_systems(db: Path) -> list[str]:
    return [r[0] for r in _sql(db, "select distinct translator from assessments where "
                               "criterion = 'MQM' and role = 'system' order by 1")]


def test_meta_names_the_human_translations_it_could_not_include(ende: Path) -> None:
    out = json.loads(_ok(ulcdb(ende, "meta", "-c", "MQM", "-m", "BLEU", "-r", "ref-A",
                               "--include-human", "-B", "0", "-f", "json")))
    run = out["run"]
    assert run["dropped_targets"]["ref-C"] == "no sys-level score against ref-A"
    assert run["dropped_targets"]["ref-D"] == "no sys-level score against ref-A"
    assert "ref-A" not in run["dropped_targets"]  # the reference itself is not a target
    assert "dropped, no sys-level score against ref-A: ref-C, ref-D" in run["summary"]
    systems = _judged_systems(ende)
    assert run["targets"] == systems and len(systems) == 8
    human = dict(_sql(ende, "select translator, avg(value) from assessments where criterion "
                      "= 'MQM' and level = 'seg' and role = 'system' group by 1"))
    bleu = dict(_sql(ende, "select translator, value from scores where metric = 'BLEU' and "
                     "level = 'sys' and refset = 'ref-A'"))
    (row,) = out["results"]
    assert row["pearson"] == pytest.approx(scipy.stats.pearsonr(
        [human[s] for s in systems], [bleu[s] for s in systems])[0], abs=1e-12)


def test_without_include_human_nothing_more_is_said(ende: Path) -> None:
    out = json.loads(_ok(ulcdb(ende, "meta", "-c", "MQM", "-m", "BLEU", "-r", "ref-A",
                               "-B", "0", "-f", "json")))
    assert not {"ref-C", "ref-D"} & set(out["run"]["dropped_targets"])


def test_protocol_says_no_human_translation_stood_as_a_system(ende: Path) -> None:
    out = json.loads(_ok(ulcdb(ende, "meta", "protocol", "wmt24", "-c", "MQM", "-m", "BLEU",
                               "-r", "ref-A", "--bootstrap", "0", "--include-human",
                               "-f", "json")))
    summary = out["run"]["summary"]
    unjudged = [r[0] for r in _sql(ende, "select name from translator where role = 'system' "
                                   "and name not in (select translator from assessments) "
                                   "order by name")]
    assert len(unjudged) == 12
    assert f"ende dropped, no MQM judgment at seg level: {', '.join(unjudged)}" in summary
    assert "ende dropped, no seg-level score against ref-A: ref-C, ref-D" in summary
    assert ("ende: no human translation among the systems, though --include-human asks for "
            "them (only those outside the reference set (-r) can be, with scores against it); "
            "mt-metrics-eval's tasks.WMT24 scores them (human=True) for en-de only; the "
            "language pair of 'ende' is not recorded") in summary
    seg = out["run"]["testbeds"]["ende"]["seg"]
    assert seg["systems"] == _judged_systems(ende)
    assert seg["dropped"]["ref-C"] == "no seg-level score against ref-A"


def test_protocol_names_the_human_translations_scored_as_systems(ende: Path,
                                                                 tmp_path: Path) -> None:
    db = tmp_path / "all.duckdb"
    db.write_bytes(ende.read_bytes())
    _ok(ulcdb(db, "score", "-m", "BLEU", "-G", "seg", "-f", "csv", "-j", "1"))  # refs too
    out = json.loads(_ok(ulcdb(db, "meta", "protocol", "wmt24", "-c", "MQM", "-m", "BLEU",
                               "-r", "ref-A", "--bootstrap", "0", "--include-human",
                               "-f", "json")))
    seg = out["run"]["testbeds"]["ende"]["seg"]
    assert seg["systems"] == sorted([*_judged_systems(ende), "ref-C", "ref-D"])
    assert seg["n_items"] == _sql(db, "select count(*) from assessments a join scores s using "
                                  "(translator, seg_id) where a.criterion = 'MQM' and "
                                  "s.metric = 'BLEU' and s.refset = 'ref-A' and s.level = "
                                  "'seg' and a.translator <> 'ref-A'")[0][0]
    assert any(line.startswith("ende: human translations scored as systems (--include-human):"
                               " ref-C, ref-D; ") for line in out["run"]["summary"])
