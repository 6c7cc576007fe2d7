"""Meteor's beam search (``align._search``) compiled with numba, step for step.

``compiled_search()`` gives the function ``align._search`` calls when numba is importable
(else None, and the search runs in Python).  A path's rank, one big integer in Python
(-(exact gain) * 2**56 + chunks * 2**40 + distance), is kept as its three parts and the paths
are ordered by them with stable sorts, which is the order of Python's stable ``sort`` on the
rank; used test words are a row of booleans and the chosen matches a table of linked nodes.
tests/metrics/test_metrics_meteor.py checks both searches against each other.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.compiled import jit, jit_helpers

Ints = NDArray[np.int64]
Flags = NDArray[np.bool_]
Search = Callable[[Ints, Ints, Ints, Flags, int, int, int], Ints]


@cache
def compiled_search() -> Search | None:
    """The compiled search, or None without numba (imported here: it takes a while)."""
    if not jit_helpers(globals(), ("_order", "_grow")):
        return None
    result: Search = jit(_search)
    return result


def _order(gains: Ints, chunks: Ints, dists: Ints) -> Ints:  # pragma: no cover - compiled
    """Indices sorted by (gain, chunks, distance), ties in the given order (stable).

    One stable sort of a packed key when it fits in 62 bits, else three stable sorts.
    """
    low, chunk_span, dist_span = gains.min(), chunks.max() + 1, dists.max() + 1
    span = (gains.max() - low + 1) * chunk_span
    if span < (1 << 62) // dist_span:
        return np.argsort(((gains - low) * chunk_span + chunks) * dist_span + dists,
                          kind="mergesort")
    order = np.argsort(dists, kind="mergesort")
    order = order[np.argsort(chunks[order], kind="mergesort")]
    return order[np.argsort(gains[order], kind="mergesort")]


def _grow(nodes: Ints, count: int) -> Ints:  # pragma: no cover - compiled
    """The node table (rows: reference word, test word, module, parent) with room for more."""
    if count < nodes.shape[0]:
        return nodes
    bigger = np.empty((2 * nodes.shape[0], 4), np.int64)
    bigger[: nodes.shape[0]] = nodes
    return bigger


def _search(offsets: Ints, cands: Ints, fixed: Ints, used: Flags, beam: int, exact: int,
            gain_exact: int) -> Ints:  # pragma: no cover - compiled
    """``align._search`` on arrays: the candidates (test word, module) of reference word j
    are the rows ``cands[offsets[j]:offsets[j + 1]]``; ``fixed[j]`` is its fixed match (test
    word, module), or (-1, -1).  Returns the chosen matches (reference word, test word,
    module), newest first.

    A path is a row of ``state`` (-(exact gain) in units of 2**56, chunks, distance, end of
    the last match, its newest node) and of ``masks`` (used test words); two sets of rows,
    the paths of this step and of the next, take turns.
    """
    most = 1
    for j in range(offsets.size - 1):
        most = max(most, offsets[j + 1] - offsets[j] + 1)
    width = beam * most
    state = np.zeros((width, 5), np.int64)
    masks = np.zeros((width, used.size), np.bool_)
    n_state = np.zeros((width, 5), np.int64)
    n_masks = np.zeros((width, used.size), np.bool_)
    state[0, 3] = -1
    state[0, 4] = -1
    masks[0] = used
    size = 1
    nodes = np.empty((64, 4), np.int64)
    count = 0
    idle = False
    for j in range(offsets.size - 1):
        start, end = offsets[j], offsets[j + 1]
        if start == end and fixed[j, 0] < 0:
            if idle:
                continue
            idle = True
        else:
            idle = False
        top = _order(state[:size, 0], state[:size, 1], state[:size, 2])[:beam]
        k = 0
        for p in top:
            gain, chunks, dist, last, node = state[p]
            if fixed[j, 0] >= 0:
                i = fixed[j, 0]
                n_state[k, 0] = gain - (gain_exact if fixed[j, 1] == exact else 0)
                n_state[k, 1] = chunks + (1 if last != -1 and last != i else 0)
                n_state[k, 2] = dist + abs(j - i)
                n_state[k, 3] = i + 1
                n_state[k, 4] = node
                n_masks[k] = masks[p]
                k += 1
                continue
            for c in range(start, end):
                i = cands[c, 0]
                if masks[p, i]:
                    continue
                nodes = _grow(nodes, count)
                nodes[count, 0] = j
                nodes[count, 1] = i
                nodes[count, 2] = cands[c, 1]
                nodes[count, 3] = node
                n_state[k, 0] = gain - (gain_exact if cands[c, 1] == exact else 0)
                n_state[k, 1] = chunks + (1 if last != -1 and last != i else 0)
                n_state[k, 2] = dist
                n_state[k, 3] = i + 1
                n_state[k, 4] = count
                n_masks[k] = masks[p]
                n_masks[k, i] = True
                count += 1
                k += 1
                dist += abs(j - i)  # Meteor charges it to the path branched from (kept)
            n_state[k, 0] = gain
            n_state[k, 1] = chunks + (1 if last != -1 else 0)
            n_state[k, 2] = dist
            n_state[k, 3] = -1
            n_state[k, 4] = node
            n_masks[k] = masks[p]
            k += 1
        state, n_state = n_state, state
        masks, n_masks = n_masks, masks
        size = k
    top = _order(state[:size, 0], state[:size, 1], state[:size, 2])[:beam]
    ends = state[top]
    for t in range(top.size):
        if ends[t, 3] != -1:
            ends[t, 1] += 1
    at = ends[_order(ends[:, 0], ends[:, 1], ends[:, 2])[0], 4]
    length = 0
    node = at
    while node >= 0:
        length += 1
        node = nodes[node, 3]
    out = np.empty((length, 3), np.int64)
    for t in range(length):
        out[t] = nodes[at, :3]
        at = nodes[at, 3]
    return out
