"""WMT23/WMT24 metric meta-evaluation statistics, as google-research/mt-metrics-eval computes them.

Pure numpy/scipy functions that reproduce mt-metrics-eval (MTME, ``mt_metrics_eval``) number for
number, random draws included:

- ``tau_optimization``, ``acc23``, ``tau23``: the tie-calibrated pairwise accuracy and tau of
  Deutsch et al. 2023 (``stats.KendallWithTiesOpt`` / ``tau_optimization.tau_optimization``):
  the best metric tie threshold epsilon and the statistic there; ``kendall_variant`` is the
  statistic at a given epsilon (``stats.KendallVariants`` averaged as ``AverageCorrelation``).
- ``pairwise_p_values``, ``soft_pairwise_accuracy``: WMT24 soft pairwise accuracy (``pce.py``).
- ``agreement``, ``global_accuracy``: system-level pairwise accuracy pooled over language pairs
  (``data.CompareMetricsWithGlobalAccuracy``).
- ``perm_both`` (``stats.PermutationSigDiff``), ``perm_pairs``
  (``stats.PairwisePermutationSigDiff``, the test WMT23/24 use for segment-level acc23),
  ``assign_ranks`` (``data.AssignRanks``) and ``compare_metrics`` (``data.CompareMetrics*``).

Inputs are arrays shaped (n_systems, n_segments), or (n_systems,) for system-level scores, with
NaN where a score is missing (MTME's ``None``).  ``average_by`` is MTME's: ``"none"`` (one
flattened row), ``"sys"`` (one row per system) or ``"item"`` (one row per segment).

Rows, pairs of scored entries and their kinds, and the random draws are in
``ulcdb.stats.score_pairs`` (imported here, so that ``mt_metrics_eval.pairs`` is the function
every statistic below calls).

Random draws: MTME uses NumPy's global legacy generator (``np.random``); so do these functions
when ``random_state`` is None.  An int seeds a private ``RandomState``, which draws what
``np.random.seed(int)`` followed by the MTME call would.  SPA uses its own seeded generator,
as MTME does (seed 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ulcdb.stats.score_pairs import (
    VARIANTS,
    Draws,
    FloatArray,
    Index,
    Pairs,
    RandomSource,
    _check,
    _kind_counts,
    _random,
    _subset,
    as_matrices,
    pair_kinds,
    pairs,
    rows,
)

# Numerator coefficients over (con, dis, ties_human, ties_metric, ties_both) of each variant.
_NUMERATOR: dict[str, NDArray[np.int_]] = {"acc23": np.array([1, 0, 0, 0, 1]),
                                          "23": np.array([1, -1, -1, -1, 1])}
# Change in that numerator when a pair of each kind becomes a metric tie.
_FLIP: dict[str, NDArray[np.int_]] = {"acc23": np.array([-1, 0, 1, 0, 0]),
                                     "23": np.array([-2, 0, 2, 0, 0])}


# -- tie-calibrated accuracy (WMT23) -----------------------------------------------------------


class TauOptimization(NamedTuple):
    """MTME's ``TauOptimizationResult``: the statistic at every candidate threshold."""

    tau: float
    epsilon: float
    thresholds: FloatArray
    taus: FloatArray


def _within_row_cumsum(row: Index, delta: NDArray[np.int_]) -> NDArray[np.int_]:
    """Running sum of ``delta`` over the earlier-or-equal positions of the same row."""
    by_row = np.argsort(row, kind="stable")
    d, r = delta[by_row], row[by_row]
    cs = np.cumsum(d)
    first = np.r_[True, r[1:] != r[:-1]] if r.size else np.zeros(0, bool)
    base = (cs - d)[first][np.cumsum(first) - 1]
    out = np.empty_like(cs)
    out[by_row] = cs - base
    return out


def _initial_total(present: Index, per_row: FloatArray) -> float:
    """Python's sum of the row statistics in the order MTME's set of rows iterates them."""
    rows_seen: set[int] = set()
    for r in present.tolist():
        rows_seen.add(r)
    order = list(rows_seen)
    return float(sum(per_row[order].tolist()))


