"""Meta-evaluation compares like with like (issue 11, section 1), on the WMT21 ru-en sample.

The store: the sample's 64 segments, 10 systems and 2 references; DA (raw and z) with the
file's HUMAN as ref-B; chrF scored for every system, GTM-3 and chrF `case:lc` for AFRL and
Online-Y only.  Expected numbers come from the DA file itself, sacrebleu's chrF and scipy, on
the items every metric of the run scores (mt-metrics-eval's rule).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import scipy.stats
from cli_helpers import ulcdb

TWO = ("AFRL", "Online-Y")
FULL = "ref-A+ref-B"


def _ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def ruen(shared: Path, tmp_path_factory) -> tuple[Path, Path]:
    root = shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"
    if not (root / "human" / "da_seg.tsv").exists():
        pytest.skip("ru-en sample not in shared data")
    db = tmp_path_factory.mktemp("ruen") / "ruen.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", root / "segments_long.tsv", "--name", "ruen"))
    for crit in ("raw", "z"):
        _ok(ulcdb(db, "ingest", "assessments", root / "human" / "da_seg.tsv", "--map",
                  "system=system", "--map", "seg_id=seg_id", "--map", f"score=da_{crit}",
                  "-c", f"DA-{crit}", "--rename", "HUMAN=ref-B"))
    _ok(ulcdb(db, "score", "-m", "chrF", "-G", "all", "-f", "csv"))
    _ok(ulcdb(db, "score", "-m", "GTM-3", "-s", ",".join(TWO), "-G", "all", "-f", "csv"))
    _ok(ulcdb(db, "score", "-m", "chrF", "--case", "lc", "-s", ",".join(TWO), "-G", "all",
              "-f", "csv"))
    return db, root


def _da(root: Path, column: str) -> dict[tuple[str, int], float]:
    with open(root / "human" / "da_seg.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {("ref-B" if r["system"] == "HUMAN" else r["system"], int(r["seg_id"])):
            float(r[column]) for r in rows}


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _chrf(root: Path, system: str, refs: tuple[str, ...]) -> list[float]:
    """sacrebleu's segment chrF of a system (ulcdb's is the same on a 0-1 scale)."""
    hyp = _lines(root / "systems" / f"{system}.en.txt")
    ref_lines = [_lines(root / "refs" / f"{r}.en.txt") for r in refs]
    return [sacrebleu.sentence_chrf(h, [r[i] for r in ref_lines]).score
            for i, h in enumerate(hyp)]


def _chrf_sys(root: Path, system: str, refs: tuple[str, ...]) -> float:
    """sacrebleu's corpus chrF of a system (or of a reference)."""
    folder = "refs" if system.startswith("ref-") else "systems"
    hyp = _lines(root / folder / f"{system}.en.txt")
    return sacrebleu.corpus_chrf(hyp, [_lines(root / "refs" / f"{r}.en.txt") for r in refs]).score


def _meta(db: Path, *args: str) -> dict:
    return json.loads(_ok(ulcdb(db, "meta", "-f", "json", *args)))


def _by_label(out: dict) -> dict[str, dict]:
    """Rows by metric name, ``metric/lc`` for the lower-cased variant."""
    return {r["metric"] + ("/lc" if r["variant"] == "case:lc" else ""): r
            for r in out["results"]}


