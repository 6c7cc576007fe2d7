"""examples/wmt20-metrics.sh on the four language pairs of the release (de-en, en-de, ru-en,
zh-en) against the official WMT20 metrics-task numbers (issue 11 section 4, issue 25 section 4).

Every number the task published for these language pairs and the release's inputs determine
is asserted number for number, read at run time from the task's result files (see
tests/wmt20_official.py): ``results/output`` of github.com/WMT-Metrics-task/wmt20-metrics, found
in ../shared/testbeds/wmt20_metrics or in the folder WMT20_RESULTS names (those tests skip
when neither holds it).  Spot checks of Tables 6 and 7 (Mathur et al. 2020, as mt-metrics-eval's
data_test.py checks them) and a recomputation of MEE's multi-reference score from the release
run without them."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
import wmt20_official as official
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
LPS = ("de-en", "en-de", "ru-en", "zh-en")
TABLE_6 = {"wmt20:BLEU": 0.825, "sentBLEU": 0.823, "COMET": 0.863, "BLEURT-extended": 0.870,
           "prism": 0.851, "YiSi-0": 0.889}
# Table 7, 3rd column: newstestB2020, outliers left out, Human-A counted as a system
TABLE_7_REF_B = {"wmt20:BLEU": 0.672, "sentBLEU": 0.639, "COMET": 0.879,
                 "BLEURT-extended": 0.883, "prism": 0.731, "YiSi-0": 0.728}
GROUPS = [(lp, "sys", refset) for lp in LPS
          for refset in ("ref-A", "ref-B", "ref-P", "ref-A+ref-B")
          if lp == "en-de" or refset != "ref-P"] + [  # newstestP2020: en-de only
          (lp, level, "ref-A") for lp in LPS for level in ("doc", "seg")]


@pytest.fixture(scope="module")
def release(shared: Path) -> Path:
    data = shared / "testbeds" / "wmt20_metrics"
    if not (data / "input_details" / "en-de.txt").exists():
        pytest.skip("wmt20_metrics not in shared data")
    return data


@pytest.fixture(scope="module")
def rows(release: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    if shutil.which("ulcdb") is None:
        pytest.skip("the ulcdb command is not installed")
    store = tmp_path_factory.mktemp("wmt20") / "wmt20.duckdb"
    env = {**os.environ, "WMT20_LPS": " ".join(LPS), "PATH": f"{Path(sys.executable).parent}:"
           f"{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", str(ROOT / "examples" / "wmt20-metrics.sh"), str(release),
                           str(store)], capture_output=True, text=True, env=env, timeout=2400)
    assert done.returncode == 0, done.stderr[-2000:]
    out = list(csv.DictReader(done.stdout.splitlines(), delimiter="\t"))
    assert done.stderr.strip().endswith(f"{len(out)} correlations")
    # ten silent minutes were no way to tell it was working: each pair says when it starts
    assert all(f"{lp} against ref-A: sys, doc and seg level..." in done.stderr.splitlines()
               for lp in LPS)
    return out


@pytest.fixture(scope="module")
def published(release: Path) -> dict[official.Key, official.Official]:
    results = Path(os.environ.get("WMT20_RESULTS", release)) / "results" / "output"
    if not (results / "system-level").is_dir():
        pytest.skip(f"the task's results/output (WMT-Metrics-task/wmt20-metrics) not at {results}"
                    " (set WMT20_RESULTS to a checkout)")
    outliers = official.outliers(release)
    found: dict[official.Key, official.Official] = {}
    for lp in LPS:
        found |= official.system_level(results, lp, outliers.get(lp, set()))
        found |= official.pair_level(results, lp)
    return found


def value(rows, level: str, refset: str, systems: str, metric: str, coef: str,
          lp: str = "en-de") -> float:
    found = [float(r["value"]) for r in rows if (r["lp"], r["level"], r["refset"], r["systems"],
             r["metric"], r["coefficient"]) == (lp, level, refset, systems, metric, coef)]
    assert len(found) == 1, (lp, level, refset, systems, metric, coef, found)
    return found[0]


def absent(release: Path) -> set[tuple[str, str]]:
    """(level, metric) of the task's score files the release lacks (ABSENT_in_snapshot.txt:
    '... final-metric-scores/submissions/COMET.seg.score.gz'): numbers no input determines."""
    text = (release / "metrics" / "ABSENT_in_snapshot.txt").read_text(encoding="utf-8")
    files = [line.rsplit("/", 1)[-1].split(".") for line in text.splitlines() if line.strip()]
    return {(parts[-3], official.name(".".join(parts[:-3]))) for parts in files}


@pytest.mark.parametrize("group", GROUPS, ids=["-".join(g) for g in GROUPS])
def test_every_official_number(published, rows, release: Path, group) -> None:
    """Both selections and every coefficient of one language pair, level and reference set:
    each number the task published equals ours at its printed precision, with the same
    number of systems (pairs), and no other metric is listed where the task listed its own."""
    lp, level, refset = group
    missing = absent(release)
    ours = {(r["lp"], r["level"], r["refset"], r["systems"], r["metric"], r["coefficient"]):
            (float(r["value"]), int(r["n"])) for r in rows}
    wanted = {k: v for k, v in published.items() if k[:3] == group and (level, k[4]) not in missing}
    assert wanted, group
    wrong = defaultdict(list)
    for key, want in sorted(wanted.items()):
        got = ours.get(key)
        if got is None or not want.matches(*got):
            wrong[key[3]].append((key[4], key[5], got, (want.value, want.n)))
    extra = sorted(k[3:] for k in ours if k[:3] == group and k[3] in {"all", "no-outliers"}
                   and k not in published)
    assert not wrong and not (level == "sys" and extra), (
        f"{len(wanted) - sum(map(len, wrong.values()))}/{len(wanted)} match; "
        f"{dict(wrong)}; not published: {extra}")


def test_system_level_tables_6_and_7(rows) -> None:
    for metric, want in TABLE_6.items():
        assert value(rows, "sys", "ref-A", "no-outliers", metric, "pearson") == \
            pytest.approx(want, abs=5e-4), metric
    assert value(rows, "sys", "ref-A", "all", "sentBLEU", "pearson") == \
        pytest.approx(0.934, abs=5e-4)
    for metric, want in TABLE_7_REF_B.items():
        assert value(rows, "sys", "ref-B", "no-outliers+Human-A", metric, "pearson") == \
            pytest.approx(want, abs=5e-4), metric


def test_system_level_counts_mt_systems_only(rows) -> None:
    """Against reference B the task's "all" holds the 14 MT systems, not Human-A."""
    for refset in ("ref-A", "ref-B", "ref-P", "ref-A+ref-B"):
        n = {int(r["n"]) for r in rows if (r["lp"], r["level"], r["refset"], r["systems"]) ==
             ("en-de", "sys", refset, "all")}
        assert n == {14}, refset
    assert not [r for r in rows if r["refset"] in ("ref-A", "ref-A+ref-B")
                and r["systems"] == "no-outliers+Human-A"]