def tau_optimization(human: ArrayLike, metric: ArrayLike, variant: str = "acc23",
                     average_by: str = "none", sample_rate: float = 1.0,
                     random_state: RandomSource = None) -> TauOptimization:
    """MTME ``KendallWithTiesOpt``: the metric tie threshold that maximises the mean over rows
    of acc23 (or tau23), and that maximum.  Candidates are 0 and every |metric difference| of a
    pair; the first maximum wins.  With ``sample_rate`` < 1 each pair is kept with that
    probability (one uniform draw per pair, in MTME's order).  The running sum is formed in
    MTME's float order so that equal-valued thresholds resolve as MTME resolves them.
    Memory is O(pairs): fine per item or for system scores, not for "none" over 10^4 segments.
    No pair at all gives (NaN, 0.0) where MTME divides by zero."""
    _check("variant", variant, VARIANTS)
    if not 0 < sample_rate <= 1:
        raise ValueError(f"sample_rate must be in (0, 1], got {sample_rate}")
    p = pairs(*rows(human, metric, average_by))
    if sample_rate != 1.0:
        p = _subset(p, _random(random_state).random(p.row.size) <= sample_rate)
    present = np.unique(p.row)
    if not present.size:
        return TauOptimization(np.nan, 0.0, np.zeros(1), np.full(1, np.nan))
    kinds = pair_kinds(p.dh, p.dm)
    counts = _kind_counts(p, kinds)
    n_pairs = counts.sum(axis=1)
    num0 = counts @ _NUMERATOR[variant]
    with np.errstate(invalid="ignore", divide="ignore"):
        total0 = _initial_total(present, num0 / n_pairs)
    n_rows = len(present)
    diff = np.abs(p.dm)
    seq = np.argsort(diff, kind="stable")
    diff, row, delta = diff[seq], p.row[seq], _FLIP[variant][kinds[seq]]
    after = num0[row] + _within_row_cumsum(row, delta)
    steps = np.empty(2 * row.size + 1)
    steps[0], steps[1::2], steps[2::2] = total0, -(after - delta) / n_pairs[row], \
        after / n_pairs[row]
    overall = np.cumsum(steps)[2::2] / n_rows
    last = np.r_[diff[1:] != diff[:-1], True]
    thresholds, taus = diff[last], overall[last]
    if not (thresholds.size and thresholds[0] == 0.0):
        thresholds, taus = np.r_[0.0, thresholds], np.r_[total0 / n_rows, taus]
    best = int(np.nanargmax(taus))
    return TauOptimization(float(taus[best]), float(thresholds[best]), thresholds, taus)


def acc23(human: ArrayLike, metric: ArrayLike, average_by: str = "none",
          sample_rate: float = 1.0, random_state: RandomSource = None) -> tuple[float, float]:
    """(tie-calibrated pairwise accuracy, its epsilon); WMT23 segment level: average_by="item"."""
    r = tau_optimization(human, metric, "acc23", average_by, sample_rate, random_state)
    return r.tau, r.epsilon


def tau23(human: ArrayLike, metric: ArrayLike, average_by: str = "none",
          sample_rate: float = 1.0, random_state: RandomSource = None) -> tuple[float, float]:
    """(tie-calibrated tau_23, its epsilon)."""
    r = tau_optimization(human, metric, "23", average_by, sample_rate, random_state)
    return r.tau, r.epsilon


def _row_variant(counts: NDArray[np.intp], variant: str) -> NDArray[np.float64]:
    """Per row: the variant's numerator over the row's pairs (NaN for a row without pairs)."""
    pairs: NDArray[np.intp] = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts @ _NUMERATOR[variant]) / pairs


def kendall_variant(human: ArrayLike, metric: ArrayLike, variant: str = "acc23",
                    epsilon: float = 0.0, average_by: str = "none") -> float:
    """acc23 or tau23 at a fixed epsilon: MTME ``Correlation.KendallVariants`` (rows with fewer
    than 2 scores skipped, the rest averaged in order; 0 when none is left)."""
    _check("variant", variant, VARIANTS)
    if epsilon < 0:
        raise ValueError("epsilon must be non-negative")
    p = pairs(*rows(human, metric, average_by))
    vals = _row_variant(_kind_counts(p, pair_kinds(p.dh, p.dm, epsilon)), variant)
    vals = vals[(p.sizes >= 2) & ~np.isnan(vals)]
    total = 0.0
    for v in vals.tolist():
        total += v
    return total / len(vals) if len(vals) else 0.0


# -- soft pairwise accuracy (WMT24) ------------------------------------------------------------


@lru_cache(maxsize=8)
def _signs(num_permutations: int, n_segments: int, seed: int) -> NDArray[np.float32]:
    """pce.compute_pairwise_p_values's shared +-1 masks (float32)."""
    rng = np.random.default_rng(seed)
    s = rng.random(size=(num_permutations, n_segments), dtype=np.float32)
    np.rint(s, out=s, casting="same_kind")
    s *= 2.0
    s -= 1.0
    s.flags.writeable = False
    return s