def test_sys_level_correlates_every_metric_on_the_same_systems(ruen):
    db, root = ruen
    out = _meta(db, "-c", "DA-z", "-G", "sys", "-m", "GTM-3,chrF", "-B", "200",
                "--sig", "paired-bootstrap", "--sig-coef", "accuracy")
    rows = _by_label(out)
    da = _da(root, "da_z")
    human = [np.mean([v for (s, _), v in da.items() if s == t]) for t in TWO]
    chrf = [_chrf_sys(root, t, ("ref-A", "ref-B")) for t in TWO]
    assert set(rows) == {"GTM-3", "chrF", "chrF/lc"}
    for row in rows.values():
        assert row["n_items"] == 2 and row["targets"] == "AFRL Online-Y"
    # two systems: Pearson is +-1 by construction, left blank (issue 25); accuracy: one pair
    assert rows["chrF"]["pearson"] is None
    agree = np.sign(human[0] - human[1]) == np.sign(chrf[0] - chrf[1])
    assert rows["chrF"]["accuracy"] == float(agree)
    # the significance test compares the two metrics on the same two systems
    sig = out["significance"][0]
    assert sig["delta"] == pytest.approx(abs(rows["GTM-3"]["accuracy"]
                                             - rows["chrF"]["accuracy"]))
    run = out["run"]
    assert run["items"] == "common" and run["n_items"] == 2
    assert run["targets"] == list(TWO)
    assert set(run["dropped_targets"]) == {"Facebook-AI", "Manifold", "NVIDIA-NeMo",
                                           "NiuTrans", "Online-A", "Online-B", "Online-G",
                                           "Online-W"}
    table = _ok(ulcdb(db, "meta", "-c", "DA-z", "-G", "sys", "-m", "GTM-3,chrF", "-B", "0"))
    assert "10 targets" not in table and "2 targets: AFRL, Online-Y" in table
    assert "not scored by GTM-3, chrF [case:lc]" in table


def test_own_items_say_so_and_refuse_significance(ruen):
    db, root = ruen
    rows = _by_label(_meta(db, "-c", "DA-z", "-G", "sys", "-m", "GTM-3,chrF", "-B", "0",
                           "--own-items"))
    assert rows["chrF"]["n_items"] == 10 and rows["GTM-3"]["n_items"] == 2
    assert rows["chrF/lc"]["n_items"] == 2
    da = _da(root, "da_z")
    systems = sorted({s for s, _ in da if s != "ref-B"})
    human = [np.mean([v for (s, _), v in da.items() if s == t]) for t in systems]
    chrf = [_chrf_sys(root, t, ("ref-A", "ref-B")) for t in systems]
    assert rows["chrF"]["pearson"] == pytest.approx(scipy.stats.pearsonr(human, chrf)[0])
    table = _ok(ulcdb(db, "meta", "-c", "DA-z", "-G", "sys", "-m", "GTM-3,chrF", "-B", "0",
                      "--own-items"))
    assert "own items" in table
    refused = ulcdb(db, "meta", "-c", "DA-z", "-G", "sys", "-m", "GTM-3,chrF", "--own-items",
                    "--sig", "paired-bootstrap")
    assert refused.exit_code == 1 and "item sets differ" in refused.output


@pytest.mark.parametrize("metrics", ["GTM-3,chrF", "chrF"])
def test_seg_level_items_are_the_intersection(ruen, metrics):
    """GTM-3 and chrF case:lc score 2 systems: every row uses those 128 items, not 632."""
    db, root = ruen
    out = _meta(db, "-c", "DA-raw", "-G", "seg", "-m", metrics, "-B", "0", "--coef",
                "pearson,kendall_tau_b,darr_tau")
    rows = out["results"]
    assert len(rows) == metrics.count(",") + 2  # chrF in two variants (and GTM-3)
    da = _da(root, "da_raw")
    keys = [(t, s) for t in TWO for s in range(1, 65) if (t, s) in da]
    human = np.array([da[k] for k in keys])
    chrf = {t: _chrf(root, t, ("ref-A", "ref-B")) for t in TWO}
    metric = np.array([chrf[t][s - 1] for t, s in keys])
    plain = next(r for r in rows if r["metric"] == "chrF" and r["variant"] == "case:mixed")
    for r in rows:
        assert r["n_items"] == len(keys) == 128
    assert plain["pearson"] == pytest.approx(scipy.stats.pearsonr(human, metric)[0], abs=1e-9)
    assert plain["kendall_tau_b"] == pytest.approx(scipy.stats.kendalltau(human, metric)[0],
                                                   abs=1e-9)
    c = d = 0
    for s in range(1, 65):
        (ha, ma), (hb, mb) = [(da[t, s], chrf[t][s - 1]) for t in TWO]
        if abs(ha - hb) >= 25:
            c, d = (c + 1, d) if (ha - hb) * (ma - mb) > 0 else (c, d + 1)
    assert plain["darr_tau_pairs"] == c + d
    assert plain["darr_tau"] == pytest.approx((c - d) / (c + d), abs=1e-12)
    assert out["run"]["n_items"] == 128


