"""`ulcdb meta` says what its numbers rest on (issue 25, section 2), on the WMT21 en-de
sample: every target dropped and why, no coefficient over fewer items than it needs, the
groups that counted, affine twins ranked alike.  Expected numbers from plain SQL on the
store, scipy and hand counts (the --protocol cases: test_meta_protocol_honest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import numpy as np
import pytest
import scipy.stats

from tests.cli_helpers import ulcdb

REFSET = "ref-A+ref-B-draft+ref-C+ref-D"
THREE = "ref-A+ref-C+ref-D"


def _ok(result) -> str:  # noqa: ANN001
    assert result.exit_code == 0, result.output
    return result.stdout


def bleu_against_ref_a(db: Path, sample: Path, name: str) -> Path:
    """``db`` holding a WMT21 sample's long TSV as test bed ``name``, with BLEU's segment
    scores against ref-A."""
    _ok(ulcdb(db, "ingest", "testbed", sample / "segments_long.tsv", "--name", name))
    _ok(ulcdb(db, "score", "-m", "BLEU", "-r", "ref-A", "-G", "seg", "-f", "csv", "-j", "1"))
    return db


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("meta_honest") / "ende.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", ende_sample / "segments_long.tsv", "--name", "ende",
              "--src-lang", "en", "--tgt-lang", "de"))
    _ok(ulcdb(db, "score", "-m", "BLEU", "-G", "all", "-f", "csv", "-j", "1"))
    _ok(ulcdb(db, "score", "-m", "-TER,1-TER", "-r", THREE, "-G", "seg", "-f", "csv",
              "-j", "1"))
    return db


def _json(db: Path, *args: str) -> dict:
    return json.loads(_ok(ulcdb(db, "meta", *args, "-B", "0", "-f", "json")))


def _sql(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def test_dropped_targets_are_named_and_two_items_get_no_correlation(ende: Path) -> None:
    """ICL has no MQM: it was dropped silently and Pearson over the two systems left was
    -1 by construction.  Now ICL is named with its reason, the correlations over two items
    are blank with a warning each, and accuracy (one pair) is the hand count."""
    result = ulcdb(ende, "meta", "-c", "MQM", "-G", "sys", "-s", "Online-W,ICL,Facebook-AI",
                   "-m", "BLEU", "-B", "0", "-f", "json")
    out = json.loads(_ok(result))
    run = out["run"]
    assert run["dropped_targets"] == {"ICL": "no MQM judgment at sys level"}
    assert "dropped, no MQM judgment at sys level: ICL" in run["summary"]
    (row,) = out["results"]
    assert row["n_items"] == 2
    for coef in ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c"):
        assert row[coef] is None
    assert ("warning: Pearson needs at least 3 items, BLEU has 2: left blank (over so few it "
            "is +-1 or undefined whatever the scores)") in run["warnings"]
    human = dict(_sql(ende, "select translator, avg(value) from assessments where criterion = "
                      "'MQM' and level = 'seg' and translator in ('Online-W', 'Facebook-AI') "
                      "group by 1"))
    bleu = dict(_sql(ende, "select translator, value from scores where metric = 'BLEU' and "
                     "level = 'sys' and refset = ? and translator in ('Online-W', "
                     "'Facebook-AI')", [REFSET]))
    agree = (np.sign(human["Online-W"] - human["Facebook-AI"])
             == np.sign(bleu["Online-W"] - bleu["Facebook-AI"]))
    assert row["accuracy"] == float(agree)
    refused = ulcdb(ende, "meta", "-c", "MQM", "-G", "sys", "-s", "Online-W,ICL,Facebook-AI",
                    "-m", "BLEU", "-B", "20", "--sig", "paired-bootstrap")
    assert refused.exit_code == 1 and refused.stderr.startswith(
        "Error: pearson is undefined for every metric here (see the warnings): test another "
        "with --sig-coef")


def test_one_item_left_is_refused_naming_the_dropped(ende: Path) -> None:
    result = ulcdb(ende, "meta", "-c", "MQM", "-G", "sys", "-s", "Online-W,ICL", "-m", "BLEU",
                   "-B", "0")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: only 1 sys-level item left, too few for any coefficient (Pearson, Spearman "
        "and Kendall need 3, accuracy 2); dropped: ICL (no MQM judgment at sys level)\n")


def test_grouping_item_reports_the_groups_that_counted(ende: Path) -> None:
    """Segments whose MQM is the same for every system give no Pearson or Kendall: they do
    not count (scipy's NaN); accuracy counts them (acc_eq pairs tied in both agree)."""
    out = _json(ende, "-c", "MQM", "-G", "seg", "--grouping", "item", "-m", "BLEU", "--coef",
                "pearson,kendall_tau_b,accuracy")
    (row,) = out["results"]
    rows = _sql(ende, "select h.seg_id, h.value, s.value from (select translator, seg_id, "
                "avg(value) as value from assessments where criterion = 'MQM' and level = "
                "'seg' and role = 'system' group by all) h join scores s using (translator, "
                "seg_id) where s.metric = 'BLEU' and s.level = 'seg' and s.refset = ?",
                [REFSET])
    by_seg: dict[int, list[tuple[float, float]]] = {}
    for seg, h, m in rows:
        by_seg.setdefault(seg, []).append((h, m))
    with np.errstate(all="ignore"), pytest.warns(scipy.stats.ConstantInputWarning):
        pearsons = [scipy.stats.pearsonr(*zip(*v, strict=True))[0] for v in by_seg.values()]
    counted = sum(1 for p in pearsons if not np.isnan(p))
    assert len(by_seg) == 47 and counted < 47
    assert row["pearson_groups"] == counted
    assert row["pearson"] == pytest.approx(np.nanmean(pearsons), abs=1e-12)
    assert row["accuracy_groups"] == 47
    assert row["n_groups"] == min(row["pearson_groups"], row["kendall_tau_b_groups"], 47)
    table = _ok(ulcdb(ende, "meta", "-c", "MQM", "-G", "seg", "--grouping", "item", "-m",
                      "BLEU", "--coef", "pearson,accuracy", "-B", "0"))
    assert f"{counted} groups" in table and "47 groups" in table


def test_affine_twins_rank_alike(ende: Path) -> None:
    """-TER and 1-TER against three references: 1 - x in floating point ties values that
    -x keeps apart (tau-b 0.18116 and 0.18113 before).  Compared at 10 decimals, as the
    header says, both get the same rank coefficients, those scipy gives on the rounded
    values."""
    out = _json(ende, "-c", "MQM", "-G", "seg", "-r", THREE, "-m", "-TER,1-TER", "--coef",
                "pearson,spearman,kendall_tau_b,kendall_tau_c,accuracy,darr_tau",
                "--threshold", "1")
    rows = {r["metric"]: r for r in out["results"]}
    a, b = rows["-TER"], rows["1-TER"]
    for coef in ("kendall_tau_b", "kendall_tau_c", "accuracy", "darr_tau"):
        assert a[coef] == b[coef], coef
    assert a["spearman"] == pytest.approx(b["spearman"], abs=1e-14)  # SQL sums in any order
    assert "metric scores ranked at 10 decimals" in out["run"]["summary"][0]
    pairs = _sql(ende, "select h.value, s.value from (select translator, seg_id, avg(value) "
                 "as value from assessments where criterion = 'MQM' and level = 'seg' and "
                 "role = 'system' group by all) h join scores s using (translator, seg_id) "
                 "where s.metric = '-TER' and s.level = 'seg' and s.refset = ?", [THREE])
    human, ter = (np.array(v) for v in zip(*pairs, strict=True))
    assert len(human) == a["n_items"]
    rounded = np.round(ter, 10)
    assert a["kendall_tau_b"] == pytest.approx(scipy.stats.kendalltau(human, rounded)[0],
                                               abs=1e-12)
    assert a["spearman"] == pytest.approx(scipy.stats.spearmanr(human, rounded)[0], abs=1e-12)
    # the noise is real: unrounded, the twins' tau-b differ
    assert scipy.stats.kendalltau(human, ter)[0] != pytest.approx(
        scipy.stats.kendalltau(human, 1 + ter)[0], abs=1e-6)