def pairwise_p_values(seg_scores: ArrayLike, num_permutations: int = 1000,
                      seed: int = 4) -> FloatArray:
    """(n_systems, n_systems): upper triangle [i, j] is the one-sided paired permutation
    p-value of "system i > system j" (sums of segment scores, float32 as MTME); NaN elsewhere."""
    # float32 sums depend on memory layout: C order, as MTME's reshaped lists.
    scores = np.ascontiguousarray(seg_scores, dtype=float).astype(np.float32)
    n_sys, n_seg = scores.shape
    signs = _signs(num_permutations, n_seg, seed)
    totals = np.sum(scores, axis=1)
    partial = np.matmul(signs, scores.T)
    null = partial[:, :, None] - partial[:, None, :]
    hits = (null >= (totals[:, None] - totals[None, :])).sum(axis=0)
    out = np.full((n_sys, n_sys), np.nan)
    upper = np.triu_indices(n_sys, 1)
    out[upper] = hits[upper] / num_permutations
    return out


@lru_cache(maxsize=4)
def _human_p_values(scores: bytes, shape: tuple[int, int], num_permutations: int,
                    seed: int) -> FloatArray:
    """``pairwise_p_values`` of the human scores, computed once: a significance test
    resamples the metrics' scores only, the human matrix stays the same."""
    values = np.frombuffer(scores, dtype=float).reshape(shape)
    out = pairwise_p_values(values, num_permutations, seed)
    out.flags.writeable = False
    return out


def soft_pairwise_accuracy(human: ArrayLike, metric: ArrayLike, num_permutations: int = 1000,
                           seed: int = 4) -> float:
    """SPA = 1 - mean over system pairs of |p_human - p_metric| (MTME PairwiseConfidenceError).
    Segments with a missing score (any system, human or metric) are left out."""
    h, m = as_matrices(human, metric)
    keep = ~(np.isnan(h).any(axis=0) | np.isnan(m).any(axis=0))
    kept = np.ascontiguousarray(h[:, keep])
    ph = _human_p_values(kept.tobytes(), kept.shape, num_permutations, seed)
    pm = pairwise_p_values(m[:, keep], num_permutations, seed)
    upper = np.triu_indices(h.shape[0], 1)
    return float(1.0 - np.mean(np.abs(ph - pm)[upper]))


# -- global system-level accuracy --------------------------------------------------------------


def agreement(human: ArrayLike, metric: ArrayLike) -> tuple[int, int]:
    """MTME ``stats.Agreement``: (pairs whose differences have one sign, pairs), over the
    pairs of systems whose scores are present."""
    p = pairs(*rows(human, metric, "none"))
    return int(np.sum(np.sign(p.dh) == np.sign(p.dm))), int(p.row.size)


def concat_lps(per_lp: Sequence[ArrayLike]) -> tuple[FloatArray, tuple[int, ...]]:
    """System scores of several language pairs as one vector, and the number per pair."""
    vecs = [np.asarray(v, dtype=float).ravel() for v in per_lp]
    return np.concatenate(vecs), tuple(len(v) for v in vecs)


def global_accuracy(humans: Sequence[ArrayLike], metrics: Sequence[ArrayLike]) -> float:
    """Pairwise accuracy pooled over language pairs: agreements of all of them over all
    their system pairs (systems of different pairs are never compared)."""
    h, sizes = concat_lps(humans)
    m, msizes = concat_lps(metrics)
    if sizes != msizes:
        raise ValueError(f"systems per language pair differ: {sizes} and {msizes}")
    return GlobalAccuracy(sizes)(h, m)


# -- statistics for the permutation tests ------------------------------------------------------


@dataclass(frozen=True)
class Statistic:
    """A statistic of (human, metric) arrays that ``perm_both`` and ``compare_metrics`` use.
    A subclass that averages over items (not "none") must override ``entries`` with MTME's
    item-major order."""

    def __call__(self, human: FloatArray, metric: FloatArray, rs: RandomSource = None) -> float:
        raise NotImplementedError

    def entries(self, human: FloatArray, metric1: FloatArray,
                metric2: FloatArray) -> Index:
        """Flat indices of the entries PERM-BOTH z-scores and swaps, in MTME's draw order:
        those with a human score, system-major (``_ReshapeAndFilter``)."""
        return np.flatnonzero(~np.isnan(human.ravel()))


