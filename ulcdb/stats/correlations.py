"""Meta-evaluation statistics: pure vector maths that never touches a file or the store.

Every coefficient takes the human scores first and the metric scores second, both as
1-D float vectors over the same items (the mt-metrics-eval convention "gold, metric").

Point estimates:
- ``pearson``, ``spearman`` (Pearson of mid-ranks), ``kendall_tau_b``, ``kendall_tau_c``: equal
  to scipy.stats on the same vectors (tests check it to 1e-12); NaN where undefined.
- ``kendall_stats``: concordant/discordant/tied pair counts in O(n log^2 n).
- ``pairwise_accuracy``: agreement over all pairs, with ties handled explicitly:
  ``acc_eq`` (Deutsch et al. 2023, "acc23": a pair tied in both counts as agreement, a tie in
  only one of them as disagreement; equal to mt-metrics-eval's Agreement) or ``skip_human_ties``
  (pairs the humans tie are left out; a metric tie counts as disagreement).
- ``darr_tau``: the WMT "DARR" Kendall-like tau over pairs of translations of the same item
  whose human scores differ by at least ``threshold``: (C - D) / (C + D), a metric tie counting
  as discordant (``ties="discordant"``, WMT20 and mt-metrics-eval's KendallLike) or left out
  (``ties="ignore"``).
- ``grouped``: mt-metrics-eval's averaging: one coefficient per group (segment or system), the
  plain mean of those that are defined (groups of fewer than 2 items are skipped).
- ``fisher_ci``: Fisher z interval (Pearson; Fieller et al. 1957 variances for Spearman and
  Kendall tau-b).

Resampling (seeded): ``bootstrap_counts`` draws, once, how many times each unit (segment,
document or system) appears in each of B resamples; ``ulcdb.stats.bootstrap`` computes every
coefficient on every resample from those counts, vectorised; ``percentile_ci`` turns the
replicates into intervals; ``paired_bootstrap`` and ``permutation_test`` compare two metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
# A pair count or count-derived value: one number, or one per row (group) or resample.
Counts = float | NDArray[np.float64] | NDArray[np.int64]

COEFFICIENTS = ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "accuracy")
ACCURACY_TIES = ("acc_eq", "skip_human_ties")
DARR_TIES = ("discordant", "ignore")
# Asymptotic variance factors of Fisher's z for each coefficient (Fieller, Hartley and
# Pearson 1957): var(z) = factor / (n - offset).
_FISHER = {"pearson": (1.0, 3), "spearman": (1.06, 3), "kendall_tau_b": (0.437, 4)}
# Metric scores are compared at this many decimals wherever their order or ties count
# (Spearman, Kendall, accuracy, DARR in `ulcdb meta`; the SQL of meta_corr and darr_pairs
# says 10 too): float noise such as 1 - x then neither makes nor breaks a tie, and affine
# twins (-TER, 1-TER) get the same rank coefficients.
RANK_DECIMALS = 10
CELLS = 4_000_000  # elements per vectorised block: bounds memory to some tens of MB


def as_vectors(human: ArrayLike, metric: ArrayLike) -> tuple[FloatArray, FloatArray]:
    h = np.asarray(human, dtype=float)
    m = np.asarray(metric, dtype=float)
    if h.ndim != 1 or h.shape != m.shape:
        raise ValueError(f"need two 1-D vectors of one length, got {h.shape} and {m.shape}")
    return h, m


# -- correlations ------------------------------------------------------------------------------


def pearson(human: ArrayLike, metric: ArrayLike) -> float:
    """Pearson's r (scipy.stats.pearsonr's statistic)."""
    h, m = as_vectors(human, metric)
    if h.size < 2:
        return float("nan")
    dh, dm = h - h.mean(), m - m.mean()
    nh, nm = np.linalg.norm(dh), np.linalg.norm(dm)
    if nh == 0 or nm == 0:
        return float("nan")
    return float(np.clip(np.dot(dh / nh, dm / nm), -1.0, 1.0))


def midranks(x: ArrayLike) -> FloatArray:
    """1-based ranks, ties sharing their mean rank (scipy.stats.rankdata 'average')."""
    _, inverse, counts = np.unique(np.asarray(x, dtype=float), return_inverse=True,
                                   return_counts=True)
    return (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]


def spearman(human: ArrayLike, metric: ArrayLike) -> float:
    """Spearman's rho: Pearson's r of the mid-ranks (scipy.stats.spearmanr's statistic)."""
    h, m = as_vectors(human, metric)
    return pearson(midranks(h), midranks(m)) if h.size >= 2 else float("nan")


@dataclass(frozen=True)
class KendallStats:
    """Pair counts behind every Kendall variant (pairs tied in both are in all three ties)."""

    n: int
    concordant: int
    discordant: int
    human_ties: int  # pairs tied in the human scores (including those tied in both)
    metric_ties: int  # pairs tied in the metric scores (including those tied in both)
    both_ties: int
    human_classes: int  # distinct human values
    metric_classes: int

    @property
    def pairs(self) -> int:
        return self.n * (self.n - 1) // 2


def dense_ranks(x: NDArray[np.float64] | NDArray[np.int64]) -> IntArray:
    return np.unique(x, return_inverse=True)[1].astype(np.int64)


def _tied_pairs(keys: IntArray) -> int:
    counts = np.unique(keys, return_counts=True, axis=0)[1].astype(np.int64)
    return int((counts * (counts - 1) // 2).sum())


def _inversions(r: IntArray) -> int:
    """Pairs i < j with r[i] > r[j], by a bottom-up merge sort counted with searchsorted."""
    n = r.size
    if n < 2:
        return 0
    big = int(r.max()) + 1
    size = 1 << (n - 1).bit_length()
    a = np.full(size, big, dtype=np.int64)  # padding sorts last and never counts
    a[:n] = r
    total, width = 0, 1
    while width < size:
        runs = a.reshape(-1, 2, width)
        offset = (np.arange(runs.shape[0], dtype=np.int64) * (big + 1))[:, None]
        left = (runs[:, 0, :] + offset).ravel()
        pos = np.searchsorted(left, (runs[:, 1, :] + offset).ravel(), side="right")
        not_greater = pos - np.repeat(np.arange(runs.shape[0], dtype=np.int64) * width, width)
        total += int((width - not_greater).sum())
        a = np.sort(a.reshape(-1, 2 * width), axis=1).ravel()
        width *= 2
    return total


def kendall_stats(human: ArrayLike, metric: ArrayLike) -> KendallStats:
    """Concordant, discordant and tied pairs of two vectors, exactly, in O(n log^2 n)."""
    h, m = as_vectors(human, metric)
    n = h.size
    rh, rm = dense_ranks(h), dense_ranks(m)
    order = np.lexsort((rm, rh))  # by human, then metric: ties in human add no inversion
    discordant = _inversions(rm[order])
    h_ties, m_ties = _tied_pairs(rh), _tied_pairs(rm)
    both = _tied_pairs(np.stack([rh, rm], axis=1)) if n else 0
    concordant = n * (n - 1) // 2 - h_ties - m_ties + both - discordant
    return KendallStats(n, concordant, discordant, h_ties, m_ties, both,
                        int(rh.max(initial=-1)) + 1, int(rm.max(initial=-1)) + 1)


def _tau_b(s: Counts, pairs: Counts, h_ties: Counts, m_ties: Counts) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.sqrt(np.asarray(pairs - h_ties, float)) * np.sqrt(np.asarray(pairs - m_ties,
                                                                              float))
        tau = np.where(den > 0, np.asarray(s, float) / np.where(den > 0, den, 1), np.nan)
        return np.clip(tau, -1.0, 1.0)  # as scipy: rounding must not give 1.0000000000000002


def _tau_c(s: Counts, n: Counts, classes: Counts) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        n, classes = np.asarray(n, float), np.asarray(classes, float)
        den = n ** 2 * (classes - 1) / classes
        return np.where(den > 0, 2 * np.asarray(s, float) / np.where(den > 0, den, 1), np.nan)


def _accuracy(concordant: Counts, pairs: Counts, h_ties: Counts, both: Counts, ties: str
              ) -> FloatArray:
    if ties not in ACCURACY_TIES:
        raise ValueError(f"accuracy ties must be one of {ACCURACY_TIES}, not {ties!r}")
    num = np.asarray(concordant + both if ties == "acc_eq" else concordant, float)
    den = np.asarray(pairs if ties == "acc_eq" else pairs - h_ties, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def kendall_tau_b(human: ArrayLike, metric: ArrayLike) -> float:
    """Kendall's tau-b (scipy.stats.kendalltau, variant 'b')."""
    k = kendall_stats(human, metric)
    return float(_tau_b(k.concordant - k.discordant, k.pairs, k.human_ties, k.metric_ties))


def kendall_tau_c(human: ArrayLike, metric: ArrayLike) -> float:
    """Stuart's tau-c (scipy.stats.kendalltau, variant 'c')."""
    k = kendall_stats(human, metric)
    if k.human_ties == k.pairs or k.metric_ties == k.pairs:
        return float("nan")
    return float(_tau_c(k.concordant - k.discordant, k.n,
                        min(k.human_classes, k.metric_classes)))


def pairwise_accuracy(human: ArrayLike, metric: ArrayLike, ties: str = "acc_eq") -> float:
    """Share of pairs the metric orders as the humans do; see the module docstring for ties."""
    k = kendall_stats(human, metric)
    return float(_accuracy(k.concordant, k.pairs, k.human_ties, k.both_ties, ties))


def coefficient(name: str, human: ArrayLike, metric: ArrayLike, accuracy_ties: str = "acc_eq"
                ) -> float:
    """One of COEFFICIENTS by name."""
    if name == "accuracy":
        return pairwise_accuracy(human, metric, accuracy_ties)
    funcs: dict[str, Callable[[ArrayLike, ArrayLike], float]] = {
        "pearson": pearson, "spearman": spearman, "kendall_tau_b": kendall_tau_b,
        "kendall_tau_c": kendall_tau_c}
    if name not in funcs:
        raise ValueError(f"unknown coefficient {name!r}; use one of {COEFFICIENTS}")
    return funcs[name](human, metric)


# -- helpers shared with ulcdb.stats.bootstrap -----------------------------------------------------


def row_chunks(n_rows: int, width: int) -> Iterator[slice]:
    step = max(1, CELLS // max(1, width))
    for lo in range(0, n_rows, step):
        yield slice(lo, min(n_rows, lo + step))


def kendall_from_counts(name: str, k: Mapping[str, NDArray[np.float64] | NDArray[np.int64]],
                        accuracy_ties: str) -> FloatArray:
    """tau-b, tau-c or accuracy from pair counts (scalars or one value per resample)."""
    if name == "accuracy":
        out = _accuracy(k["concordant"], k["pairs"], k["human_ties"], k["both_ties"],
                        accuracy_ties)
        return np.where(k["n"] < 2, np.nan, out)
    undefined = (k["n"] < 2) | (k["human_ties"] == k["pairs"]) | (k["metric_ties"] == k["pairs"])
    if name == "kendall_tau_b":
        out = _tau_b(k["s"], k["pairs"], k["human_ties"], k["metric_ties"])
    else:
        out = _tau_c(k["s"], k["n"], k["classes"])
    return np.where(undefined, np.nan, out)


# -- grouping ----------------------------------------------------------------------------------


def group_slices(groups: ArrayLike) -> tuple[NDArray[Any], list[NDArray[np.intp]]]:
    keys, inverse = np.unique(np.asarray(groups), return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.flatnonzero(np.diff(inverse[order])) + 1
    return keys, np.split(order, bounds)


def _row_pearson(x: FloatArray, y: FloatArray) -> FloatArray:
    dx, dy = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    nx, ny = np.linalg.norm(dx, axis=1), np.linalg.norm(dy, axis=1)
    ok = (nx > 0) & (ny > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = ((dx / nx[:, None]) * (dy / ny[:, None])).sum(axis=1)
    return np.where(ok, np.clip(r, -1, 1), np.nan)


def _row_midranks(x: FloatArray) -> FloatArray:
    below: NDArray[np.intp] = (x[:, None, :] < x[:, :, None]).sum(axis=2)
    same: NDArray[np.intp] = (x[:, None, :] == x[:, :, None]).sum(axis=2)
    return below + (same + 1) / 2


def _row_coefficients(names: Sequence[str], h: FloatArray, m: FloatArray, accuracy_ties: str
                      ) -> dict[str, FloatArray]:
    """Every coefficient of ``names`` for each row of two G x k matrices (small k)."""
    out: dict[str, FloatArray] = {}
    if "pearson" in names:
        out["pearson"] = _row_pearson(h, m)
    if "spearman" in names:
        out["spearman"] = _row_pearson(_row_midranks(h), _row_midranks(m))
    kendall = [n for n in names if n not in ("pearson", "spearman")]
    if kendall:
        k = h.shape[1]
        i, j = np.triu_indices(k, 1)
        sh, sm = np.sign(h[:, i] - h[:, j]), np.sign(m[:, i] - m[:, j])
        pairs = k * (k - 1) / 2
        s = (sh * sm).sum(axis=1)
        h_ties, m_ties = (sh == 0).sum(axis=1), (sm == 0).sum(axis=1)
        both = ((sh == 0) & (sm == 0)).sum(axis=1)
        classes = np.minimum(*(1 + (np.diff(np.sort(x, axis=1), axis=1) != 0).sum(axis=1)
                               for x in (h, m)))
        stats_ = {"s": s, "n": np.full(len(s), k), "pairs": np.full(len(s), pairs),
                  "concordant": (pairs - h_ties - m_ties + both + s) / 2,
                  "human_ties": h_ties, "metric_ties": m_ties, "both_ties": both,
                  "classes": classes}
        out.update({n: kendall_from_counts(n, stats_, accuracy_ties) for n in kendall})
    return out


def group_coefficients(names: Sequence[str], h: FloatArray, m: FloatArray,
                       slices: list[NDArray[np.intp]], accuracy_ties: str
                       ) -> dict[str, FloatArray]:
    """Coefficients per group (NaN for groups under 2 items), vectorised by group size."""
    out = {n: np.full(len(slices), np.nan) for n in names}
    sizes = np.array([ix.size for ix in slices])
    for k in np.unique(sizes[sizes >= 2]):
        which = np.flatnonzero(sizes == k)
        if k > 1000:  # large groups: one by one, in O(k log^2 k)
            for g in which:
                for n in names:
                    out[n][g] = coefficient(n, h[slices[g]], m[slices[g]], accuracy_ties)
            continue
        for rows in row_chunks(which.size, k * k):
            chunk = which[rows]
            index = np.stack([slices[g] for g in chunk])
            for n, v in _row_coefficients(names, h[index], m[index], accuracy_ties).items():
                out[n][chunk] = v
    return out


def grouped(name: str, human: ArrayLike, metric: ArrayLike, groups: ArrayLike,
            accuracy_ties: str = "acc_eq") -> tuple[float, int]:
    """Mean of the per-group coefficients that are defined, and how many there were.

    ``groups`` labels each item: the segment (mt-metrics-eval's average_by 'item') or the
    system ('sys').  Groups of fewer than 2 items are skipped, as are NaN coefficients.
    """
    h, m = as_vectors(human, metric)
    values = group_coefficients((name,), h, m, group_slices(groups)[1], accuracy_ties)[name]
    kept = values[~np.isnan(values)]
    return (float(kept.mean()) if kept.size else float("nan")), int(kept.size)


# -- DARR --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DarrPairs:
    """Pairs of items of one group whose human scores differ by at least the threshold.

    ``better``/``worse`` index the items (better = higher human score); ``outcome`` is +1
    concordant, -1 discordant, 0 metric tie.
    """

    better: NDArray[np.intp]
    worse: NDArray[np.intp]
    outcome: NDArray[np.int8]

    def counts(self) -> tuple[int, int, int]:
        o = self.outcome
        return int((o > 0).sum()), int((o < 0).sum()), int((o == 0).sum())


def darr_pairs(human: ArrayLike, metric: ArrayLike, groups: ArrayLike, threshold: float = 25.0
               ) -> DarrPairs:
    """Every DARR pair within each group (segment or document), vectorised by group size."""
    h, m = as_vectors(human, metric)
    _, slices = group_slices(groups)
    firsts, seconds = [], []
    sizes = np.array([s.size for s in slices])
    for k in np.unique(sizes[sizes >= 2]):
        members = np.stack([s for s in slices if s.size == k])  # groups x k
        i, j = np.triu_indices(k, 1)
        firsts.append(members[:, i].ravel())
        seconds.append(members[:, j].ravel())
    a = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
    b = np.concatenate(seconds) if seconds else np.zeros(0, dtype=np.int64)
    diff = h[a] - h[b]
    keep = np.abs(diff) >= threshold
    a, b, diff = a[keep], b[keep], diff[keep]
    swap = diff < 0
    better, worse = np.where(swap, b, a), np.where(swap, a, b)
    dm = m[better] - m[worse]
    # A pair the humans tie (threshold <= 0 only) is discordant unless the metric ties too,
    # as mt-metrics-eval's KendallLike counts it.
    outcome = np.where(dm == 0, 0, np.where((dm > 0) & (diff != 0), 1, -1))
    return DarrPairs(better, worse, outcome.astype(np.int8))


def darr_from_counts(concordant: Counts, discordant: Counts, ties: Counts,
                     ties_mode: str = "discordant") -> FloatArray:
    """tau = (C - D) / (C + D); metric ties join D ('discordant') or are left out ('ignore')."""
    if ties_mode not in DARR_TIES:
        raise ValueError(f"DARR ties must be one of {DARR_TIES}, not {ties_mode!r}")
    c = np.asarray(concordant, float)
    d = np.asarray(discordant, float) + (np.asarray(ties, float) if ties_mode == "discordant"
                                         else 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c + d > 0, (c - d) / np.where(c + d > 0, c + d, 1), np.nan)


def darr_tau(human: ArrayLike, metric: ArrayLike, groups: ArrayLike, threshold: float = 25.0,
             ties: str = "discordant") -> float:
    """WMT DARR Kendall-like tau pooled over all groups (mt-metrics-eval's KendallLike)."""
    return float(darr_from_counts(*darr_pairs(human, metric, groups, threshold).counts(), ties))


# -- confidence intervals ---------------------------------------------------------------------


def fisher_ci(r: float, n: int, level: float = 0.95, name: str = "pearson") -> tuple[float, float]:
    """Fisher z interval for a correlation over n items; NaN where it does not apply."""
    if name not in _FISHER:
        return float("nan"), float("nan")
    factor, offset = _FISHER[name]
    if n <= offset or not np.isfinite(r) or abs(r) >= 1:
        return float("nan"), float("nan")
    half = NormalDist().inv_cdf(0.5 + level / 2) * np.sqrt(factor / (n - offset))
    z = np.arctanh(r)
    return float(np.tanh(z - half)), float(np.tanh(z + half))


def bootstrap_counts(n_units: int, n_resamples: int, seed: int) -> IntArray:
    """How often each of n_units units is drawn in each resample (B x U), reproducibly."""
    rng = np.random.default_rng(seed)
    if n_units == 0:
        return np.zeros((n_resamples, 0), dtype=np.int64)
    return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=n_resamples)


def resample_indices(units: ArrayLike, counts_row: Iterable[int]) -> NDArray[np.intp]:
    """The items of one resample, materialised: each unit's items as often as it was drawn."""
    unit_of = np.asarray(units)
    return np.concatenate([np.flatnonzero(unit_of == u) for u, k in enumerate(counts_row)
                           for _ in range(int(k))] or [np.zeros(0, dtype=np.int64)])


def percentile_ci(replicates: ArrayLike, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of the defined replicates."""
    r = np.asarray(replicates, float)
    r = r[~np.isnan(r)]
    if r.size == 0:
        return float("nan"), float("nan")
    lo, hi = np.percentile(r, [50 * (1 - level), 50 * (1 + level)])
    return float(lo), float(hi)


# -- comparing two metrics --------------------------------------------------------------------


@dataclass(frozen=True)
class PairedComparison:
    """Is metric a better than metric b?  delta = a - b; p_value for H1: a > b (one-sided)."""

    delta: float
    p_value: float
    n_resamples: int
    method: str  # paired-bootstrap or permutation
    seed: int | None = None


def koehn_paired_bootstrap(value_a: float, value_b: float, replicates_a: ArrayLike,
                     replicates_b: ArrayLike,
                     seed: int | None = None) -> PairedComparison:
    """Koehn (2004): the share of paired resamples (the same units) in which a does not beat b."""
    d = np.asarray(replicates_a, float) - np.asarray(replicates_b, float)
    d = d[~np.isnan(d)]
    p = float((d <= 0).mean()) if d.size else float("nan")
    return PairedComparison(float(value_a - value_b), p, int(d.size), "paired-bootstrap", seed)


def permutation_test(statistic: Callable[[FloatArray], float], metric_a: ArrayLike,
                     metric_b: ArrayLike,
                     n_permutations: int = 1000, seed: int = 1234) -> PairedComparison:
    """PERM-BOTH (Deutsch et al. 2021, as mt-metrics-eval's PermutationSigDiff).

    Both metrics' scores are standardised; each resample swaps them on each item with
    probability 1/2; p is the share of resamples whose delta reaches the observed one.
    ``statistic`` maps one metric vector (aligned with the same human scores) to the
    coefficient, e.g. ``lambda m: spearman(human, m)``.
    """
    a, b = as_vectors(metric_a, metric_b)
    a = (a - a.mean()) / (a.std() or 1.0)
    b = (b - b.mean()) / (b.std() or 1.0)
    delta = statistic(a) - statistic(b)
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(n_permutations):
        swap = rng.random(a.size) < 0.5
        pa, pb = np.where(swap, b, a), np.where(swap, a, b)
        if statistic(pa) - statistic(pb) >= delta:
            hits += 1
    p = hits / n_permutations if n_permutations else float("nan")
    return PairedComparison(float(delta), p, n_permutations, "permutation", seed)
