"""ROUGE's matching of one (hypothesis, reference) pair compiled with numba, on token ids.

``pair_hits()`` gives the compiled function ``rouge.pair_counts`` calls when numba is
importable (else None, and ``rouge`` matches in Python).  It returns the hits of every metric
of ``rouge.METRIC_NAMES``: clipped 1- to 4-gram hits, LCS length, clipped skip-bigram hits,
the same plus the ``-U`` unigram hits, and ROUGE-W's weighted-LCS hit.  The integer hits are
exact; the weighted-LCS table is filled with the same operations in the same order as
``rouge._wlcs_table`` (ROUGE-1.5.5's ``wlcs_inner``), so ties and the hit are bit-equal
(tests/metrics/test_metrics_rouge.py checks both paths against each other).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.compiled import jit_helpers

Ids = NDArray[np.int64]  # token ids
Floats = NDArray[np.float64]
PairHits = Callable[[Ids, Ids, Floats], Floats]
BootstrapTotals = Callable[[Floats, NDArray[np.int32]], Floats]
HITS = 8  # one per metric of rouge.METRIC_NAMES
MAX_IDS = 50_000  # distinct tokens of a pair whose 4-gram codes fit in int64


@cache
def _compiled() -> bool:
    """Compile the functions below with numba, if it is there (imported here: it is slow)."""
    return jit_helpers(globals(), ("_clipped", "_gram_codes", "_skip_codes", "_lcs", "_wlcs_hit",
                                   "_pair_hits", "_bootstrap_totals"))


def pair_hits() -> PairHits | None:
    """The compiled matching of one pair, or None without numba."""
    return _pair_hits if _compiled() else None


def bootstrap_totals() -> BootstrapTotals | None:
    """The compiled sums of ROUGE's bootstrap means, or None without numba."""
    return _bootstrap_totals if _compiled() else None


def _clipped(a: Ids, b: Ids) -> int:  # pragma: no cover - compiled
    """Sum over the shared codes of the smaller count (ROUGE's clipping), by sorted merge."""
    a = np.sort(a)
    b = np.sort(b)
    i = j = hits = 0
    while i < a.size and j < b.size:
        if a[i] < b[j]:
            i += 1
        elif a[i] > b[j]:
            j += 1
        else:
            code = a[i]
            count_a = count_b = 0
            while i < a.size and a[i] == code:
                count_a += 1
                i += 1
            while j < b.size and b[j] == code:
                count_b += 1
                j += 1
            hits += min(count_a, count_b)
    return hits


def _gram_codes(ids: Ids, order: int, base: int) -> Ids:  # pragma: no cover - compiled
    """One integer per n-gram of ``order`` tokens (ids < base)."""
    count = max(ids.size - order + 1, 0)
    codes = np.zeros(count, np.int64)
    for i in range(count):
        code = 0
        for k in range(order):
            code = code * base + ids[i + k]
        codes[i] = code
    return codes


def _skip_codes(ids: Ids, base: int) -> Ids:  # pragma: no cover - compiled
    """One integer per ordered pair of positions i < j (skip-bigrams at any distance)."""
    n = ids.size
    codes = np.zeros(n * (n - 1) // 2, np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            codes[k] = ids[i] * base + ids[j]
            k += 1
    return codes


def _lcs(ref: Ids, hyp: Ids) -> int:  # pragma: no cover - compiled
    """Length of the longest common subsequence."""
    n = hyp.size
    up = np.zeros(n + 1, np.int64)
    row = np.zeros(n + 1, np.int64)
    for tok in ref:
        for j in range(1, n + 1):
            if hyp[j - 1] == tok:
                row[j] = up[j - 1] + 1
            else:
                row[j] = max(up[j], row[j - 1])
        up, row = row, up
    return int(up[n])


def _wlcs_hit(ref: Ids, hyp: Ids, weights: Floats) -> float:  # pragma: no cover - compiled
    """ROUGE-W's hit: ``wlcs_inner``'s table, ``markLCS``'s trace-back, f summed over runs.

    ``weights[k]`` is f(k) = k ** 1.2 as ``rouge._weight`` computes it.
    """
    m, n = ref.size, hyp.size
    if m == 0 or n == 0:
        return 0.0
    table = np.zeros((m + 1, n + 1))
    runs = np.zeros((m + 1, n + 1), np.int64)
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if ref[i - 1] == hyp[j - 1]:
                k = runs[i - 1, j - 1]
                table[i, j] = table[i - 1, j - 1] + weights[k + 1] - weights[k]
                runs[i, j] = k + 1
            elif table[i - 1, j] >= table[i, j - 1]:
                table[i, j] = table[i - 1, j]
            else:
                table[i, j] = table[i, j - 1]
    marked = np.zeros(m + 1, np.bool_)  # one unmarked position past the end closes a run
    i, j = m, n
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            i -= 1
            j -= 1
            marked[i] = True
        elif table[i - 1, j] >= table[i, j - 1]:
            i -= 1
        else:
            j -= 1
    hit = 0.0
    length = 0
    for flag in marked:
        if flag:
            length += 1
        elif length:
            hit += weights[length]
            length = 0
    return hit


def _pair_hits(hyp: Ids, ref: Ids, weights: Floats) -> Floats:  # pragma: no cover - compiled
    """Hits of every ROUGE metric for one pair (ids of any range; at most MAX_IDS distinct)."""
    vocab = np.unique(np.concatenate((hyp, ref)))
    h = np.searchsorted(vocab, hyp).astype(np.int64)
    r = np.searchsorted(vocab, ref).astype(np.int64)
    base = vocab.size
    out = np.zeros(HITS)
    for order in range(1, 5):
        out[order - 1] = _clipped(_gram_codes(h, order, base), _gram_codes(r, order, base))
    out[4] = _lcs(r, h)
    skip = _clipped(_skip_codes(h, base), _skip_codes(r, base))
    out[5] = skip
    out[6] = skip + _clipped(h[: max(h.size - 1, 0)], r[: max(r.size - 1, 0)])
    out[7] = _wlcs_hit(r, h, weights)
    return out


def _bootstrap_totals(
    scores: Floats, indices: NDArray[np.int32]
) -> Floats:  # pragma: no cover - compiled
    """Per column of ``scores``, the sum of the sorted bootstrap means (``rouge_averages``).

    The same additions in the same order as numpy's there: each resample's sum in draw
    order, divided by the number of evaluations, the means sorted and summed from the
    smallest (``cumsum``).
    """
    count, columns = scores.shape
    resamples = indices.shape[1]
    sums = np.empty((resamples, columns))
    for r in range(resamples):
        sums[r] = scores[indices[0, r]]
    for j in range(1, count):
        for r in range(resamples):
            row = indices[j, r]
            for c in range(columns):
                sums[r, c] += scores[row, c]
    totals = np.empty(columns)
    for c in range(columns):
        means = np.sort(sums[:, c] / count)
        total = means[0]
        for r in range(1, resamples):
            total += means[r]
        totals[c] = total
    return totals