@dataclass(frozen=True)
class TiesOpt(Statistic):
    """acc23/tau23 with epsilon search (MTME ``KendallWithTiesOpt``)."""

    variant: str = "acc23"
    average_by: str = "item"
    sample_rate: float = 1.0

    def __call__(self, human: FloatArray, metric: FloatArray, rs: RandomSource = None) -> float:
        return tau_optimization(human, metric, self.variant, self.average_by,
                                self.sample_rate, rs).tau

    def entries(self, human: FloatArray, metric1: FloatArray,
                metric2: FloatArray) -> Index:
        # MTME z-scores and swaps every metric score here, human score or not.
        return np.flatnonzero(~(np.isnan(metric1.ravel()) | np.isnan(metric2.ravel())))


@dataclass(frozen=True)
class SoftPairwiseAccuracy(Statistic):
    """WMT24 SPA of (n_systems, n_segments) arrays."""

    num_permutations: int = 1000
    seed: int = 4

    def __call__(self, human: FloatArray, metric: FloatArray, rs: RandomSource = None) -> float:
        return soft_pairwise_accuracy(human, metric, self.num_permutations, self.seed)


@dataclass(frozen=True)
class GlobalAccuracy(Statistic):
    """Pooled system-level accuracy of vectors that concatenate language pairs of ``sizes``
    systems each (``concat_lps``)."""

    sizes: tuple[int, ...]

    def __call__(self, human: FloatArray, metric: FloatArray, rs: RandomSource = None) -> float:
        h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
        if h.shape != m.shape or h.size != sum(self.sizes):
            raise ValueError(f"need vectors of {sum(self.sizes)} system scores")
        bounds = np.r_[0, np.cumsum(self.sizes)]
        agree = n = 0
        for b, e in zip(bounds[:-1], bounds[1:], strict=True):
            a, k = agreement(h[b:e], m[b:e])
            agree, n = agree + a, n + k
        return agree / n if n else np.nan


# -- significance: PERM-BOTH, pairwise permutation, ranks --------------------------------------


@dataclass(frozen=True)
class PermParams:
    """MTME ``PermutationSigDiffParams`` (its Task objects use block_size=100)."""

    block_size: int = 1000
    early_min: float = 0.02  # stop at a block boundary if p < early_min
    early_max: float = 0.5  # or if p > early_max


class PermResult(NamedTuple):
    p_value: float  # of "metric2's statistic > metric1's"
    delta: float  # statistic(metric2) - statistic(metric1)
    k_used: int  # resamples drawn (early stopping)


def _coin_flips(rs: Draws, n: int) -> NDArray[np.int_]:
    """MTME's ``binomial(1, 0.5, n)``, the same numbers from the same state, 3-4x faster: the
    legacy generator draws one uniform U per value and returns U > 0.5 (its inversion
    sampler with n = 1, q**n = 0.5 exactly), which is what ``random(n) > 0.5`` compares."""
    return (rs.random(n) > 0.5).astype(np.int_)


def _nan_to_zero(value: float) -> float:
    return 0.0 if np.isnan(value) else value


def perm_both(human: ArrayLike, metric1: ArrayLike, metric2: ArrayLike, stat: Statistic,
              k: int = 1000, params: PermParams = PermParams(),
              random_state: RandomSource = None) -> PermResult:
    """MTME ``PermutationSigDiff`` (PERM-BOTH): both metrics z-scored, then each resample swaps
    every entry between them with probability 1/2; p is the share of resamples whose
    difference is >= the observed one.  Same draws as MTME for the same generator state."""
    rs = _random(random_state)
    h, m1, m2 = (np.asarray(a, dtype=float) for a in (human, metric1, metric2))
    if not h.shape == m1.shape == m2.shape:
        raise ValueError(f"shapes differ: {h.shape}, {m1.shape}, {m2.shape}")
    idx = stat.entries(h, m1, m2)
    import scipy.stats  # lazily: `ulcdb --help` stays quick
    z1, z2 = scipy.stats.zscore(m1.ravel()[idx]), scipy.stats.zscore(m2.ravel()[idx])
    generic = not isinstance(stat, TiesOpt)

    def corr(z: FloatArray) -> float:
        full = np.full(h.size, np.nan)
        full[idx] = z
        value = stat(h, full.reshape(h.shape), rs)
        return _nan_to_zero(value) if generic else value

    delta = corr(z2) - corr(z1)
    i = count = 0
    for i in range(1, k + 1):
        w1 = _coin_flips(rs, len(z1))
        w2 = 1 - w1
        c1, c2 = corr(w1 * z1 + w2 * z2), corr(w2 * z1 + w1 * z2)
        if c2 - c1 >= delta:
            count += 1
        if i % params.block_size == 0 and not (
                params.early_min <= count / i <= params.early_max):
            break
    i = max(i, 1)
    return PermResult(count / i, delta, i)


