"""ulcdb.stats.correlations: coefficients against scipy, DARR by hand, resampling, and WMT20
published values.

Published values: Mathur et al. (2020), "Results of the WMT20 Metrics Shared Task", Table 6
(system-level Pearson, en-de, outliers and human translations excluded), Tables 5-6 for
sentBLEU in full and without outliers, and Table 12 (document-level DARR tau, en-de; the
corrected numbers as mt-metrics-eval's data_test.py lists them).
"""

from __future__ import annotations

import csv
import gzip
import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.stats

from ulcdb.stats import bootstrap, correlations


def _pairs(seed: int, n: int, tied: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    h = rng.normal(size=n)
    m = 0.5 * h + rng.normal(size=n)
    if tied:
        h, m = np.round(h * 2) / 2, np.round(m)
    return h, m


VECTORS = [(seed, n, tied) for seed, n in ((1, 3), (2, 10), (3, 57), (4, 400), (5, 3000))
           for tied in (False, True)]


@pytest.mark.parametrize(("seed", "n", "tied"), VECTORS)
def test_coefficients_equal_scipy(seed, n, tied):
    h, m = _pairs(seed, n, tied)
    assert correlations.pearson(h, m) == pytest.approx(scipy.stats.pearsonr(h, m)[0], abs=1e-12)
    assert correlations.spearman(h, m) == pytest.approx(scipy.stats.spearmanr(h, m)[0], abs=1e-12)
    assert correlations.kendall_tau_b(h, m) == pytest.approx(scipy.stats.kendalltau(h, m)[0],
                                                      abs=1e-12)
    tau_c = scipy.stats.kendalltau(h, m, variant="c")[0]
    assert correlations.kendall_tau_c(h, m) == pytest.approx(tau_c, abs=1e-12)


def test_undefined_coefficients_are_nan():
    const = np.ones(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (correlations.pearson, correlations.spearman, correlations.kendall_tau_b,
                   correlations.kendall_tau_c):
            assert math.isnan(fn(const, np.arange(5.0)))
        assert math.isnan(correlations.pearson([1.0], [2.0]))


def test_kendall_stats_count_pairs_like_brute_force():
    h, m = _pairs(9, 60, True)
    c = d = th = tm = tb = 0
    for i, j in itertools.combinations(range(60), 2):
        sh, sm = np.sign(h[i] - h[j]), np.sign(m[i] - m[j])
        th += sh == 0
        tm += sm == 0
        tb += sh == 0 and sm == 0
        c += sh * sm > 0
        d += sh * sm < 0
    k = correlations.kendall_stats(h, m)
    assert (k.concordant, k.discordant, k.human_ties, k.metric_ties, k.both_ties) == \
        (c, d, th, tm, tb)


def test_darr_hand_computed():
    # Segment 1: A=90, B=60, C=10 (human); metric A=0.9, B=0.9, C=0.2.
    # Pairs with |dh| >= 25: A>B (metric tie), A>C (concordant), B>C (concordant).
    # Segment 2: A=50, B=80 (human); metric A=0.7, B=0.1: B>A discordant.  C is alone.
    human = [90, 60, 10, 50, 80, 40]
    metric = [0.9, 0.9, 0.2, 0.7, 0.1, 0.5]
    seg = [1, 1, 1, 2, 2, 3]
    pairs = correlations.darr_pairs(human, metric, seg, 25)
    assert pairs.counts() == (2, 1, 1)
    assert correlations.darr_tau(human, metric, seg) == pytest.approx((2 - 1 - 1) / 4)
    assert correlations.darr_tau(human, metric, seg, ties="ignore") == pytest.approx((2 - 1) / 3)
    # Threshold 35: the pairs 30 apart (A>B in segment 1, B>A in segment 2) drop out.
    assert correlations.darr_pairs(human, metric, seg, 35).counts() == (2, 0, 0)


def _kendall_like(gold, metric, thresh):
    """mt-metrics-eval's KendallLike, restated: pairs with |gold diff| >= thresh."""
    c = d = 0
    for a, b in itertools.combinations(zip(gold, metric, strict=True), 2):
        diff = a[0] - b[0]
        if abs(diff) >= thresh:
            if diff > 0 and a[1] > b[1] or diff < 0 and a[1] < b[1]:
                c += 1
            else:
                d += 1
    return c, d


def test_darr_equals_kendall_like_per_item_pooled():
    rng = np.random.default_rng(3)
    items = np.repeat(np.arange(40), 8)
    h = rng.integers(0, 11, size=items.size) * 10.0
    m = np.round(rng.normal(size=items.size), 1)
    c = d = 0
    for g in range(40):
        ix = items == g
        cc, dd = _kendall_like(h[ix], m[ix], 25)
        c, d = c + cc, d + dd
    assert correlations.darr_tau(h, m, items, 25) == pytest.approx((c - d) / (c + d), abs=1e-12)


def test_pairwise_accuracy_ties():
    human = [1, 2, 3, 3]
    metric = [1, 3, 2, 2]
    # Pairs: (1,2) agree, (1,3) agree, (1,4) agree, (2,3) disagree, (2,4) disagree,
    # (3,4) tied in both: agreement under acc_eq, left out with skip_human_ties.
    assert correlations.pairwise_accuracy(human, metric) == pytest.approx(4 / 6)
    assert correlations.pairwise_accuracy(human, metric, "skip_human_ties") == pytest.approx(3 / 5)


def test_grouped_averages_defined_groups():
    h, m = _pairs(4, 30, False)
    groups = np.repeat([0, 1, 2], 10)
    groups[-1] = 3  # a group of one item is skipped
    want = [scipy.stats.pearsonr(h[groups == g], m[groups == g])[0] for g in (0, 1, 2)]
    value, n = correlations.grouped("pearson", h, m, groups)
    assert n == 3 and value == pytest.approx(np.mean(want), abs=1e-12)


# -- resampling -----------------------------------------------------------------------------


def test_bootstrap_counts_are_seeded():
    a, b = correlations.bootstrap_counts(50, 100, 42), correlations.bootstrap_counts(50, 100, 42)
    assert np.array_equal(a, b) and a.shape == (100, 50)
    assert (a.sum(axis=1) == 50).all()
    assert not np.array_equal(a, correlations.bootstrap_counts(50, 100, 43))


def _materialised(fn, units, counts):
    return np.array([fn(correlations.resample_indices(units, row)) for row in counts])


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(11)
    seg = np.repeat(np.arange(25), 6)  # 25 segments x 6 systems
    system = np.tile(np.arange(6), 25)
    h = np.round(rng.normal(size=seg.size), 1)
    m = np.round(h + rng.normal(size=seg.size), 1)
    return h, m, seg, system


@pytest.mark.parametrize("unit", ["seg", "system"])
def test_replicates_equal_materialised_resamples(sample, unit):
    h, m, seg, system = sample
    units = seg if unit == "seg" else system
    counts = correlations.bootstrap_counts(units.max() + 1, 15, 1)
    got = bootstrap.replicates_many(correlations.COEFFICIENTS, h, m, units, counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in correlations.COEFFICIENTS:
            want = _materialised(lambda ix, n=name: correlations.coefficient(n, h[ix], m[ix]),
                                 units, counts)
            np.testing.assert_allclose(got[name], want, atol=1e-12, err_msg=name)


@pytest.mark.parametrize(("grouping", "unit"), [("seg", "seg"), ("system", "seg"),
                                                ("seg", "system")])
def test_grouped_replicates_equal_materialised(sample, grouping, unit):
    h, m, seg, system = sample
    groups = seg if grouping == "seg" else system
    units = seg if unit == "seg" else system
    counts = correlations.bootstrap_counts(units.max() + 1, 8, 2)
    got = bootstrap.grouped_replicates("kendall_tau_b", h, m, groups, units, counts)

    def one(row):
        # A unit drawn twice contributes two copies of its items: copies of a segment are
        # separate groups when grouping by segment; otherwise they join their group.
        ix = correlations.resample_indices(units, row)
        copy = np.concatenate([np.full(int((units == u).sum()), k) for u, c in enumerate(row)
                               for k in range(int(c))])
        g = groups[ix] * 1000 + copy if grouping == unit else groups[ix]
        return correlations.grouped("kendall_tau_b", h[ix], m[ix], g)[0]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.array([one(row) for row in counts])
    np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("unit", ["seg", "system"])
def test_darr_replicates_equal_materialised(sample, unit):
    h, m, seg, system = sample
    h = h * 20
    units = seg if unit == "seg" else system
    counts = correlations.bootstrap_counts(units.max() + 1, 10, 3)
    got = bootstrap.darr_replicates(correlations.darr_pairs(h, m, seg, 25), units, counts)
    want = []
    for row in counts:
        ix = correlations.resample_indices(units, row)
        copy = np.concatenate([np.full(int((units == u).sum()), k) for u, c in enumerate(row)
                               for k in range(int(c))])
        # Copies of a segment are separate segments; copies of a system stay in its segment.
        g = seg[ix] * 1000 + copy if unit == "seg" else seg[ix]
        want.append(correlations.darr_tau(h[ix], m[ix], g, 25))
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_percentile_ci_and_fisher():
    lo, hi = correlations.percentile_ci(np.arange(101.0), 0.9)
    assert (lo, hi) == pytest.approx((5.0, 95.0))
    # r = 0.5, n = 28: z = atanh(0.5) = 0.5493, se = 1/5; 95%: z +- 1.96 * 0.2.
    lo, hi = correlations.fisher_ci(0.5, 28, 0.95)
    z, half = math.atanh(0.5), scipy.stats.norm.ppf(0.975) / 5
    assert (lo, hi) == pytest.approx((math.tanh(z - half), math.tanh(z + half)))
    assert lo == pytest.approx(0.1560, abs=1e-4) and hi == pytest.approx(0.7358, abs=1e-4)
    assert all(math.isnan(v) for v in correlations.fisher_ci(0.5, 3, 0.95))


def test_paired_bootstrap_and_permutation():
    rng = np.random.default_rng(5)
    h = rng.normal(size=300)
    good, bad = h + 0.3 * rng.normal(size=300), h + 2 * rng.normal(size=300)
    units = np.arange(300)
    counts = correlations.bootstrap_counts(300, 300, 9)
    ra = bootstrap.replicates("pearson", h, good, units, counts)
    rb = bootstrap.replicates("pearson", h, bad, units, counts)
    res = correlations.koehn_paired_bootstrap(correlations.pearson(h, good),
                                              correlations.pearson(h, bad), ra, rb, 9)
    assert res.delta > 0 and res.p_value < 0.01
    perm = correlations.permutation_test(lambda m: correlations.pearson(h, m), good, bad, 200,
                                         seed=9)
    assert perm.p_value < 0.01
    assert perm == correlations.permutation_test(lambda m: correlations.pearson(h, m), good, bad,
                                                 200, seed=9)
    same = correlations.permutation_test(lambda m: correlations.pearson(h, m), good, good.copy(),
                                         100)
    assert (same.delta, same.p_value) == (0.0, 1.0)  # every swap leaves delta at 0 >= 0


def test_permutation_p_matches_exhaustive_enumeration():
    """On 10 items every one of the 2^10 swap patterns can be tried: the exact one-sided
    p-value; the sampled test must come within sampling error of it."""
    rng = np.random.default_rng(4)
    h = rng.normal(size=10)
    a, b = h + 0.8 * rng.normal(size=10), h + 1.0 * rng.normal(size=10)
    za, zb = (a - a.mean()) / a.std(), (b - b.mean()) / b.std()

    def stat(m):
        return correlations.pearson(h, m)

    observed = stat(za) - stat(zb)
    hits = 0
    for pattern in range(2 ** 10):
        swap = np.array([(pattern >> k) & 1 for k in range(10)], dtype=bool)
        hits += stat(np.where(swap, zb, za)) - stat(np.where(swap, za, zb)) >= observed
    exact = hits / 2 ** 10
    sampled = correlations.permutation_test(stat, a, b, 20000, seed=4)
    assert 0.05 < exact < 0.95
    assert abs(sampled.p_value - exact) < 0.015


# -- WMT20 published values ---------------------------------------------------------------------


def _wmt20_sys(root, lp: str, metric: str):
    human = {r["system"]: r for r in csv.DictReader(
        open(root / "human" / f"da_sys.{lp}.tsv", encoding="utf-8"), delimiter="\t")}
    scores = {}
    with open(root / "metrics" / "sys" / f"{metric}.sys.tsv", encoding="utf-8") as f:
        for line in f:
            _, pair, _, refset, system, value = line.rstrip("\n").split("\t")
            if pair == lp and refset == "newstest2020":
                scores[system] = float(value)
    return human, scores


# (lp, metric): (Pearson with outliers, without); human translations excluded throughout.
WMT20_SYS = {
    ("en-de", "sentBLEU"): (0.934, 0.823), ("de-en", "sentBLEU"): (0.978, 0.786),
    ("ru-en", "sentBLEU"): (0.916, 0.833), ("zh-en", "sentBLEU"): (0.948, 0.950),
    ("en-de", "BLEU"): (None, 0.825), ("en-de", "COMET"): (None, 0.863),
    ("en-de", "BLEURT-extended"): (None, 0.870), ("en-de", "prism"): (None, 0.851),
    ("en-de", "YiSi-0"): (None, 0.889),
}


@pytest.mark.parametrize(("lp", "metric"), list(WMT20_SYS))
def test_wmt20_system_level_pearson(shared, lp, metric):
    root = shared / "testbeds" / "wmt20_metrics"
    human, scores = _wmt20_sys(root, lp, metric)
    full = [s for s in scores if s in human and human[s]["is_human_translation"] == "0"]
    clean = [s for s in full if human[s]["is_outlier"] == "0"]
    for systems, want in zip((full, clean), WMT20_SYS[lp, metric], strict=True):
        if want is None:
            continue
        h = [float(human[s]["da_z"]) for s in systems]
        m = [scores[s] for s in systems]
        assert correlations.pearson(h, m) == pytest.approx(want, abs=5e-4)
        assert correlations.kendall_tau_b(h, m) == pytest.approx(scipy.stats.kendalltau(h, m)[0],
                                                          abs=1e-12)


@pytest.mark.parametrize(("metric", "want"), [("sentBLEU", 0.411), ("COMET", 0.433),
                                              ("prism", 0.389)])
def test_wmt20_document_level_darr(shared, metric, want):
    root = shared / "testbeds" / "wmt20_metrics"
    lp = "en-de"
    flags = {r["system"]: r for r in csv.DictReader(
        open(root / "human" / f"da_sys.{lp}.tsv", encoding="utf-8"), delimiter="\t")}
    keep = {s for s, r in flags.items() if r["is_human_translation"] == r["is_outlier"] == "0"}
    human = {(r["system"], r["doc_id"]): float(r["da_raw"]) for r in csv.DictReader(
        open(root / "human" / f"da_doc.{lp}.tsv", encoding="utf-8"), delimiter="\t")
        if r["system"] in keep and int(r["n_segments"]) >= 2}
    scores = {}
    with gzip.open(root / "metrics" / "doc" / f"{metric}.doc.tsv.gz", "rt",
                   encoding="utf-8") as f:
        for line in f:
            _, pair, _, refset, system, doc, value = line.rstrip("\n").split("\t")
            if pair == lp and refset == "newstest2020" and (system, doc) in human:
                scores[system, doc] = float(value)
    keys = sorted(scores)
    h = np.array([human[k] for k in keys])
    m = np.array([scores[k] for k in keys])
    docs = np.array([k[1] for k in keys])
    pairs = correlations.darr_pairs(h, m, docs, 25)
    assert sum(pairs.counts()) == 275
    assert correlations.darr_tau(h, m, docs, 25) == pytest.approx(want, abs=5e-4)


def test_tau_b_never_exceeds_one() -> None:
    """Perfect agreement is 1.0, not 1.0000000000000002 (sqrt(p)*sqrt(p) can round below p;
    scipy clips likewise)."""
    for n in (3, 4, 15, 18, 21):  # sizes where the rounding goes above 1
        ranks = list(range(n))
        assert correlations.kendall_tau_b(ranks, ranks) == 1.0
        assert correlations.kendall_tau_b(ranks, ranks[::-1]) == -1.0
