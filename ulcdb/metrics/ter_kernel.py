"""TER's shift search: sacrebleu 2.6.0's ``lib_ter`` compiled with numba, step for step.

``edit_rate()`` gives the function ``TerFamily`` calls per (hypothesis, reference) pair: the
compiled search when numba is importable, else sacrebleu's own ``translation_edit_rate``.
Both return (edits, reference length) and agree exactly (tests/metrics/test_metrics_ter.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray
from sacrebleu.metrics import lib_ter

from ulcdb.metrics.compiled import jit, jit_helpers

EditRate = Callable[[list[str], list[str], dict[str, int]], tuple[int, int]]
Words = NDArray[np.int64]  # word ids
Trace = NDArray[np.int8]  # edit operations _NOP, _SUB, _INS, _DEL
Costs = NDArray[np.int64]  # the edit-distance matrix


def edit_rate() -> EditRate:
    """The compiled search if numba is there, else sacrebleu's."""
    return _compiled_edit_rate if _kernel() is not None else _sacrebleu_edit_rate


def _sacrebleu_edit_rate(
    words_hyp: list[str], words_ref: list[str], vocab: dict[str, int]
) -> tuple[int, int]:
    return lib_ter.translation_edit_rate(words_hyp, words_ref)


def _compiled_edit_rate(
    words_hyp: list[str], words_ref: list[str], vocab: dict[str, int]
) -> tuple[int, int]:
    """sacrebleu's ``translation_edit_rate`` on integer word ids, compiled."""
    h = np.fromiter((vocab.setdefault(w, len(vocab)) for w in words_hyp), np.int64)
    r = np.fromiter((vocab.setdefault(w, len(vocab)) for w in words_ref), np.int64)
    kernel = _kernel()
    assert kernel is not None  # edit_rate() picks this function only when numba is there
    return int(kernel(h, r)), len(words_ref)


@cache
def _kernel() -> Callable[[Words, Words], int] | None:
    """The compiled search, or None without numba (imported here: it takes a while)."""
    if not jit_helpers(globals(), ("_edit_distance", "_distance_after", "_alignment", "_copy",
                                   "_perform_shift", "_shift")):
        return None
    result: Callable[[Words, Words], int] = jit(_translation_edit_rate)
    return result


# --- Compiled transcription of sacrebleu 2.6.0 metrics/lib_ter.py ------------------------
# Same constants, loops and comparisons; word lists become int64 arrays, the alignment dict
# an array (every reference position is aligned), and the edit-distance cache (rows of the
# DP memoised by hypothesis prefix) becomes ``_distance_after``: a shift candidate starts from
# the current hypothesis's row where the two first differ and keeps only the score.

_INF = int(1e16)
_NOP, _SUB, _INS, _DEL, _UNDEF = 0, 1, 2, 3, 4
_BEAM_WIDTH = lib_ter._BEAM_WIDTH
_MAX_SHIFT_SIZE = lib_ter._MAX_SHIFT_SIZE
_MAX_SHIFT_DIST = lib_ter._MAX_SHIFT_DIST
_MAX_SHIFT_CANDIDATES = lib_ter._MAX_SHIFT_CANDIDATES


def _edit_distance(h: Words, r: Words  # pragma: no cover - compiled
                   ) -> tuple[int, Trace, Costs]:
    """BeamEditDistance: distance, trace (ops read from the end of the matrix) and the cost
    matrix (cells outside the beam are ``_INF``)."""
    n, m = h.size, r.size
    cost = np.full((n + 1, m + 1), _INF, np.int64)
    op = np.full((n + 1, m + 1), _UNDEF, np.int8)
    for j in range(m + 1):
        cost[0, j] = j
        op[0, j] = _INS
    ratio = m / n if n > 0 else 1.0
    beam = math.ceil(ratio / 2 + _BEAM_WIDTH) if _BEAM_WIDTH < ratio / 2 else _BEAM_WIDTH
    for i in range(1, n + 1):
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = m + 1 if i == n else min(m + 1, diag + beam)
        for j in range(lo, hi):
            if j == 0:
                cost[i, 0] = cost[i - 1, 0] + 1
                op[i, 0] = _DEL
                continue
            same = h[i - 1] == r[j - 1]
            c = cost[i - 1, j - 1] + (0 if same else 1)
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = _NOP if same else _SUB
            c = cost[i - 1, j] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = _DEL
            c = cost[i, j - 1] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                op[i, j] = _INS
    trace = np.empty(n + m, np.int8)
    k, i, j = n + m, n, m
    while i > 0 or j > 0:
        k -= 1
        o = op[i, j]
        trace[k] = o
        if o == _NOP or o == _SUB:
            i -= 1
            j -= 1
        elif o == _INS:
            j -= 1
        else:
            i -= 1
    return cost[n, m], trace[k:], cost