def perm_pairs(human: ArrayLike, metric1: ArrayLike, metric2: ArrayLike,
               variant: str = "acc23", average_by: str = "item", k: int = 1000,
               params: PermParams = PermParams(), epsilon1: float | None = None,
               epsilon2: float | None = None, sample_rate: float = 1.0,
               random_state: RandomSource = None) -> PermResult:
    """MTME ``PairwisePermutationSigDiff`` (WMT23/24 segment-level acc23): each metric's pair
    comparisons at its own epsilon (optimised if None); resamples swap pair outcomes between
    the metrics.  Its early stop is checked only on resamples that count (as in MTME)."""
    rs = _random(random_state)
    if epsilon1 is None:
        epsilon1 = tau_optimization(human, metric1, variant, average_by, sample_rate, rs).epsilon
    if epsilon2 is None:
        epsilon2 = tau_optimization(human, metric2, variant, average_by, sample_rate, rs).epsilon
    h, m1 = rows(human, metric1, average_by)
    m2 = rows(human, metric2, average_by)[1]
    p1, p2 = pairs(h, m1), pairs(h, m2)
    return _perm_pair_outcomes(p1, pair_kinds(p1.dh, p1.dm, epsilon1), p2,
                               pair_kinds(p2.dh, p2.dm, epsilon2), variant, k, params, rs)


def _perm_pair_outcomes(p1: Pairs, k1: NDArray[np.int_], p2: Pairs, k2: NDArray[np.int_],
                        variant: str, k: int, params: PermParams, rs: Draws) -> PermResult:
    """``perm_pairs`` on the two metrics' pairs and pair kinds (``compare_metrics`` finds each
    metric's once, not once per pair of metrics)."""
    if not (np.array_equal(p1.row, p2.row) and np.array_equal(p1.sizes, p2.sizes)):
        raise ValueError("the two metrics must score the same entries")
    # Position of each pair's (i, j), i < j, in one resample's n x n draws per row.
    starts = np.r_[0, np.cumsum(p1.sizes.astype(np.int64) ** 2)]
    pos = starts[p1.row] + p1.i * p1.sizes[p1.row] + p1.j

    # MTME's _Corr (the mean of the defined row values) from each pair's numerator: integers,
    # so every row sum below is exact, whatever the order of its terms.  A resample's row sums
    # are metric 2's plus the swapped pairs' differences (only pairs whose outcomes differ
    # matter), and the other metric's are the total minus those: bit for bit the sums of the
    # swapped outcome vectors, at a fraction of the work.
    v1, v2 = (_NUMERATOR[variant][kinds].astype(float) for kinds in (k1, k2))
    n_pairs = np.bincount(p1.row, minlength=p1.n_rows)
    keep = (p1.sizes > 0) & (n_pairs > 0)  # rows with a value (MTME drops the NaN rows)
    divisor = n_pairs[keep]
    sums1, sums2 = (np.bincount(p1.row, v, minlength=p1.n_rows)[keep] for v in (v1, v2))
    total = sums1 + sums2
    moved = np.flatnonzero(v1 != v2)
    moved_row, moved_pos, moved_by = p1.row[moved], pos[moved], (v1 - v2)[moved]

    def stat(sums: NDArray[Any]) -> float:
        return float((sums / divisor).mean()) if len(divisor) else 0.0

    delta = stat(sums2) - stat(sums1)
    r = count = 0
    for r in range(1, k + 1):
        w = _coin_flips(rs, int(starts[-1]))[moved_pos]
        c1_sums = sums2 + np.bincount(moved_row, w * moved_by, minlength=p1.n_rows)[keep]
        if stat(total - c1_sums) - stat(c1_sums) >= delta:
            count += 1
            if r % params.block_size == 0 and not (
                    params.early_min <= count / r <= params.early_max):
                break
    r = max(r, 1)
    return PermResult(count / r, delta, r)