def test_every_format_carries_n(ruen):
    db, _ = ruen
    base = ("-c", "DA-raw", "-G", "seg", "-m", "GTM-3,chrF", "-B", "0", "--coef", "pearson")
    rows = list(csv.DictReader(io.StringIO(_ok(ulcdb(db, "meta", *base, "-f", "csv")))))
    assert [r["n_items"] for r in rows] == ["128", "128", "128"]
    latex = _ok(ulcdb(db, "meta", *base, "-f", "latex"))
    assert r"$n$" in latex and latex.count("& 128 &") == 3
    table = _ok(ulcdb(db, "meta", *base))
    assert "│ 128" in table


def test_darr_threshold_must_fit_the_scale(ruen):
    db, root = ruen
    raw = _by_label(_meta(db, "-c", "DA-raw", "-G", "seg", "-m", "chrF", "-B", "0",
                          "--variant", "case:mixed"))
    assert "darr_tau" in raw["chrF"]  # raw DA 0-100: offered by default
    z = _by_label(_meta(db, "-c", "DA-z", "-G", "seg", "-m", "chrF", "-B", "0",
                        "--variant", "case:mixed"))
    assert "darr_tau" not in z["chrF"]  # z-scores: not by default
    refused = ulcdb(db, "meta", "-c", "DA-z", "-G", "seg", "-m", "chrF", "--coef", "darr_tau")
    assert refused.exit_code == 1 and "--threshold" in refused.output
    given = _by_label(_meta(db, "-c", "DA-z", "-G", "seg", "-m", "chrF", "-B", "0",
                            "--variant", "case:mixed", "--coef", "darr_tau",
                            "--threshold", "0.5"))
    assert given["chrF"]["darr_tau_pairs"] > 30


def test_few_darr_pairs_warn_on_stderr(ruen):
    db, root = ruen
    result = ulcdb(db, "meta", "-c", "DA-raw", "-G", "seg", "-m", "GTM-3", "-B", "0", "--coef",
                   "darr_tau", "--threshold", "60", "-f", "json")
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)["results"][0]["darr_tau_pairs"]
    da = _da(root, "da_raw")
    assert pairs == sum(abs(da["AFRL", s] - da["Online-Y", s]) >= 60 for s in range(1, 65))
    assert pairs < 30
    warnings = [ln for ln in result.stderr.splitlines() if "fewer than 30" in ln]
    assert len(warnings) == 1 and "GTM-3" in warnings[0]


def test_human_translations_only_on_request(ruen):
    db, root = ruen
    base = ("-c", "DA-z", "-G", "sys", "-r", "ref-A", "-m", "chrF", "--variant", "case:mixed",
            "-B", "0", "--coef", "pearson")
    default = _meta(db, *base)
    da = _da(root, "da_z")
    systems = sorted({s for s, _ in da if s != "ref-B"})
    assert default["run"]["targets"] == systems
    assert default["run"]["left_out"] == {"ref-B": "human translation"}
    with_human = _meta(db, *base, "--include-human")
    everyone = sorted({s for s, _ in da})
    assert with_human["run"]["targets"] == everyone
    human = [np.mean([v for (s, _), v in da.items() if s == t]) for t in everyone]
    chrf = [_chrf_sys(root, t, ("ref-A",)) for t in everyone]
    got = with_human["results"][0]["pearson"]
    assert got == pytest.approx(scipy.stats.pearsonr(human, chrf)[0], abs=1e-9)
    # --exclude still drops named translators, and the old --exclude-human is accepted
    minus = _meta(db, *base, "--include-human", "--exclude", "Online-G")
    assert "Online-G" not in minus["run"]["targets"] and "ref-B" in minus["run"]["targets"]
    assert _meta(db, *base, "--exclude-human")["run"]["targets"] == systems
    table = _ok(ulcdb(db, "meta", *base))
    assert "ref-B (human translation" in table and "--include-human" in table

