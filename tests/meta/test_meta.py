"""`ulcdb meta` and the meta_* macros on a tiny store built here, checked against scipy.

The store: 3 documents (9 segments), 5 systems and 2 references; metric scores inserted with
SQL against reference set 'ref1' (ref2 is scored too: a human translation); segment DA
judgments by two judges for some translators and segments, ingested system-level DA, and a
second criterion (Z) with segment judgments only.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
import typer
from typer.core import TyperOption
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.ingest.load import load_testbed, save_set
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.ingest.model import (
    Assessment,
    Document,
    NamedSet,
    SourceSegment,
    TestbedData,
    TranslatorText,
)
from ulcdb.meta import MetaTask, compare, evaluate
from ulcdb.stats import correlations
from ulcdb.store.database import Store

DOCS = {"d1": 3, "d2": 4, "d3": 2}
SYSTEMS = ["sA", "sB", "sC", "sD", "sE"]
TARGETS = [*SYSTEMS, "ref2"]  # scored against ref1
RNG_SEED = 7


def _segments() -> list[SourceSegment]:
    segs, sid = [], 1
    for doc, n in DOCS.items():
        for k in range(1, n + 1):
            segs.append(SourceSegment(sid, doc, k, f"source {sid}"))
            sid += 1
    return segs


class Truth:
    """What the test inserted, to recompute every number with scipy."""

    def __init__(self) -> None:
        rng = np.random.default_rng(RNG_SEED)
        segs = _segments()
        self.doc_of = {s.seg_id: s.doc_id for s in segs}
        self.seg = {m: {(t, s.seg_id): round(float(rng.uniform(0, 1)), 2) for t in TARGETS
                        for s in segs} for m in ("M1", "M2")}
        self.doc = {m: {(t, d): float(rng.uniform(0, 1)) for t in TARGETS for d in DOCS}
                    for m in ("M1", "M2")}
        self.sys = {m: {t: float(rng.uniform(0, 1)) for t in TARGETS} for m in ("M1", "M2")}
        # DA by two judges on most (translator, segment) pairs; some ties on purpose.
        self.judgments = []
        for t in TARGETS:
            for s in segs:
                if (t, s.seg_id) in (("sA", 2), ("sE", 9)):
                    continue
                for judge in ("j1", "j2"):
                    self.judgments.append((t, s.seg_id, judge, float(rng.integers(0, 11) * 10)))
        self.sys_da = {t: float(rng.uniform(50, 90)) for t in TARGETS}
        self.z = {(t, s.seg_id): float(rng.normal()) for t in TARGETS for s in segs}

    def seg_human(self) -> dict[tuple[str, int], float]:
        acc: dict[tuple[str, int], list[float]] = {}
        for t, s, _, v in self.judgments:
            acc.setdefault((t, s), []).append(v)
        return {k: float(np.mean(v)) for k, v in acc.items()}

    def doc_human(self) -> dict[tuple[str, str], float]:
        acc: dict[tuple[str, str], list[float]] = {}
        for (t, s), v in self.seg_human().items():
            acc.setdefault((t, self.doc_of[s]), []).append(v)
        return {k: float(np.mean(v)) for k, v in acc.items()}

    def oriented(self, metric: str, value: float) -> float:
        return value if metric == "M1" else -value  # M2: lower is better


def build(path: Path) -> Truth:
    truth = Truth()
    segs = _segments()
    data = TestbedData(
        name="tiny", src_lang="en", tgt_lang="de",
        documents=[Document(d) for d in DOCS], segments=segs,
        translators=[TranslatorText(t, "system", [f"{t} {s.seg_id}" for s in segs])
                     for t in SYSTEMS]
        + [TranslatorText(r, "reference", [f"{r} {s.seg_id}" for s in segs])
           for r in ("ref1", "ref2")])
    with Store(path) as store:
        load_testbed(store, data)
        tid = store.testbed_id("tiny")
        save_set(store, tid, NamedSet("system", "outliers", ["sE"]))
        ids = store.translators(tid)
        con = store.con
        for mid, (name, hib) in enumerate((("M1", True), ("M2", False)), start=1):
            con.execute("insert into metric (metric_id, name, family, linguistic_level, "
                        "higher_is_better, description) values (?, ?, 'test', 'lexical', ?, "
                        "'test metric')", [mid, name, hib])
        con.execute("insert into refset (refset_id, testbed_id, name, size) values (1, ?, "
                    "'ref1', 1)", [tid])
        con.execute("insert into refset_member values (1, ?)", [ids["ref1"]])
        con.execute("insert into score_batch (batch_id, family, signature) values "
                    "(1, 'test', 'test')")
        for mid, m in enumerate(("M1", "M2"), start=1):
            for (t, s), v in truth.seg[m].items():
                con.execute("insert into seg_score values (?, ?, 1, 'case:mixed', ?, ?, null, 1)",
                            [mid, ids[t], s, v])
            for (t, d), v in truth.doc[m].items():
                con.execute("insert into doc_score values (?, ?, 1, 'case:mixed', ?, ?, 1)",
                            [mid, ids[t], d, v])
            for t, v in truth.sys[m].items():
                con.execute("insert into sys_score values (?, ?, 1, 'case:mixed', ?, 1)",
                            [mid, ids[t], v])
        da = [Assessment(t, "DA", v, "seg", s, None, j) for t, s, j, v in truth.judgments]
        da += [Assessment(t, "DA", v, "sys") for t, v in truth.sys_da.items()]
        load_assessments(store, "tiny", da, Path("da.tsv"))
        z = [Assessment(t, "Z", v, "seg", s) for (t, s), v in truth.z.items()]
        load_assessments(store, "tiny", z, Path("z.tsv"))
    return truth


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, Truth]:
    path = tmp_path_factory.mktemp("meta") / "tiny.duckdb"
    return path, build(path)


def run(path: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", str(path), "meta", *args])
    assert result.exit_code == 0, result.output
    return result.output


def records(path: Path, *args: str) -> dict[str, dict]:
    out = json.loads(run(path, *args, "--format", "json"))
    assert out["significance"] == []  # one JSON schema with or without --sig
    return {r["label"]: r for r in out["results"]}


def vectors(truth: Truth, metric: str, level: str, targets=SYSTEMS):
    """(human, oriented metric, unit) vectors as the store should join them."""
    if level == "seg":
        human = truth.seg_human()
        keys = [k for k in human if k[0] in targets]
        return (np.array([human[k] for k in keys]),
                np.array([truth.oriented(metric, truth.seg[metric][k]) for k in keys]),
                np.array([str(k[1]) for k in keys]), [k[0] for k in keys])
    if level == "doc":
        human = truth.doc_human()
        keys = [k for k in human if k[0] in targets]
        return (np.array([human[k] for k in keys]),
                np.array([truth.oriented(metric, truth.doc[metric][k]) for k in keys]),
                np.array([k[1] for k in keys]), [k[0] for k in keys])
    keys = [t for t in targets]
    return (np.array([truth.sys_da[t] for t in keys]),
            np.array([truth.oriented(metric, truth.sys[metric][t]) for t in keys]),
            np.array(["sys"] * len(keys)), keys)


def darr_by_hand(human, metric, units, threshold):
    c = d = t = 0
    for i, j in itertools.combinations(range(len(human)), 2):
        if units[i] != units[j] or abs(human[i] - human[j]) < threshold:
            continue
        dh, dm = human[i] - human[j], metric[i] - metric[j]
        if dm == 0:
            t += 1
        elif (dh > 0) == (dm > 0):
            c += 1
        else:
            d += 1
    return c, d, t


# -- CLI numbers against scipy --------------------------------------------------------------


@pytest.mark.parametrize("level", ["seg", "doc", "sys"])
def test_meta_matches_scipy(tiny, level):
    path, truth = tiny
    got = records(path, "-G", level, "--criterion", "DA", "--bootstrap", "0",
                  "--coef", "pearson,spearman,kendall_tau_b,kendall_tau_c")
    assert set(got) == {"M1", "M2"}
    for metric in ("M1", "M2"):
        h, m, _, _ = vectors(truth, metric, level)
        rec = got[metric]
        assert rec["n_items"] == len(h)
        assert rec["pearson"] == pytest.approx(scipy.stats.pearsonr(h, m)[0], abs=1e-12)
        assert rec["spearman"] == pytest.approx(scipy.stats.spearmanr(h, m)[0], abs=1e-12)
        assert rec["kendall_tau_b"] == pytest.approx(scipy.stats.kendalltau(h, m)[0], abs=1e-12)
        tau_c = scipy.stats.kendalltau(h, m, variant="c")[0]
        assert rec["kendall_tau_c"] == pytest.approx(tau_c, abs=1e-12)
        assert rec["human_source"] == ("derived" if level == "doc" else "ingested")


def test_darr_and_accuracy(tiny):
    path, truth = tiny
    got = records(path, "-G", "seg", "--criterion", "DA", "--bootstrap", "0", "--coef",
                  "darr_tau,darr_tau_noties,accuracy", "--threshold", "25")
    h, m, units, _ = vectors(truth, "M1", "seg")
    c, d, t = darr_by_hand(h, m, units, 25)
    assert c + d > 0
    assert got["M1"]["darr_tau"] == pytest.approx((c - d - t) / (c + d + t), abs=1e-12)
    assert got["M1"]["darr_tau_noties"] == pytest.approx((c - d) / (c + d), abs=1e-12)
    assert got["M1"]["darr_tau_pairs"] == c + d + t
    agree = [np.sign(h[i] - h[j]) == np.sign(m[i] - m[j])
             for i, j in itertools.combinations(range(len(h)), 2)]
    assert got["M1"]["accuracy"] == pytest.approx(np.mean(agree), abs=1e-12)


def test_grouping_item_and_system(tiny):
    path, truth = tiny
    h, m, units, systems = vectors(truth, "M1", "seg")
    for grouping, labels in (("item", units), ("system", np.array(systems))):
        got = records(path, "-G", "seg", "--criterion", "DA", "--bootstrap", "0", "-m", "M1",
                      "--grouping", grouping, "--coef", "pearson,spearman,kendall_tau_b")
        for coef, fn in (("pearson", scipy.stats.pearsonr), ("spearman", scipy.stats.spearmanr),
                         ("kendall_tau_b", scipy.stats.kendalltau)):
            per = []
            for g in np.unique(labels):
                ix = labels == g
                if ix.sum() >= 2:
                    with np.errstate(all="ignore"):
                        import warnings
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            v = fn(h[ix], m[ix])[0]
                    if not np.isnan(v):
                        per.append(v)
            assert got["M1"][coef] == pytest.approx(np.mean(per), abs=1e-12), (grouping, coef)
        assert got["M1"]["n_groups"] == len(per)


def test_exclusions_and_dr_reading(tiny):
    path, truth = tiny
    got = records(path, "-G", "sys", "--criterion", "DA", "--bootstrap", "0", "--coef",
                  "pearson", "--exclude-human", "--exclude", "outliers", "--dr")
    kept = ["sA", "sB", "sC", "sD"]
    h = np.array([truth.sys_da[t] for t in kept])
    dr = np.array([np.mean([truth.doc["M1"][t, d] for d in DOCS]) for t in kept])
    assert got["M1"]["n_targets"] == 4
    assert got["M1"]["reading"] == "doc_mean"
    assert got["M1"]["pearson"] == pytest.approx(scipy.stats.pearsonr(h, dr)[0], abs=1e-12)
    named = records(path, "-G", "sys", "--criterion", "DA", "--bootstrap", "0", "--coef",
                    "pearson", "-s", "sA,sB,sC,ref2", "--exclude-human")
    assert named["M1"]["targets"] == "sA sB sC"  # the old option still drops named humans
    derived = records(path, "-G", "sys", "--criterion", "DA", "--bootstrap", "0", "--coef",
                      "pearson", "-s", "sA,sB,sC,ref2", "--human", "derived")
    seg = truth.seg_human()
    hd = [np.mean([v for (t, _), v in seg.items() if t == s]) for s in ("sA", "sB", "sC", "ref2")]
    md = [truth.sys["M1"][s] for s in ("sA", "sB", "sC", "ref2")]
    assert derived["M1"]["human_source"] == "derived"
    assert derived["M1"]["pearson"] == pytest.approx(scipy.stats.pearsonr(hd, md)[0], abs=1e-12)


def test_human_translations_need_include_human(tiny):
    path, truth = tiny
    args = ("-G", "seg", "--criterion", "DA", "--bootstrap", "0", "--coef", "pearson")
    out = json.loads(run(path, *args, "--format", "json"))
    assert out["run"]["targets"] == SYSTEMS and out["run"]["left_out"] == {
        "ref2": "human translation"}
    got = records(path, *args, "--include-human")
    h, m, _, _ = vectors(truth, "M1", "seg", TARGETS)
    assert got["M1"]["n_targets"] == 6 and got["M1"]["n_items"] == len(h)
    assert got["M1"]["pearson"] == pytest.approx(scipy.stats.pearsonr(h, m)[0], abs=1e-12)


def test_metrics_are_correlated_on_common_items(tiny, tmp_path):
    """M3 scores three systems on the first document only: M1 is correlated there too."""
    path, truth = tiny
    copy = tmp_path / "common.duckdb"
    copy.write_bytes(path.read_bytes())
    some = ("sA", "sB", "sC")
    m3 = {(t, s): float(s * 7 % 5 + ord(t[-1])) for t in some for s in range(1, 4)}
    with Store(copy) as store:
        ids = store.translators(store.testbed_id("tiny"))
        store.con.execute("insert into metric (metric_id, name, family, linguistic_level, "
                          "higher_is_better, description) values (3, 'M3', 'test', 'lexical', "
                          "true, 'test metric')")
        for (t, s), v in m3.items():
            store.con.execute("insert into seg_score values (3, ?, 1, 'case:mixed', ?, ?, null, "
                              "1)", [ids[t], s, v])
    args = ("-G", "seg", "--criterion", "DA", "--bootstrap", "0", "--coef",
            "pearson,kendall_tau_b", "-m", "M1,M3")
    got = records(copy, *args)
    human = truth.seg_human()
    keys = sorted(k for k in m3 if k in human)
    h = [human[k] for k in keys]
    for metric, scores in (("M1", [truth.seg["M1"][k] for k in keys]),
                           ("M3", [m3[k] for k in keys])):
        assert got[metric]["n_items"] == len(keys) == 8  # sA lacks a judgment of segment 2
        assert got[metric]["pearson"] == pytest.approx(scipy.stats.pearsonr(h, scores)[0],
                                                       abs=1e-12)
        assert got[metric]["kendall_tau_b"] == pytest.approx(
            scipy.stats.kendalltau(h, scores)[0], abs=1e-12)
    run_info = json.loads(run(copy, *args, "--format", "json"))["run"]
    assert run_info["targets"] == list(some) and run_info["n_items"] == 8
    assert run_info["left_out"] == {"ref2": "human translation"}  # scored by M1 only
    assert set(run_info["dropped_targets"]) == {"sD", "sE"}
    own = records(copy, *args, "--own-items")
    assert own["M1"]["n_items"] == len(vectors(truth, "M1", "seg")[0])
    with Store(copy) as store:
        sql = dict(store.query("select metric, n_items from meta_corr('tiny', 'seg', 'DA', "
                               "'ref1', metrics := ['M1', 'M3'], common_items := true)"))
    assert sql == {"M1": 8, "M3": 8}
    with Store(copy) as store:  # M4 scores only sD: nothing is common to M3 and M4
        store.con.execute("insert into metric (metric_id, name, family, linguistic_level, "
                          "higher_is_better, description) values (4, 'M4', 'test', 'lexical', "
                          "true, 'test metric')")
        store.con.execute("insert into seg_score values (4, ?, 1, 'case:mixed', 1, 0.5, null, 1)",
                          [ids["sD"]])
    refused = CliRunner().invoke(app, ["--db", str(copy), "meta", "-G", "seg", "--criterion",
                                       "DA", "-m", "M3,M4", "--coef", "pearson"])
    assert refused.exit_code == 1 and "--own-items" in refused.output


def test_bootstrap_is_seeded_and_brackets_the_estimate(tiny):
    path, _ = tiny
    args = ("-G", "seg", "--criterion", "Z", "--bootstrap", "200", "--coef",
            "pearson,kendall_tau_b,darr_tau", "--threshold", "0.5")
    first, again = records(path, *args, "--seed", "3"), records(path, *args, "--seed", "3")
    other = records(path, *args, "--seed", "4")
    # Intervals repeat exactly; point estimates come from DuckDB's parallel corr(), whose
    # last bit may differ between runs.
    for metric in first:
        for key, value in first[metric].items():
            assert again[metric][key] == (pytest.approx(value, abs=1e-14)
                                          if isinstance(value, float) else value), key
        assert {k: v for k, v in first[metric].items() if "_lo" in k or "_hi" in k} == \
            {k: v for k, v in again[metric].items() if "_lo" in k or "_hi" in k}
    assert first["M1"]["seed"] == 3 and first["M1"]["n_resamples"] == 200
    assert first["M1"]["pearson_lo95"] != other["M1"]["pearson_lo95"]
    for coef in ("pearson", "kendall_tau_b", "darr_tau"):
        rec = first["M1"]
        assert rec[f"{coef}_lo99"] <= rec[f"{coef}_lo95"] <= rec[f"{coef}_hi95"] \
            <= rec[f"{coef}_hi99"]
        assert rec[f"{coef}_lo99"] <= rec[coef] <= rec[f"{coef}_hi99"]


def test_formats_sort_and_significance(tiny):
    path, _ = tiny
    base = ("-G", "seg", "--criterion", "Z", "--bootstrap", "50", "--coef", "pearson,spearman")
    table = run(path, *base, "--sort", "pearson")
    assert "Pearson" in table and "95% [" in table and "seed 1234" in table
    rows = list(csv.DictReader(io.StringIO(run(path, *base, "--format", "csv", "--fisher"))))
    assert [r["metric"] for r in rows] == ["M1", "M2"] and "pearson_hi99" in rows[0]
    assert float(rows[0]["pearson_lo95_fisher"]) < float(rows[0]["pearson"])
    latex = run(path, *base, "--format", "latex")
    assert r"\begin{tabular}{lrrr}" in latex and r"\scriptsize[" in latex
    sig = json.loads(run(path, *base, "--sig", "paired-bootstrap", "--format", "json"))
    assert len(sig["significance"]) == 1 and 0 <= sig["significance"][0]["p_value"] <= 1
    # M1 and M2 score the same items: --own-items changes nothing and --sig is allowed
    own = json.loads(run(path, *base, "--own-items", "--sig", "paired-bootstrap", "--format",
                         "json"))
    assert own["run"]["items"] == "own"
    assert own["significance"][0]["p_value"] == sig["significance"][0]["p_value"]
    assert own["significance"][0]["delta"] == pytest.approx(sig["significance"][0]["delta"],
                                                            abs=1e-12)
    # CSV keeps stdout one table: the significance table goes to --sig-out.
    refused = CliRunner().invoke(app, ["--db", str(path), "meta", *base, "--sig",
                                       "paired-bootstrap", "--format", "csv"])
    assert refused.exit_code == 1 and "--sig-out" in refused.output
    out = path.parent / "sig.csv"
    text = run(path, *base, "--sig", "paired-bootstrap", "--format", "csv", "--sig-out", str(out))
    assert len(list(csv.DictReader(io.StringIO(text)))) == 2
    written = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert written[0]["p_value"] == str(sig["significance"][0]["p_value"])


def test_bad_confidence_levels_and_threshold(tiny):
    path, _ = tiny
    for args in (("--ci", "0.9"), ("--ci", "120"), ("--ci", "x"), ("--threshold", "-1")):
        result = CliRunner().invoke(app, ["--db", str(path), "meta", "-G", "seg",
                                          "--criterion", "Z", *args])
        assert result.exit_code != 0, args
        assert "Traceback" not in result.output


def test_missing_scores_say_run_score(tiny):
    path, _ = tiny
    result = CliRunner().invoke(app, ["--db", str(path), "meta", "-r", "ref2", "--criterion",
                                      "DA"])
    assert result.exit_code == 1
    assert "ulcdb score" in result.output


def test_every_meta_option_is_documented():
    command = typer.main.get_command(app).commands["meta"]
    undocumented = [p.name for p in command.params
                    if isinstance(p, TyperOption) and not (p.help or "").strip()]
    assert len(command.params) > 20 and undocumented == []
    assert "Example: ulcdb meta" in (command.help or "")


# -- SQL and Python agree ---------------------------------------------------------------------


@pytest.mark.parametrize("grouping", ["flat", "item", "system"])
def test_sql_correlations_equal_stats(tiny, grouping):
    path, _ = tiny
    with Store(path) as store:
        items = store.con.execute(
            "select metric, unit, translator, human, score from meta_items('tiny', 'seg', "
            "'DA', 'ref1') order by metric, translator, unit").fetchall()
        sql = {m: (p, s) for m, p, s in store.query(
            "select metric, pearson, spearman from meta_corr('tiny', 'seg', 'DA', 'ref1', "
            "grouping_by := ?)", [grouping])}
    for metric in ("M1", "M2"):
        rows = [r for r in items if r[0] == metric]
        h, m = np.array([r[3] for r in rows]), np.array([r[4] for r in rows])
        groups = {"flat": None, "item": np.array([r[1] for r in rows]),
                  "system": np.array([r[2] for r in rows])}[grouping]
        if groups is None:
            want = correlations.pearson(h, m), correlations.spearman(h, m)
        else:
            want = correlations.grouped("pearson", h, m,
                                        groups)[0], correlations.grouped("spearman", h, m,
                                                                            groups)[0]
        assert sql[metric][0] == pytest.approx(want[0], abs=1e-12)
        assert sql[metric][1] == pytest.approx(want[1], abs=1e-12)


@pytest.mark.parametrize("threshold", [0.5, 25, 0])
def test_sql_darr_equals_stats(tiny, threshold):
    path, _ = tiny
    with Store(path) as store:
        items = store.con.execute(
            "select metric, unit, human, score from meta_items('tiny', 'seg', 'DA', 'ref1')"
        ).fetchall()
        sql = {m: (c, d, t, tau, nt) for m, c, d, t, tau, nt in store.query(
            "select metric, concordant, discordant, ties, tau, tau_noties "
            "from darr_tau('tiny', 'seg', 'DA', 'ref1', threshold := ?)", [threshold])}
    for metric in ("M1", "M2"):
        rows = [r for r in items if r[0] == metric]
        h, m = np.array([r[2] for r in rows]), np.array([r[3] for r in rows])
        units = np.array([r[1] for r in rows])
        pairs = correlations.darr_pairs(h, m, units, threshold)
        assert sql[metric][:3] == pairs.counts()
        assert sql[metric][3] == pytest.approx(correlations.darr_tau(h, m, units, threshold),
                                               abs=1e-12)
        assert sql[metric][4] == pytest.approx(
            correlations.darr_tau(h, m, units, threshold, ties="ignore"), abs=1e-12)


def test_meta_human_marks_ingested_and_derived(tiny):
    path, truth = tiny
    with Store(path) as store:
        doc = store.query("select translator, unit, human, human_source, n_segments "
                          "from meta_human('tiny', 'doc', 'DA')")
        sys_ = store.query("select distinct human_source from meta_human('tiny', 'sys', 'DA')")
        forced = store.query("select distinct human_source from meta_human('tiny', 'sys', 'DA', "
                             "human_from := 'derived')")
        fewer = store.query("select translator, unit from meta_human('tiny', 'doc', 'DA', "
                            "min_segments := 3)")
    want = truth.doc_human()
    assert {(t, u): h for t, u, h, _, _ in doc} == pytest.approx(want)
    assert {s for *_, s, _ in doc} == {"derived"}
    assert sys_ == [("ingested",)] and forced == [("derived",)]
    assert ("sE", "d3") not in {tuple(r) for r in fewer}  # d3 has 2 segments, sE 1 judged
    assert ("sA", "d1") not in {tuple(r) for r in fewer}  # sA lacks segment 2


# -- the library API ---------------------------------------------------------------------------


def test_compare_by_permutation_is_seeded(tiny):
    path, _ = tiny
    task = MetaTask("tiny", "seg", "Z", "ref1", coefficients=("pearson",), n_resamples=100,
                    seed=5)
    with Store(path) as store:
        report = evaluate(store, task)
    first = compare(report, "pearson", "permutation")
    assert first == compare(report, "pearson", "permutation")
    assert first[0].result.delta >= 0 and first[0].result.seed == 5


# -- WMT20 through the store, the way the WMT20 metrics task did it ----------------------------
# Published values: Mathur et al. (2020), Table 6 (system level, en-de, Pearson, outliers and
# human translations excluded) and Table 12 (document level DARR tau; the corrected numbers
# that mt-metrics-eval's data_test.py lists).  The store is built here with plain Python from
# ../shared/testbeds/wmt20_metrics (texts are not part of that data: translations are empty).

WMT20_METRICS = ("sentBLEU", "BLEU", "COMET", "prism", "chrF")


def _tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _wmt20_rows(root: Path, level: str, metric: str):
    import gzip

    path = root / "metrics" / level / f"{metric}.{level}.tsv{'.gz' if level != 'sys' else ''}"
    if not path.exists():
        return []
    opener = gzip.open if level != "sys" else open
    with opener(path, "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return [r for r in rows if r[1] == "en-de" and r[3] == "newstest2020"]


def build_wmt20(root: Path, path: Path) -> dict:
    details = [line.split() for line in open(root / "input_details" / "en-de.txt",
                                             encoding="utf-8")]
    seg_of = {(doc, int(k)): int(sid) for sid, _, _, doc, k in details}
    docs = list(dict.fromkeys(d[3] for d in details))
    sys_rows = _tsv(root / "human" / "da_sys.en-de.tsv")
    systems = [r["system"] for r in sys_rows]
    n = len(details)
    data = TestbedData(
        name="wmt20.en-de", src_lang="en", tgt_lang="de", documents=[Document(d) for d in docs],
        segments=[SourceSegment(int(sid), doc, int(k), "") for sid, _, _, doc, k in details],
        translators=[TranslatorText(s, "system", [""] * n) for s in systems]
        + [TranslatorText("newstest2020", "reference", [""] * n)])
    outliers = [r["system"] for r in _tsv(root / "human" / "outliers.tsv") if r["lp"] == "en-de"]
    with Store(path) as store:
        load_testbed(store, data)
        tid = store.testbed_id("wmt20.en-de")
        save_set(store, tid, NamedSet("system", "human", [
            r["system"] for r in sys_rows if r["is_human_translation"] == "1"]))
        save_set(store, tid, NamedSet("system", "outliers", outliers))
        ids = store.translators(tid)
        con = store.con
        con.execute("insert into refset (testbed_id, name, size) values (?, 'newstest2020', 1)",
                    [tid])
        rid = store.scalar("select refset_id from refset where name = 'newstest2020'")
        con.execute("insert into refset_member values (?, ?)", [rid, ids["newstest2020"]])
        bid = store.scalar("insert into score_batch (family, signature) values ('wmt20', "
                           "'official') returning batch_id")
        for metric in WMT20_METRICS:
            mid = store.scalar("insert into metric (name, family, linguistic_level, "
                               "higher_is_better, description, origin) values (?, 'wmt20', "
                               "'other', true, 'WMT20 official', 'imported') returning "
                               "metric_id", [metric])
            common = {"metric_id": mid, "refset_id": rid, "variant": "official",
                      "batch_id": bid}
            for level, table in (("sys", "sys_score"), ("doc", "doc_score"),
                                 ("seg", "seg_score")):
                rows = [r for r in _wmt20_rows(root, level, metric) if r[4] in ids]
                cols = {k: [v] * len(rows) for k, v in common.items()}
                cols["translator_id"] = [ids[r[4]] for r in rows]
                cols["value"] = [float(r[-1]) for r in rows]
                if level == "doc":
                    cols["doc_id"] = [r[5] for r in rows]
                if level == "seg":
                    cols["seg_id"] = [seg_of[r[5], int(r[6])] for r in rows]
                store.insert_columns(table, cols)
        da = [Assessment(r["system"], "DA-z", float(r["da_z"]), "sys") for r in sys_rows]
        da += [Assessment(r["system"], "DA-raw", float(r["da_raw"]), "doc", None, r["doc_id"])
               for r in _tsv(root / "human" / "da_doc.en-de.tsv")]
        da += [Assessment(r["system"], "DA-raw", float(r["da_raw"]), "seg", int(r["line_id"]))
               for r in _tsv(root / "human" / "da_seg.en-de.tsv")]
        load_assessments(store, "wmt20.en-de", da, root / "human")
    return {"outliers": outliers}


@pytest.fixture(scope="module")
def wmt20(shared, tmp_path_factory) -> Path:
    root = shared / "testbeds" / "wmt20_metrics"
    if not (root / "human" / "da_sys.en-de.tsv").exists():
        pytest.skip("wmt20_metrics en-de not in shared data")
    path = tmp_path_factory.mktemp("wmt20") / "wmt20.duckdb"
    build_wmt20(root, path)
    return path


def test_wmt20_system_level(wmt20):
    base = ("-t", "wmt20.en-de", "-G", "sys", "-c", "DA-z", "-r", "newstest2020", "-B", "0",
            "--coef", "pearson,kendall_tau_b", "--exclude-human")
    clean = records(wmt20, *base, "--exclude", "outliers")
    for metric, want in (("sentBLEU", 0.823), ("BLEU", 0.825), ("COMET", 0.863),
                         ("prism", 0.851)):
        assert clean[metric]["pearson"] == pytest.approx(want, abs=5e-4), metric
        assert clean[metric]["n_targets"] == 11
    full = records(wmt20, *base)
    assert full["sentBLEU"]["pearson"] == pytest.approx(0.934, abs=5e-4)
    assert full["sentBLEU"]["n_items"] == 14


def test_wmt20_document_level_darr(wmt20):
    got = records(wmt20, "-t", "wmt20.en-de", "-G", "doc", "-c", "DA-raw", "-r", "newstest2020",
                  "-B", "100", "--coef", "darr_tau", "--exclude-human", "--exclude", "outliers",
                  "--threshold", "25", "--min-segments", "2")
    for metric, want in (("sentBLEU", 0.411), ("COMET", 0.433), ("prism", 0.389)):
        assert got[metric]["darr_tau"] == pytest.approx(want, abs=5e-4), metric
        assert got[metric]["darr_tau_pairs"] == 275
        assert got[metric]["human_source"] == "ingested"
        assert got[metric]["darr_tau_lo95"] < want < got[metric]["darr_tau_hi95"]


def test_wmt20_segment_level_darr_is_kendall_like(wmt20):
    got = records(wmt20, "-t", "wmt20.en-de", "-G", "seg", "-c", "DA-raw", "-r", "newstest2020",
                  "-B", "0", "-m", "chrF", "--coef", "darr_tau", "--exclude-human",
                  "--exclude", "outliers")
    with Store(wmt20) as store:
        rows = store.query(
            "select s.seg_id, t.name, s.value, a.value from seg_score s "
            "join translator t using (translator_id) "
            "join assessment a on a.translator_id = s.translator_id and a.seg_id = s.seg_id "
            "where a.level = 'seg' and a.criterion = 'DA-raw' and s.metric_id = "
            "(select metric_id from metric where name = 'chrF')")
    excluded = {"Human-A.0", "Human-B.0", "Human-P.0", "Online-G.1556",
                "WMTBiomedBaseline.388", "zlabs-nlp.179"}
    by_seg: dict[int, list] = {}
    for seg, system, metric, human in rows:
        if system not in excluded:
            by_seg.setdefault(seg, []).append((human, metric))
    c = d = 0
    for pairs in by_seg.values():
        for a, b in itertools.combinations(pairs, 2):
            diff = a[0] - b[0]
            if abs(diff) >= 25:
                if diff > 0 and a[1] > b[1] or diff < 0 and a[1] < b[1]:
                    c += 1
                else:
                    d += 1
    assert got["chrF"]["darr_tau_pairs"] == c + d
    assert got["chrF"]["darr_tau"] == pytest.approx((c - d) / (c + d), abs=1e-12)


@pytest.mark.parametrize(("fields", "message"), [
    ({"grouping": "flt"}, "grouping 'flt': choose flat, item or system (did you mean flat?)"),
    ({"items": "mine"}, "items 'mine': choose common or own"),
    ({"level": "sys", "resample": "seg"}, "at sys level, resample 'seg': choose sys"),
    ({"coefficients": ("pearson", "Pearson")},
     "coefficient 'Pearson': choose pearson, spearman, kendall_tau_b, kendall_tau_c, "
     "darr_tau, darr_tau_noties or accuracy (did you mean pearson?)"),
])
def test_metatask_refuses_a_choice_in_the_one_wording(fields: dict[str, object],
                                                      message: str) -> None:
    """MetaTask said "grouping must be one of flat, item, system, not 'flt'" as a MetaError;
    now every command's line, an error both ``except ChoiceError`` and ``except MetaError``
    catch (MetaChoiceError)."""
    from ulcdb.errors import ChoiceError, MetaChoiceError, MetaError
    from ulcdb.meta.task import MetaTask

    args = {"testbed": "t", "level": "seg", "criterion": "c", "refset": "r", **fields}
    with pytest.raises(MetaChoiceError) as raised:
        MetaTask(**args)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert isinstance(raised.value, ChoiceError) and isinstance(raised.value, MetaError)