def _pairs_p_value(h: FloatArray, arrays: Mapping[str, FloatArray], name1: str, name2: str,
                   stat: TiesOpt, k: int, params: PermParams,
                   epsilons: Mapping[str, float | None],
                   outcomes: dict[str, tuple[Pairs, NDArray[np.int_]]], rs: Draws) -> float:
    """``perm_pairs``' p-value of name2 over name1 in ``compare_metrics``: each metric's pairs
    and pair kinds at its epsilon are found once (``outcomes`` keeps them), as long as the
    epsilons are known up front; else perm_pairs searches them, drawing as MTME does."""
    if epsilons[name1] is None or epsilons[name2] is None:
        return perm_pairs(h, arrays[name1], arrays[name2], stat.variant, stat.average_by, k,
                          params, epsilons[name1], epsilons[name2], stat.sample_rate,
                          rs).p_value
    for name in (name1, name2):
        if name not in outcomes:
            hr, mr = rows(h, arrays[name], stat.average_by)
            p = pairs(hr, mr)
            outcomes[name] = p, pair_kinds(p.dh, p.dm, epsilons[name] or 0.0)
    return _perm_pair_outcomes(*outcomes[name1], *outcomes[name2], stat.variant, k, params,
                               rs).p_value


def assign_ranks(sig_matrix: ArrayLike, pval: float = 0.05) -> list[int]:
    """MTME ``AssignRanks``: metrics sorted best first; sig_matrix[i, j] (j > i) is the p-value
    that metric j is as good as metric i.  A new rank starts at the first metric that some
    metric of the current rank beats with p <= pval."""
    sig = np.asarray(sig_matrix, dtype=float)
    if sig.ndim != 2 or sig.shape[0] != sig.shape[1]:
        raise ValueError(f"need a square matrix, got {sig.shape}")
    ranks, current, start = [], 1, 0
    for i in range(sig.shape[0]):
        if np.any(sig[start:i, i] <= pval):
            current, start = current + 1, i
        ranks.append(current)
    return ranks


class MetricRanking(NamedTuple):
    names: list[str]  # best first (statistic descending, then name)
    scores: list[float]
    ranks: list[int]  # the WMT rank column
    sig_matrix: FloatArray  # [i, j], j > i: p-value that names[j] is as good as names[i]


def compare_metrics(human: ArrayLike, metrics: Mapping[str, ArrayLike], stat: Statistic,
                    k: int = 1000, params: PermParams = PermParams(), pval: float = 0.05,
                    perm_test: str = "scores",
                    random_state: RandomSource = None) -> MetricRanking:
    """MTME ``CompareMetrics`` / ``CompareMetricsWithGlobalAccuracy`` / ``...PairwiseConfidence
    Error``: score, sort, test every pair (PERM-BOTH, or with ``perm_test="pairs"`` and a
    ``TiesOpt`` stat, ``perm_pairs``) drawing from one generator in MTME's order, rank."""
    _check("perm_test", perm_test, ("scores", "pairs"))
    if perm_test == "pairs" and not isinstance(stat, TiesOpt):
        raise ValueError("perm_test='pairs' needs a TiesOpt statistic")
    rs = _random(random_state)
    h = np.asarray(human, dtype=float)
    arrays = {name: np.asarray(m, dtype=float) for name, m in metrics.items()}
    epsilons: dict[str, float | None] = dict.fromkeys(arrays)
    if perm_test == "pairs" and isinstance(stat, TiesOpt) and stat.sample_rate == 1.0:
        # Without sampling the search draws nothing: each metric's epsilon is found once
        # here, not again for each of its pairs in perm_pairs.
        opt = {name: tau_optimization(h, m, stat.variant, stat.average_by)
               for name, m in arrays.items()}
        scores = {name: o.tau for name, o in opt.items()}
        epsilons = {name: o.epsilon for name, o in opt.items()}
    else:
        scores = {name: stat(h, m, rs) for name, m in arrays.items()}
    names = sorted(scores, key=lambda name: (-scores[name], name))
    outcomes: dict[str, tuple[Pairs, NDArray[np.int_]]] = {}
    sig = np.zeros((len(names), len(names)))
    for a in range(len(names) if k else 0):
        for b in range(a + 1, len(names)):
            m1, m2 = arrays[names[b]], arrays[names[a]]
            if perm_test == "scores":
                sig[a, b] = perm_both(h, m1, m2, stat, k, params, rs).p_value
            else:
                assert isinstance(stat, TiesOpt)
                sig[a, b] = _pairs_p_value(h, arrays, names[b], names[a], stat, k, params,
                                           epsilons, outcomes, rs)
    return MetricRanking(names, [scores[n] for n in names], assign_ranks(sig, pval), sig)
