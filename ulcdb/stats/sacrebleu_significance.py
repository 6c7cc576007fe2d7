"""Paired significance tests between two systems, as sacrebleu 2.6.0 runs them.

Pure functions over per-unit sufficient statistics (one row per segment or document): a
metric is a function from the column sums of its statistics to its corpus score, so BLEU,
chrF and TER are recomputed by their corpus formulas on every resample, and a metric that is
a mean of segment scores has the statistics ``[value, 1]`` and the score ``sum / count``.

Fidelity: the random draws, dtypes and formulas are sacrebleu's (``significance.py``):
paired bootstrap resampling (Koehn 2004) draws ``rng.choice(n, (resamples, n))`` from
``default_rng(seed)`` and sums float32 statistics; the p-value counts centred absolute
resampled differences above the real one, ``(c + 1) / (resamples + 1)``; the interval is the
2.5/97.5 order statistics (``n // 40``), reported as the mean +- half their distance.
Approximate randomization (Riezler and Maxwell 2005) swaps each unit's output with
``rng.integers(2, (trials, n), dtype=bool)``.  With sacrebleu's score functions and the seed
12345 the results equal ``sacrebleu --paired-bs`` / ``--paired-ar``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ulcdb.stats.correlations import FloatArray, IntArray

# Column sums of the statistics: float32 on resamples (as sacrebleu sums them), exact int64
# where every statistic is integral, float64 otherwise.
Sums = NDArray[np.float32] | NDArray[np.float64] | NDArray[np.int64]
Score = Callable[[Sums], float]  # column sums of the statistics -> corpus score
# The same for each row of a block of float32 sums at once (each row's value bit for bit).
ManyScores = Callable[[NDArray[np.float32]], NDArray[np.float64]]

SACREBLEU_SEED = 12345
BS_RESAMPLES, AR_TRIALS = 1000, 10000


def resamples_needed(tests: int, alpha: float) -> int:
    """The fewest resamples (or trials) ``n`` whose smallest p-value, ``1 / (n + 1)``, stays
    below ``alpha`` after Holm-Bonferroni over ``tests`` tests: ``tests / (n + 1) < alpha``.
    With fewer, no data could come out significant."""
    n = max(1, math.floor(tests / alpha) - 1)
    while tests / (n + 1) >= alpha:
        n += 1
    return n


def default_resamples(method: str, tests: int, alpha: float) -> int:
    """sacrebleu's default (1000 resamples, 10000 trials), or more where ``tests`` pairs
    need them: the least thousand whose smallest Holm-adjusted p-value is at most
    ``alpha / 2`` (a clear difference, which almost no resample contradicts, comes out)."""
    base = BS_RESAMPLES if method == "bs" else AR_TRIALS
    return max(base, 1000 * math.ceil(resamples_needed(2 * tests, alpha) / 1000))


def smallest_p(tests: int, resamples: int) -> float:
    """The smallest p-value ``resamples`` can give after Holm over ``tests`` tests."""
    return min(1.0, tests / (resamples + 1))


@dataclass(frozen=True)
class SymmetricInterval:
    mean: float
    half_width: float  # sacrebleu's "+-"
    low: float  # the 2.5% and 97.5% order statistics
    high: float


@dataclass(frozen=True)
class Paired:
    """One system against the baseline: its score, p-value and (bootstrap) interval."""

    score: float
    baseline: float
    p_value: float
    interval: SymmetricInterval | None


def estimate_ci(scores: FloatArray) -> SymmetricInterval:
    """sacrebleu's ``estimate_ci``: mean and the 95% order-statistic interval."""
    ordered = np.sort(scores)
    n = len(ordered)
    lower = n // 40
    low, high = float(ordered[lower]), float(ordered[n - lower - 1])
    return SymmetricInterval(float(ordered.mean()), 0.5 * (high - low), low, high)


def p_value(samples: FloatArray, real_difference: float) -> float:
    """(number of samples above the real statistic + 1) / (samples + 1) (multeval's)."""
    return (int(np.sum(samples > real_difference)) + 1) / (len(samples) + 1)