def test_every_level_and_selection_is_there(rows) -> None:
    combos = {(r["level"], r["refset"], r["systems"]) for r in rows if r["lp"] == "en-de"}
    for level in ("sys", "doc", "seg"):
        for refset in ("ref-A", "ref-B", "ref-P", "ref-A+ref-B"):
            for systems in ("all", "no-outliers"):
                assert (level, refset, systems) in combos, (level, refset, systems)
    assert ("sys", "ref-P", "no-outliers+Human-A") in combos
    assert {r["coefficient"] for r in rows if r["level"] != "sys"} == {"darr_tau"}


def test_reference_free_metrics_are_listed_under_every_reference_set(rows) -> None:
    for refset in ("ref-A", "ref-B", "ref-P", "ref-A+ref-B"):
        for metric in ("COMET-QE", "YiSi-2"):
            assert value(rows, "sys", refset, "all", metric, "pearson") == pytest.approx(
                value(rows, "sys", "ref-A", "all", metric, "pearson"), abs=1e-12)


def test_multi_reference_metrics_are_only_those_scored_so(rows) -> None:
    """chrF has no newstestM2020 scores: the task's tables leave it out there (it was listed
    with its newstest2020 value before)."""
    listed = {r["metric"] for r in rows if r["refset"] == "ref-A+ref-B" and r["lp"] == "en-de"}
    assert "wmt20:chrF" in {r["metric"] for r in rows if r["refset"] == "ref-A"}
    assert "wmt20:chrF" not in listed
    assert {"COMET-QE", "MEE", "wmt20:chrF++"} <= listed


