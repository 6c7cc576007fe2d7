"""The meta-evaluation's repeated work done once (issue 28): compare_metrics searches each
metric's acc-t epsilon once, not again for both metrics of every pair, and a SPA significance
test computes the human p-value matrix once, not on every resample.  The numbers stay those
of tests/stats/test_wmt23_stats.py (MTME's own); here the calls are counted and the results
compared with the pair-by-pair computation."""

from __future__ import annotations

import numpy as np
import pytest

from ulcdb.stats import mt_metrics_eval

H = [[-1, 0, -5, -2, 0, -1], [-1, -2, -5, 0, 0, np.nan], [0, -1, -10, -2, -1, -3],
     [-3, 0, -5, -1, 0, -1]]
M1 = [[0.81, 0.93, 0.42, 0.70, 0.95, 0.77], [0.80, 0.71, 0.45, 0.90, 0.94, 0.60],
      [0.88, 0.85, 0.20, 0.72, 0.90, 0.55], [0.60, 0.92, 0.47, 0.79, 0.96, 0.80]]
M2 = [[0.70, 0.90, 0.50, 0.60, 0.90, 0.70], [0.70, 0.80, 0.40, 0.80, 0.90, 0.70],
      [0.90, 0.70, 0.30, 0.70, 0.80, 0.60], [0.70, 0.90, 0.50, 0.70, 0.90, 0.80]]
M3 = (np.array(M1) + np.array(M2)) / 2
PSD = mt_metrics_eval.PermParams(block_size=100, early_min=0.02, early_max=0.5)


def test_epsilon_searched_once_per_metric(monkeypatch: pytest.MonkeyPatch) -> None:
    metrics = {"a": M1, "b": M2, "c": M3}
    stat = mt_metrics_eval.TiesOpt("acc23", "item")
    calls = []
    search = mt_metrics_eval.tau_optimization
    monkeypatch.setattr(mt_metrics_eval, "tau_optimization", lambda *a, **k: calls.append(1) or
                        search(*a, **k))
    res = mt_metrics_eval.compare_metrics(H, metrics, stat, 200, PSD, perm_test="pairs",
                                          random_state=5)
    assert len(calls) == 3  # once per metric (3 + 2 per pair = 9 before)
    # the same p-values as each pair tested on its own, epsilons searched there
    monkeypatch.setattr(mt_metrics_eval, "tau_optimization", search)
    rs = np.random.RandomState(5)
    h = np.asarray(H, dtype=float)
    for name in metrics:
        stat(h, np.asarray(metrics[name], dtype=float), rs)
    for a in range(3):
        for b in range(a + 1, 3):
            p = mt_metrics_eval.perm_pairs(H, metrics[res.names[b]], metrics[res.names[a]], "acc23",
                                 "item", 200, PSD, random_state=rs).p_value
            assert res.sig_matrix[a, b] == p


def test_human_p_values_once_per_spa_test(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    p_values = mt_metrics_eval.pairwise_p_values
    monkeypatch.setattr(mt_metrics_eval, "pairwise_p_values",
                        lambda *a: calls.append(1) or p_values(*a))
    mt_metrics_eval._human_p_values.cache_clear()
    res = mt_metrics_eval.perm_both(H, M2, M1, mt_metrics_eval.SoftPairwiseAccuracy(200, 7), 100,
                                    PSD,
                          random_state=5)
    # the metric's matrix per statistic (2 + 2 per resample), the human one once
    assert len(calls) == 2 + 2 * res.k_used + 1
