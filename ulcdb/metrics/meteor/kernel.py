"""Meteor's matchers, alignment and statistics for a whole column of segments, compiled.

``compiled_statistics()`` gives a numba function that does for every segment of one target
against one reference what ``align.module_matches``, ``align.align`` (with the compiled beam
search of ``beam``) and ``align.segment_stats`` do for one pair, for every module set at once:
one call per (target, reference) instead of a few Python calls per segment and module set.
It returns None without numba; ``MeteorFamily`` then runs the Python functions.
tests/metrics/test_metrics_meteor.py checks both paths against each other.

A column of sentences is packed (``pack``) as flat arrays over all its words with segment
offsets: word hashes, stem hashes, function-word flags, and each word's synsets and WordNet
base forms as sorted integer lists (offsets into one flat array each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import chain, repeat

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.compiled import jit, jit_helpers
from ulcdb.metrics.meteor import beam

Ints = NDArray[np.int64]
# offsets of segments, word hashes, stem hashes, function flags (0/1), synset offsets,
# synsets, base-form offsets, base-form ids
Packed = tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints]
Statistics = Callable[[Packed, Packed, Ints, int, int], Ints]

_EXACT, _STEM, _WN_STEM, _SYNONYM = 0, 1, 2, 3  # align's module ids


def _offsets(lengths: Iterable[int], n: int) -> Ints:
    out = np.zeros(n + 1, np.int64)
    np.cumsum(np.fromiter(lengths, np.int64, n), out=out[1:])
    return out


def _flat(values: Iterable[int], n: int) -> Ints:
    return np.fromiter(values, np.int64, n)


def pack(keys: Sequence[Sequence[int]], stems: Sequence[Sequence[int]],
         function: Sequence[Sequence[bool]], syns: Sequence[Sequence[Sequence[int]]],
         bases: Sequence[Sequence[Sequence[int]]]) -> Packed:
    """Per segment, per word: hash, stem hash, function flag, sorted synsets, sorted base
    ids (``syns``/``bases`` may be empty lists when no module reads them)."""
    n_seg = len(keys)
    off = _offsets(map(len, keys), n_seg)
    words = int(off[-1])
    syn_words = list(chain.from_iterable(syns)) or list(repeat((), words))
    base_words = list(chain.from_iterable(bases)) or list(repeat((), words))
    syn_off = _offsets(map(len, syn_words), words)
    base_off = _offsets(map(len, base_words), words)
    return (off, _flat(chain.from_iterable(keys), words),
            _flat(chain.from_iterable(stems), words),
            _flat(chain.from_iterable(function), words),
            syn_off, _flat(chain.from_iterable(syn_words), int(syn_off[-1])),
            base_off, _flat(chain.from_iterable(base_words), int(base_off[-1])))


@cache
def compiled_statistics() -> Statistics | None:
    """The compiled column statistics, or None without numba."""
    search = beam.compiled_search()
    if search is None:
        return None
    globals()["_search"] = search
    jit_helpers(globals(), ("_meet", "_matrices", "_align", "_statistics"))
    result: Statistics = jit(_column)
    return result


def _search(offsets: Ints, cands: Ints, fixed: Ints, used: NDArray[np.bool_], beam_size: int,
            exact: int, gain_exact: int) -> Ints:  # pragma: no cover - replaced when compiled
    raise NotImplementedError("compiled_statistics() puts beam's compiled search here")


def _meet(a: Ints, b: Ints) -> bool:  # pragma: no cover - compiled
    """Whether two sorted integer lists share a value."""
    x = y = 0
    while x < a.size and y < b.size:
        if a[x] == b[y]:
            return True
        if a[x] < b[y]:
            x += 1
        else:
            y += 1
    return False


def _matrices(t: Packed, r: Packed, ta: int, tb: int, ra: int, rb: int,
              wanted: NDArray[np.bool_]) -> NDArray[np.bool_]:  # pragma: no cover - compiled
    """``found[m, j, i]``: module m lists test word i for reference word j (``module_matches``:
    stem only where the words differ, wn_stem only where neither exact nor stem matched)."""
    found = np.zeros((4, rb - ra, tb - ta), np.bool_)
    for j in range(rb - ra):
        rk, rs = r[1][ra + j], r[2][ra + j]
        r_syn = r[5][r[4][ra + j]:r[4][ra + j + 1]]
        r_base = r[7][r[6][ra + j]:r[6][ra + j + 1]]
        for i in range(tb - ta):
            tk, ts = t[1][ta + i], t[2][ta + i]
            if tk == rk:
                found[_EXACT, j, i] = True
                continue
            if wanted[_STEM] and ts == rs:
                found[_STEM, j, i] = True
            if wanted[_SYNONYM] and _meet(t[5][t[4][ta + i]:t[4][ta + i + 1]], r_syn):
                found[_SYNONYM, j, i] = True
            if wanted[_WN_STEM] and ts != rs and _meet(
                    t[7][t[6][ta + i]:t[6][ta + i + 1]], r_base):
                found[_WN_STEM, j, i] = True
    return found


def _align(t: Packed, r: Packed, s: int, modules: Ints, found: NDArray[np.bool_],
           beam_size: int, gain_exact: int) -> tuple[Ints, Ints]:  # pragma: no cover - compiled
    """``align.align`` of segment ``s`` from the candidates of ``modules`` (in that order):
    per reference word, the test word and module of its match (-1: none)."""
    n_t, n_r = t[0][s + 1] - t[0][s], r[0][s + 1] - r[0][s]
    offsets = np.zeros(n_r + 1, np.int64)
    total = 0
    for j in range(n_r):
        for m in modules:
            total += found[m, j].sum()
        offsets[j + 1] = total
    cands = np.empty((total, 2), np.int64)
    cover = np.zeros(n_t, np.int64)
    c = 0
    for j in range(n_r):
        for m in modules:
            for i in range(n_t):
                if found[m, j, i]:
                    cands[c, 0] = i
                    cands[c, 1] = m
                    cover[i] += 1
                    c += 1
    chosen_i = np.full(n_r, -1, np.int64)
    chosen_m = np.full(n_r, -1, np.int64)
    fixed = np.full((n_r, 2), -1, np.int64)
    used = np.zeros(n_t, np.bool_)
    n_fixed = n_listed = 0
    for j in range(n_r):
        a, b = offsets[j], offsets[j + 1]
        if b > a:
            n_listed += 1
        if b - a == 1 and cover[cands[a, 0]] == 1:
            fixed[j, 0] = chosen_i[j] = cands[a, 0]
            fixed[j, 1] = chosen_m[j] = cands[a, 1]
            used[cands[a, 0]] = True
            n_fixed += 1
    if n_fixed < n_listed:
        found_matches = _search(offsets, cands, fixed, used, beam_size, _EXACT, gain_exact)
        for k in range(found_matches.shape[0]):
            chosen_i[found_matches[k, 0]] = found_matches[k, 1]
            chosen_m[found_matches[k, 0]] = found_matches[k, 2]
    return chosen_i, chosen_m


def _statistics(t: Packed, r: Packed, s: int, modules: Ints, chosen_i: Ints, chosen_m: Ints,
                row: Ints) -> None:  # pragma: no cover - compiled
    """``align.segment_stats`` of segment ``s`` into ``row`` (zeros), module slots as in
    ``modules`` (-1 padded)."""
    ta, tb, ra, rb = t[0][s], t[0][s + 1], r[0][s], r[0][s + 1]
    n_t, n_r = tb - ta, rb - ra
    row[0] = n_t
    row[1] = n_r
    row[2] = t[3][ta:tb].sum()
    row[3] = r[3][ra:rb].sum()
    n = chunks = 0
    last_j = last_i = -2
    for j in range(n_r):
        i = chosen_i[j]
        if i < 0:
            continue
        slot = 0
        while modules[slot] != chosen_m[j]:
            slot += 1
        row[4 + 4 * slot + (2 if t[3][ta + i] else 0)] += 1
        row[4 + 4 * slot + (3 if r[3][ra + j] else 1)] += 1
        if j != last_j + 1 or i != last_i + 1:
            chunks += 1
        last_j, last_i = j, i
        n += 1
    if n == n_t and n == n_r and chunks == 1:
        chunks = 0  # addStats leaves out the chunk of a perfect segment
    width = 4 + 4 * (modules >= 0).sum()
    row[width] = chunks
    row[width + 1] = n
    row[width + 2] = n


def _column(t: Packed, r: Packed, sets: Ints, beam_size: int,
            gain_exact: int) -> Ints:  # pragma: no cover - compiled
    """Statistics of every segment under every module set: ``out[k, s]`` is
    ``segment_stats`` of segment s under ``sets[k]`` (module ids, -1 padded), zero padded."""
    n_seg = t[0].size - 1
    out = np.zeros((sets.shape[0], n_seg, 7 + 4 * sets.shape[1]), np.int64)
    longest = 0
    for s in range(n_seg):
        longest = max(longest, r[0][s + 1] - r[0][s])
    chosen_i = np.full((sets.shape[0], longest), -1, np.int64)
    chosen_m = np.full((sets.shape[0], longest), -1, np.int64)
    wanted = np.zeros(4, np.bool_)
    for k in range(sets.shape[0]):
        for m in sets[k]:
            if m >= 0:
                wanted[m] = True
    for s in range(n_seg):
        ta, tb, ra, rb = t[0][s], t[0][s + 1], r[0][s], r[0][s + 1]
        only_exact = tb - ta == rb - ra  # Meteor runs the exact module only on equal words
        if only_exact:
            for x in range(tb - ta):
                if t[1][ta + x] != r[1][ra + x]:
                    only_exact = False
                    break
        found = _matrices(t, r, ta, tb, ra, rb, wanted & np.array(
            [True, not only_exact, not only_exact, not only_exact]))
        # The modules that list something here, per set: sets listing the same candidates
        # (say exact+stem and exact+stem+synonym where no synonym is found) align once.
        listing = np.zeros(4, np.bool_)
        for m in range(4):
            listing[m] = found[m].any()
        active = np.full((sets.shape[0], 4), -1, np.int64)
        for k in range(sets.shape[0]):
            n_active = 0
            for m in sets[k]:
                if m >= 0 and listing[m]:
                    active[k, n_active] = m
                    n_active += 1
            same = -1
            for e in range(k):
                if (active[e] == active[k]).all():
                    same = e
                    break
            if same < 0:
                modules = active[k][active[k] >= 0]
                found_i, found_m = _align(t, r, s, modules, found, beam_size, gain_exact)
                chosen_i[k, :rb - ra] = found_i
                chosen_m[k, :rb - ra] = found_m
            else:
                chosen_i[k] = chosen_i[same]
                chosen_m[k] = chosen_m[same]
            _statistics(t, r, s, sets[k], chosen_i[k], chosen_m[k], out[k, s])
    return out