def _distance_after(words: Words, r: Words, h: Words,  # pragma: no cover - compiled
                    cost_h: Costs) -> int:
    """``_edit_distance(words, r)[0]`` where ``words`` is a reordering of ``h`` (same
    length, so the same beam) whose cost matrix is ``cost_h``: the rows of their common
    prefix are ``cost_h``'s, the rest is computed two rows at a time, the same cells with the
    same values as the full matrix."""
    n, m = words.size, r.size
    same = 0
    while same < n and words[same] == h[same]:
        same += 1
    if same == n:
        return int(cost_h[n, m])
    prev = cost_h[same].copy()
    row = np.empty(m + 1, np.int64)
    ratio = m / n if n > 0 else 1.0
    beam = math.ceil(ratio / 2 + _BEAM_WIDTH) if _BEAM_WIDTH < ratio / 2 else _BEAM_WIDTH
    for i in range(same + 1, n + 1):
        row[:] = _INF
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = m + 1 if i == n else min(m + 1, diag + beam)
        for j in range(lo, hi):
            if j == 0:
                row[0] = prev[0] + 1
                continue
            c = prev[j - 1] + (0 if words[i - 1] == r[j - 1] else 1)
            if row[j] > c:
                row[j] = c
            c = prev[j] + 1
            if row[j] > c:
                row[j] = c
            c = row[j - 1] + 1
            if row[j] > c:
                row[j] = c
        prev, row = row, prev
    return int(prev[m])


def _alignment(trace: Trace, n: int, m: int  # pragma: no cover - compiled
               ) -> tuple[Words, Words, Words]:
    """trace_to_alignment of the flipped trace: align, ref_err, hyp_err."""
    align = np.full(m, -1, np.int64)
    ref_err = np.zeros(m, np.int64)
    hyp_err = np.zeros(n, np.int64)
    ph, pr = -1, -1
    for o in trace:
        if o == _NOP or o == _SUB:
            ph += 1
            pr += 1
            align[pr] = ph
            err = 1 if o == _SUB else 0
            hyp_err[ph] = err
            ref_err[pr] = err
        elif o == _DEL:  # flipped: an insertion into the hypothesis side
            ph += 1
            hyp_err[ph] = 1
        else:  # flipped deletion: a reference word left unaligned
            pr += 1
            align[pr] = ph
            ref_err[pr] = 1
    return align, ref_err, hyp_err


def _copy(out: Words, pos: int, words: Words, a: int, b: int  # pragma: no cover - compiled
          ) -> int:
    """Python slice ``words[a:b]`` (clamped like a slice) appended to ``out`` at ``pos``."""
    n = words.size
    a, b = min(max(a, 0), n), min(max(b, 0), n)
    for t in range(a, b):
        out[pos] = words[t]
        pos += 1
    return pos


def _perform_shift(words: Words, start: int, length: int,  # pragma: no cover - compiled
                   target: int) -> Words:
    out = np.empty_like(words)
    end = start + length
    if target < start:
        parts = ((0, target), (start, end), (target, start), (end, words.size))
    elif target > end:
        parts = ((0, start), (end, target), (start, end), (target, words.size))
    else:
        parts = ((0, start), (end, length + target), (start, end), (length + target, words.size))
    pos = 0
    for a, b in parts:
        pos = _copy(out, pos, words, a, b)
    return out


def _shift(h: Words, r: Words, checked: int  # pragma: no cover - compiled
           ) -> tuple[int, Words, int]:
    """One round of sacrebleu's ``_shift``: (gain, shifted words, candidates checked)."""
    n, m = h.size, r.size
    pre_score, trace, cost_h = _edit_distance(h, r)
    align, ref_err, hyp_err = _alignment(trace, n, m)
    found = False
    best = (0, 0, 0, 0)
    best_words = h
    done = False
    for start_h in range(n):
        for start_r in range(m):
            if abs(start_r - start_h) > _MAX_SHIFT_DIST:
                continue
            length = 0
            while h[start_h + length] == r[start_r + length] and length < _MAX_SHIFT_SIZE:
                length += 1
                if (hyp_err[start_h:start_h + length].sum() != 0
                        and ref_err[start_r:start_r + length].sum() != 0
                        and not start_h <= align[start_r] < start_h + length):
                    prev_idx = -1
                    for offset in range(-1, length):
                        idx = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if idx == prev_idx:
                            continue
                        prev_idx = idx
                        shifted = _perform_shift(h, start_h, length, idx)
                        score = _distance_after(shifted, r, h, cost_h)
                        cand = (pre_score - score, length, -start_h, -idx)
                        checked += 1
                        if not found or cand > best:
                            found, best, best_words = True, cand, shifted
                    if checked >= _MAX_SHIFT_CANDIDATES:
                        done = True
                        break
                if n == start_h + length or m == start_r + length:
                    break
            if done:
                break
        if done:
            break
    if not found:
        return 0, h, checked
    return best[0], best_words, checked


def _translation_edit_rate(h: Words, r: Words) -> int:  # pragma: no cover - compiled
    """Number of edits (shifts + edit distance after them); the caller knows len(r)."""
    if r.size == 0:
        return h.size
    shifts, checked = 0, 0
    while True:
        delta, shifted, checked = _shift(h, r, checked)
        if checked >= _MAX_SHIFT_CANDIDATES or delta <= 0:
            break
        shifts += 1
        h = shifted
    distance, _, _ = _edit_distance(h, r)
    return shifts + distance
