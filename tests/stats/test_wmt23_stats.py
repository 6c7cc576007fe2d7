"""ulcdb.stats.mt_metrics_eval against numbers produced by mt-metrics-eval's own functions.

The expected values were obtained by running google-research/mt-metrics-eval (MTME, commit
68a481aea1a787392d55af8f76ac8ef40c5f4664) on the vectors below; MTME is not imported here.
Setup (outside the repository):

    mkdir -p /tmp/mtme/mt_metrics_eval /tmp/mtme/stubs
    for f in __init__ stats pce tau_optimization data meta_info ratings; do
      git --git-dir=$MTME show HEAD:mt_metrics_eval/$f.py > /tmp/mtme/mt_metrics_eval/$f.py
    done
    touch /tmp/mtme/stubs/apache_beam.py /tmp/mtme/stubs/dacite.py   # data.py's imports only

and, in Python (numpy 2.4.6, scipy 1.17.1, Python 3.11):

    import functools, sys
    sys.path[:0] = ['/tmp/mtme', '/tmp/mtme/stubs']
    import numpy as np
    from mt_metrics_eval import data, stats, pce
    N = None
    flat = lambda mat: [x for row in mat for x in row]
    # H_SYS, M_SYS, H (N for the NaN), M1, M2, HS, MS, MS2, GH, GM, SIG as below.
    c1 = stats.Correlation(4, flat(H), flat(M1))
    c2 = stats.Correlation(4, flat(H), flat(M2))

Each test quotes the call that gave its numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

from ulcdb.stats import mt_metrics_eval

N = np.nan
TIGHT = {"rel": 1e-12, "abs": 1e-12}

# System level: 6 systems, ties in the human scores.
H_SYS = [0.5, 0.3, 0.9, 0.1, 0.7, 0.3]
M_SYS = [0.62, 0.40, 0.85, 0.15, 0.61, 0.45]
# Segment level: 4 systems x 6 segments (MQM-like, one human score missing).
H = [[-1, 0, -5, -2, 0, -1], [-1, -2, -5, 0, 0, N], [0, -1, -10, -2, -1, -3],
     [-3, 0, -5, -1, 0, -1]]
M1 = [[0.81, 0.93, 0.42, 0.70, 0.95, 0.77], [0.80, 0.71, 0.45, 0.90, 0.94, 0.60],
      [0.88, 0.85, 0.20, 0.72, 0.90, 0.55], [0.60, 0.92, 0.47, 0.79, 0.96, 0.80]]
M2 = [[0.70, 0.90, 0.50, 0.60, 0.90, 0.70], [0.70, 0.80, 0.40, 0.80, 0.90, 0.70],
      [0.90, 0.70, 0.30, 0.70, 0.80, 0.60], [0.70, 0.90, 0.50, 0.70, 0.90, 0.80]]
# SPA: 4 systems x 8 segments.
HS = [[-1, 0, -5, -2, 0, -1, -3, 0], [-1, -2, -5, 0, 0, -4, -1, -1],
      [0, -1, -10, -2, -1, -3, -2, -6], [-3, 0, -5, -1, 0, -1, 0, 0]]
MS = [[0.81, 0.93, 0.42, 0.70, 0.95, 0.77, 0.60, 0.90],
      [0.80, 0.71, 0.45, 0.90, 0.94, 0.60, 0.81, 0.83],
      [0.88, 0.85, 0.20, 0.72, 0.90, 0.55, 0.70, 0.50],
      [0.60, 0.92, 0.47, 0.79, 0.96, 0.80, 0.91, 0.88]]
MS2 = [[0.7, 0.9, 0.5, 0.6, 0.9, 0.7, 0.8, 0.9], [0.7, 0.8, 0.4, 0.8, 0.9, 0.7, 0.6, 0.9],
       [0.9, 0.7, 0.3, 0.7, 0.8, 0.6, 0.7, 0.7], [0.7, 0.9, 0.5, 0.7, 0.9, 0.8, 0.8, 0.9]]
# Global accuracy: two language pairs of 4 and 3 systems, three metrics.
GH = [[0.5, 0.3, 0.9, 0.1], [2.0, 1.0, 3.0]]
GM = {"A": [[0.6, 0.4, 0.8, 0.3], [0.2, 0.1, 0.3]], "B": [[0.6, 0.4, 0.3, 0.5], [0.3, 0.1, 0.2]],
      "C": [[0.6, 0.6, 0.8, 0.1], [0.1, 0.3, 0.2]]}
SIG = [[0, 0.30, 0.04, 0.01, 0.00], [0, 0, 0.20, 0.06, 0.01], [0, 0, 0, 0.50, 0.03],
       [0, 0, 0, 0, 0.05], [0, 0, 0, 0, 0]]
PSD = mt_metrics_eval.PermParams(block_size=100, early_min=0.02, early_max=0.5)
# MTME: psd = stats.PermutationSigDiffParams(100, 0.02, 0.5)


def test_acc23_system_level() -> None:
    # stats.KendallWithTiesOpt(H_SYS, M_SYS, 'acc23', sample_rate=1.0)[:2]
    assert mt_metrics_eval.acc23(H_SYS, M_SYS) == pytest.approx((0.9333333333333333, 0.05), **TIGHT)


def test_tau23_system_level() -> None:
    # stats.KendallWithTiesOpt(H_SYS, M_SYS, '23', sample_rate=1.0)[:2]
    assert mt_metrics_eval.tau23(H_SYS, M_SYS) == pytest.approx((0.8666666666666667, 0.05), **TIGHT)


def test_acc23_item_averaged_segment_level() -> None:
    # stats.KendallWithTiesOpt(flat(H), flat(M1), 'acc23', 4, 'item', 1.0)[:2]
    acc, eps = mt_metrics_eval.acc23(H, M1, average_by="item")
    assert acc == pytest.approx(0.9722222222222222, **TIGHT)
    assert eps == pytest.approx(0.030000000000000027, **TIGHT)


def test_tau23_item_averaged_segment_level() -> None:
    # stats.KendallWithTiesOpt(flat(H), flat(M1), '23', 4, 'item', 1.0)[:2]
    assert mt_metrics_eval.tau23(H, M1, average_by="item") == pytest.approx(
        (0.9444444444444448, 0.030000000000000027), **TIGHT)


def test_acc23_flattened_segment_level() -> None:
    # stats.KendallWithTiesOpt(flat(H), flat(M1), 'acc23', 4, 'none', 1.0)[:2]
    assert mt_metrics_eval.acc23(H, M1, average_by="none") == pytest.approx(
        (0.9288537549407114, 0.05999999999999994), **TIGHT)


def test_acc23_sampled_pairs_same_draws() -> None:
    # np.random.seed(11)
    # stats.KendallWithTiesOpt(flat(H), flat(M1), 'acc23', 4, 'item', 0.5)[:2]
    assert mt_metrics_eval.acc23(H, M1, "item", sample_rate=0.5, random_state=11) == pytest.approx(
        (0.9583333333333334, 0.05), **TIGHT)
    np.random.seed(11)  # random_state=None draws from the global generator, as MTME
    assert mt_metrics_eval.acc23(H, M1, "item", sample_rate=0.5) == pytest.approx(
        (0.9583333333333334, 0.05), **TIGHT)


def test_acc23_fixed_epsilon() -> None:
    # c1.KendallVariants('item', 'acc23', 0.05)[0]
    assert mt_metrics_eval.kendall_variant(H, M1, "acc23", 0.05, "item") == pytest.approx(
        0.9444444444444445, **TIGHT)


def test_tau_optimization_candidates() -> None:
    r = mt_metrics_eval.tau_optimization(H_SYS, M_SYS, "acc23")
    assert r.thresholds[0] == 0.0 and np.all(np.diff(r.thresholds) > 0)
    assert r.taus[int(np.argmax(r.thresholds == r.epsilon))] == r.tau == np.max(r.taus)


def test_pairwise_p_values() -> None:
    # pce.compute_pairwise_p_values(np.array(HS, float))[np.triu_indices(4, 1)].tolist()
    p = mt_metrics_eval.pairwise_p_values(HS)
    assert p[np.triu_indices(4, 1)].tolist() == pytest.approx(
        [0.396, 0.093, 0.755, 0.118, 0.86, 0.973], **TIGHT)
    assert np.isnan(p[np.tril_indices(4)]).all()


def test_soft_pairwise_accuracy() -> None:
    # stats.PairwiseConfidenceError(flat(HS), flat(MS), 4)[0]
    assert mt_metrics_eval.soft_pairwise_accuracy(HS, MS) == pytest.approx(0.9618333333333333,
                                                                           **TIGHT)


def test_soft_pairwise_accuracy_drops_missing_segments() -> None:
    h = np.array(HS, dtype=float)
    h[:, 2] = np.nan
    keep = [0, 1, 3, 4, 5, 6, 7]
    expected = mt_metrics_eval.soft_pairwise_accuracy(np.array(HS)[:, keep], np.array(MS)[:, keep])
    assert mt_metrics_eval.soft_pairwise_accuracy(h, MS) == expected


def test_global_accuracy() -> None:
    # Accuracies that CompareMetricsWithGlobalAccuracy reports (see test_compare_global).
    assert mt_metrics_eval.global_accuracy(GH, GM["A"]) == pytest.approx(1.0, **TIGHT)
    assert mt_metrics_eval.global_accuracy(GH, GM["B"]) == pytest.approx(0.4444444444444444,
                                                                         **TIGHT)
    assert mt_metrics_eval.global_accuracy(GH, GM["C"]) == pytest.approx(0.6666666666666666,
                                                                         **TIGHT)


def test_compare_global_accuracy_perm_both() -> None:
    # corr = lambda nm, i: stats.Correlation(len(GH[i]), GH[i], GM[nm][i])
    # class Evs:  # stands in for data.EvalSet
    #   def __init__(self, i): self.corrs = {nm: corr(nm, i) for nm in GM}
    #   def DisplayName(self, m, fmt='spreadsheet'): return m
    # data.GetCorrelations = lambda evs, *a, **k: evs.corrs
    # np.random.seed(3)
    # res = data.CompareMetricsWithGlobalAccuracy(
    #     [Evs(0), Evs(1)], [None] * 2, [None] * 2, False, False, 'x', True, k=1000)
    # res[0] -> {'A': [1.0, 1], 'C': [0.6666666666666666, 1], 'B': [0.4444444444444444, 1]}
    # res[1][np.triu_indices(3, 1)].tolist() -> [0.112, 0.142, 0.343]
    h, sizes = mt_metrics_eval.concat_lps(GH)
    metrics = {name: mt_metrics_eval.concat_lps(v)[0] for name, v in GM.items()}
    res = mt_metrics_eval.compare_metrics(h, metrics, mt_metrics_eval.GlobalAccuracy(sizes), k=1000,
                                random_state=3)
    assert res.names == ["A", "C", "B"]
    assert res.scores == pytest.approx([1.0, 0.6666666666666666, 0.4444444444444444], **TIGHT)
    assert res.ranks == [1, 1, 1]
    assert res.sig_matrix[np.triu_indices(3, 1)].tolist() == pytest.approx(
        [0.112, 0.142, 0.343], **TIGHT)


def test_perm_both_spa() -> None:
    # pw = functools.partial(stats.PairwiseConfidenceError, num_sys=4, filter_nones=False)
    # cs1 = stats.Correlation(4, flat(HS), flat(MS))
    # cs2 = stats.Correlation(4, flat(HS), flat(MS2))
    # np.random.seed(5)
    # stats.PermutationSigDiff(cs2, cs1, pw, 'none', 1000, psd)[:3]
    # -> (0.05, 0.04933333333333334, 1000)
    res = mt_metrics_eval.perm_both(HS, MS2, MS, mt_metrics_eval.SoftPairwiseAccuracy(), 1000, PSD,
                                    random_state=5)
    assert res.p_value == pytest.approx(0.05, **TIGHT)
    assert res.delta == pytest.approx(0.04933333333333334, **TIGHT)
    assert res.k_used == 1000


def test_perm_both_acc23_early_stop() -> None:
    # np.random.seed(5)
    # stats.PermutationSigDiff(
    #     c2, c1, stats.KendallWithTiesOpt, 'item', 200, psd, sample_rate=1.0)[:3]
    # -> (0.0, 0.22222222222222232, 100)
    res = mt_metrics_eval.perm_both(H, M2, M1, mt_metrics_eval.TiesOpt("acc23", "item"), 200, PSD,
                                    random_state=5)
    assert res.p_value == 0.0
    assert res.delta == pytest.approx(0.22222222222222232, **TIGHT)
    assert res.k_used == 100


def test_perm_pairs_acc23() -> None:
    # np.random.seed(5)
    # stats.PairwisePermutationSigDiff(c2, c1, 'acc23', 'item', 1000, psd)[:3]
    # -> (0.017, 0.22222222222222232, 1000)
    res = mt_metrics_eval.perm_pairs(H, M2, M1, "acc23", "item", 1000, PSD, random_state=5)
    assert res.p_value == pytest.approx(0.017, **TIGHT)
    assert res.delta == pytest.approx(0.22222222222222232, **TIGHT)
    assert res.k_used == 1000


def test_global_generator_reaches_sampled_statistics() -> None:
    """random_state=None (MTME's global generator) with sampled pairs: the statistics inside
    the permutation tests draw from that same generator (they raised TypeError on the module
    np.random before, found by mypy --strict, issue 18).  np.random.seed(5) gives the draws
    of RandomState(5), i.e. of random_state=5."""
    seeded = mt_metrics_eval.perm_pairs(H, M2, M1, "acc23", "item", 50, PSD, sample_rate=0.5,
                              random_state=5)
    np.random.seed(5)
    assert mt_metrics_eval.perm_pairs(H, M2, M1, "acc23", "item", 50, PSD,
                                      sample_rate=0.5) == seeded
    stat = mt_metrics_eval.TiesOpt("acc23", "item", 0.5)
    seeded = mt_metrics_eval.perm_both(H, M2, M1, stat, 50, PSD, random_state=5)
    np.random.seed(5)
    assert mt_metrics_eval.perm_both(H, M2, M1, stat, 50, PSD) == seeded
    assert 0.0 <= seeded.p_value <= 1.0 and seeded.k_used == 50


def test_assign_ranks() -> None:
    # data.AssignRanks(np.array(SIG), 0.05) -> [1, 1, 2, 2, 3]
    assert mt_metrics_eval.assign_ranks(SIG, 0.05) == [1, 1, 2, 2, 3]
    assert mt_metrics_eval.assign_ranks(np.zeros((0, 0))) == []


def test_input_checks() -> None:
    with pytest.raises(ValueError):
        mt_metrics_eval.acc23(H_SYS, M_SYS[:-1])
    with pytest.raises(ValueError):
        mt_metrics_eval.acc23(H, M1, average_by="doc")
    with pytest.raises(ValueError):
        mt_metrics_eval.acc23(H, M1, sample_rate=0.0)
    with pytest.raises(ValueError):
        mt_metrics_eval.compare_metrics(HS, {"a": MS}, mt_metrics_eval.SoftPairwiseAccuracy(),
                                        perm_test="pairs")


@pytest.mark.parametrize("seed", [0, 5, 1234])
def test_coin_flips_are_mtmes_binomial_draws(seed: int) -> None:
    # The permutation tests draw MTME's np.random.binomial(1, 0.5, n) as random(n) > 0.5
    # (issue 28): the same values, and the generator left where binomial leaves it.
    mtme, ours = np.random.RandomState(seed), np.random.RandomState(seed)
    for n in (1, 2, 37, 33728):
        assert np.array_equal(mtme.binomial(1, 0.5, n), mt_metrics_eval._coin_flips(ours, n))
    assert mtme.random() == ours.random()


def test_compare_metrics_pairs_finds_each_metrics_pairs_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 28: the pairwise permutation column formed both metrics' pairs again for every
    # pair of metrics (2 x 6 times here); now once per metric, after the epsilon search's
    # once per metric.  Same p-values as perm_pairs called pair by pair in MTME's order.
    h = np.array(H, dtype=float)
    metrics = {"a": np.array(M1), "b": np.array(M2), "c": np.array(M1) * 0.5 + np.array(M2),
               "d": np.round(np.array(M2), 1)}
    found = []
    real = mt_metrics_eval.pairs
    monkeypatch.setattr(mt_metrics_eval, "pairs", lambda *a: found.append(1) or real(*a))
    stat = mt_metrics_eval.TiesOpt("acc23", "item")
    res = mt_metrics_eval.compare_metrics(h, metrics, stat, 300, PSD, perm_test="pairs",
                                          random_state=7)
    assert len(found) == 2 * len(metrics)
    rs = np.random.RandomState(7)
    eps = {n: mt_metrics_eval.acc23(h, m, "item")[1] for n, m in metrics.items()}
    for a, b in zip(*np.triu_indices(len(metrics), 1), strict=True):
        m1, m2 = res.names[b], res.names[a]
        expected = mt_metrics_eval.perm_pairs(h, metrics[m1], metrics[m2], "acc23", "item", 300,
                                              PSD, eps[m1], eps[m2], random_state=rs)
        assert res.sig_matrix[a, b] == expected.p_value