def test_mee_against_both_references_is_its_best_single_reference_score(rows, release) -> None:
    """MEE against newstestM2020 = the maximum of its system scores against A and against B
    (the task's combine-scores-sys-DA.py); recomputed from the release with scipy."""
    best: dict[str, float] = {}
    with (release / "metrics" / "sys" / "MEE.sys.tsv").open(encoding="utf-8") as f:
        for metric, lp, _testset, _refset, system, score in csv.reader(f, delimiter="\t"):
            if (metric, lp) == ("MEE", "ru-en"):
                best[system] = max(best.get(system, float("-inf")), float(score))
    with (release / "human" / "da_sys.ru-en.tsv").open(encoding="utf-8") as f:
        human = {r["system"]: float(r["da_z"]) for r in csv.DictReader(f, delimiter="\t")
                 if r["is_human_translation"] == "0"}
    systems = sorted(human.keys() & best.keys())
    want = stats.pearsonr([human[s] for s in systems], [best[s] for s in systems])[0]
    assert len(systems) == 11
    assert value(rows, "sys", "ref-A+ref-B", "all", "MEE", "pearson", lp="ru-en") == \
        pytest.approx(want, abs=1e-12)
    assert value(rows, "sys", "ref-A+ref-B", "all", "MEE", "pearson", lp="ru-en") != \
        pytest.approx(value(rows, "sys", "ref-A", "all", "MEE", "pearson", lp="ru-en"), abs=1e-3)


def test_bleurt_combi_takes_the_task_s_system_level_name(rows) -> None:
    """The task's system-level tables call every row of the bleurt-combi file
    bleurt-Yisi-combi (the name of its first row); document and segment level keep
    bleurt-combi."""
    for refset in ("ref-A", "ref-B", "ref-P", "ref-A+ref-B"):
        assert value(rows, "sys", refset, "all", "bleurt-Yisi-combi", "pearson") is not None
    assert not [r for r in rows if r["level"] == "sys" and r["metric"] == "bleurt-combi"]
    for level in ("doc", "seg"):
        assert value(rows, level, "ref-A", "all", "bleurt-combi", "darr_tau") is not None
        assert not [r for r in rows if r["level"] == level and r["refset"] == "ref-A"
                    and r["metric"] == "bleurt-Yisi-combi"]


def test_segment_pairs_hold_mt_systems_only(rows, release) -> None:
    """The task's segment-level DARR pairs two MT outputs of a segment whose raw DA differ by
    25 or more (Human-P too is left out); counted by hand from the release's DA file."""
    scores: dict[str, list[float]] = defaultdict(list)
    with (release / "human" / "da_seg.en-de.tsv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if not r["system"].startswith("Human-"):
                scores[r["line_id"]].append(float(r["da_raw"]))
    pairs = sum(abs(a - b) >= 25 for s in scores.values() for i, a in enumerate(s)
                for b in s[i + 1:])
    n = {int(r["n"]) for r in rows if (r["lp"], r["level"], r["refset"], r["systems"]) ==
         ("en-de", "seg", "ref-A", "all") and r["metric"] in ("TER", "wmt20:chrF")}
    assert n == {pairs}