def bootstrap_indices(n_units: int, resamples: int, seed: int | None) -> IntArray:
    """The resamples sacrebleu draws: one row of unit indices per resample."""
    return np.random.default_rng(seed).choice(n_units, size=(resamples, n_units),
                                              replace=True)


def resampled_scores(stats: FloatArray, idxs: IntArray, score: Score,
                     many: ManyScores | None = None) -> FloatArray:
    """The score of every resample, from float32 statistics as sacrebleu sums them: a block
    of resamples summed at once adds each one's rows in the same order as
    ``f32[row].sum(0)``, so the sums are sacrebleu's bit for bit; ``many`` scores a block's
    rows at once where the metric has it."""
    f32 = np.asarray(stats, dtype="float32")
    block = max(1, _BLOCK_BYTES // max(1, f32.nbytes))
    out = np.empty(len(idxs))
    for start in range(0, len(idxs), block):
        sums = f32[idxs[start:start + block]].sum(1)
        out[start:start + len(sums)] = many(sums) if many else [score(row) for row in sums]
    return out


_BLOCK_BYTES = 32 * 2**20  # resampled statistics summed at once


def sacrebleu_paired_bs(baseline: FloatArray, system: FloatArray, score: Score,
                     resamples: int = BS_RESAMPLES, seed: int | None = SACREBLEU_SEED,
                     idxs: IntArray | None = None,
                     baseline_scores: FloatArray | None = None,
                     many: ManyScores | None = None) -> Paired:
    """Paired bootstrap resampling of ``system`` against ``baseline`` (sacrebleu's
    ``_paired_bs_test``); ``idxs``/``baseline_scores`` reuse draws shared by many systems."""
    if idxs is None:
        idxs = bootstrap_indices(len(system), resamples, seed)
    bl = (resampled_scores(baseline, idxs, score, many) if baseline_scores is None
          else baseline_scores)
    sy = resampled_scores(system, idxs, score, many)
    return paired_from_samples(corpus_score(baseline, score), corpus_score(system, score),
                               bl, sy)


def paired_from_samples(bl_score: float, sys_score: float, bl: FloatArray,
                        sy: FloatArray) -> Paired:
    diffs = np.abs(sy - bl)
    return Paired(sys_score, bl_score, p_value(diffs - diffs.mean(), abs(bl_score - sys_score)),
                  estimate_ci(sy))


def corpus_score(stats: FloatArray, score: Score) -> float:
    """The score of the whole set, summing the statistics as sacrebleu does (exact
    integers where they are integral)."""
    return score(_exact(stats).sum(0))


def _exact(stats: FloatArray) -> FloatArray | IntArray:
    arr = np.asarray(stats, dtype="float64")
    return arr.astype("int64") if np.all(arr == np.round(arr)) else arr


def sacrebleu_paired_ar(baseline: FloatArray, system: FloatArray, score: Score,
                         trials: int = AR_TRIALS, seed: int | None = SACREBLEU_SEED) -> Paired:
    """Paired approximate randomization (sacrebleu's ``_paired_ar_test``, no interval)."""
    rng = np.random.default_rng(seed)
    pos = rng.integers(2, size=(trials, len(system)), dtype=bool)
    neg = ~pos
    bl, sy = _exact(baseline), _exact(system)
    shuf_a, shuf_b = pos @ bl + neg @ sy, neg @ bl + pos @ sy
    a = np.array([score(x) for x in shuf_a])
    b = np.array([score(x) for x in shuf_b])
    bl_score, sys_score = corpus_score(baseline, score), corpus_score(system, score)
    return Paired(sys_score, bl_score, p_value(np.abs(a - b), abs(bl_score - sys_score)), None)


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone, capped at 1)."""
    order = np.argsort(p_values, kind="stable")
    m = len(p_values)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted.tolist()


def clusters(ranked: list[str], worse: Callable[[str, str], bool]) -> list[int]:
    """WMT-style significance clusters of systems ranked best first: a new cluster starts
    at a system significantly worse than every system above it (``worse(lower, upper)``)."""
    out: list[int] = []
    for j, name in enumerate(ranked):
        new = j > 0 and all(worse(name, above) for above in ranked[:j])
        out.append(1 if j == 0 else out[-1] + (1 if new else 0))
    return out
