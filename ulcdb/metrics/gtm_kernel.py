"""GTM 1.4's greedy matching (``gtm.match_segment``) for a whole column of segments, compiled.

``compiled_matching()`` gives a numba function that takes a target's token ids and a reference
set's, every segment at once, and returns the run lengths GTM takes in each segment, in the
order it takes them, the same numbers ``gtm.match_segment`` gives one segment at a time.  It is
None without numba, and ``GtmFamily`` then runs ``match_segment``.  tests/metrics/
test_metrics_gtm.py checks both against each other and against the golden files.

Token ids: equal tokens have equal ids (>= 0) within one call; a reference set's references
are laid end to end per segment with a break (-1) after each, as ``gtm._grid`` lays them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.compiled import jit, jit_helpers

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
# (hypothesis ids, their segment offsets, reference ids with breaks, their segment offsets,
# number of references) -> (taken lengths, their segment offsets)
Matching = Callable[[Ints, Ints, Ints, Ints, int], tuple[Floats, Ints]]


@cache
def compiled_matching() -> Matching | None:
    """The compiled column matching, or None without numba (imported here: it takes a while)."""
    if not jit_helpers(globals(), ("_segment",)):
        return None
    result: Matching = jit(_column)
    return result


def _segment(hyp: Ints, ref: Ints, n_refs: int, out: Floats,
             count: int) -> int:  # pragma: no cover - compiled
    """``match_segment`` of one segment: its taken lengths written to ``out`` from ``count``;
    returns the new count.  ``ref`` holds the references with a break (-1) after each."""
    n_t, n_r = hyp.size, ref.size
    ref_len = (n_r - n_refs) / n_refs  # the tokens, without the breaks, per reference
    budget = min(float(n_t), ref_len)
    # ahead[t, r]: length of the diagonal run of hits from (t, r) onwards
    ahead = np.zeros((n_t + 1, n_r + 1), np.int64)
    n_hits = 0
    for t in range(n_t - 1, -1, -1):
        for r in range(n_r - 1, -1, -1):
            if ref[r] >= 0 and ref[r] == hyp[t]:
                ahead[t, r] = ahead[t + 1, r + 1] + 1
                n_hits += 1
    # hits, largest grid point first (t descending, then r descending)
    hits_t = np.empty(n_hits, np.int64)
    hits_r = np.empty(n_hits, np.int64)
    k = 0
    length = 0
    for t in range(n_t - 1, -1, -1):
        for r in range(n_r - 1, -1, -1):
            if ahead[t, r] > 0:
                hits_t[k] = t
                hits_r[k] = r
                length = max(length, ahead[t, r])
                k += 1
    x_used = np.zeros(n_r, np.bool_)
    y_used = np.zeros(n_t, np.bool_)
    while n_hits > 0 and length > 0 and budget > 0:
        alive = 0
        for h in range(n_hits):
            t, r = hits_t[h], hits_r[h]
            if y_used[t] or x_used[r]:
                continue
            if ahead[t, r] >= length and budget > 0:
                size = float(length)
                cells = length
                if size > budget:  # GTM cuts the run to the (maybe fractional) budget left
                    size, cells = budget, math.ceil(budget)
                free = True
                for c in range(cells):
                    if x_used[r + c] or y_used[t + c]:
                        free = False
                        break
                if free:
                    for c in range(cells):
                        x_used[r + c] = True
                        y_used[t + c] = True
                    budget -= size
                    out[count] = size
                    count += 1
                    continue
            hits_t[alive] = t
            hits_r[alive] = r
            alive += 1
        n_hits = alive
        longest = 0
        for h in range(n_hits):
            longest = max(longest, ahead[hits_t[h], hits_r[h]])
        length = min(length - 1, longest)
    return count


def _column(hyp: Ints, hyp_off: Ints, ref: Ints, ref_off: Ints,
            n_refs: int) -> tuple[Floats, Ints]:  # pragma: no cover - compiled
    """Every segment's taken lengths (flat) and their offsets per segment."""
    n_seg = hyp_off.size - 1
    out = np.empty(max(1, hyp.size), np.float64)  # at most one run per hypothesis token
    offsets = np.zeros(n_seg + 1, np.int64)
    count = 0
    for s in range(n_seg):
        count = _segment(hyp[hyp_off[s]:hyp_off[s + 1]], ref[ref_off[s]:ref_off[s + 1]],
                         n_refs, out, count)
        offsets[s + 1] = count
    return out[:count], offsets
