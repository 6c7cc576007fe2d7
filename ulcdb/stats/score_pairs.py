"""Scores as mt-metrics-eval's statistics see them (``ulcdb.stats.mt_metrics_eval`` builds
on these): the rows a statistic averages over, every pair of scored entries of a row in MTME's
order with its kind (concordant, discordant, tied), and MTME's random draws.

Inputs are arrays shaped (n_systems, n_segments), or (n_systems,) for system-level scores, with
NaN where a score is missing (MTME's ``None``).  ``average_by`` is MTME's: ``"none"`` (one
flattened row), ``"sys"`` (one row per system) or ``"item"`` (one row per segment).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

AVERAGE_BY = ("none", "sys", "item")
VARIANTS = ("acc23", "23")
FloatArray = NDArray[np.float64]
Index = NDArray[np.intp]  # positions, rows and counts


class Draws(Protocol):
    """What MTME draws from: numpy's global legacy generator (the module ``np.random``) or a
    ``RandomState``."""

    def random(self, size: int) -> FloatArray: ...


# None: the global generator; an int: a RandomState seeded with it; else the generator itself.
RandomSource = np.random.RandomState | Draws | int | None
# Pair kinds, as tau_optimization.TauSufficientStats counts them.
CON, DIS, TIE_H, TIE_M, TIE_B = range(5)


def _random(random_state: RandomSource) -> Draws:
    """MTME's draws: the global legacy generator, or a RandomState (seeded if an int).  A
    generator passes through: the statistics get the one their permutation test draws from."""
    if random_state is None:
        return np.random
    if isinstance(random_state, int | np.integer):
        return np.random.RandomState(random_state)
    return random_state


def _check(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def as_matrices(human: ArrayLike, metric: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Float (n_systems, n_segments) copies; a 1-D vector is one score per system."""
    h = np.array(human, dtype=float)
    m = np.array(metric, dtype=float)
    if h.shape != m.shape or h.ndim not in (1, 2):
        raise ValueError(f"need two vectors or matrices of one shape, got {h.shape}, {m.shape}")
    return (h[:, None], m[:, None]) if h.ndim == 1 else (h, m)


def rows(human: ArrayLike, metric: ArrayLike, average_by: str) -> tuple[FloatArray, FloatArray]:
    """The rows statistics are averaged over (MTME's ``_Reshape``)."""
    _check("average_by", average_by, AVERAGE_BY)
    h, m = as_matrices(human, metric)
    if average_by == "none":
        return h.reshape(1, -1), m.reshape(1, -1)
    return (h, m) if average_by == "sys" else (h.T, m.T)


# -- pairs -------------------------------------------------------------------------------------


class Pairs(NamedTuple):
    """Every pair (i < j) of scored entries of each row, in MTME's enumeration order."""

    row: Index  # row of each pair
    dh: FloatArray  # human score difference h_i - h_j
    dm: FloatArray  # metric score difference m_i - m_j
    i: Index  # positions of the pair among the row's scored entries
    j: Index
    sizes: Index  # scored entries per row
    n_rows: int


def pairs(h: FloatArray, m: FloatArray) -> Pairs:
    """Pairs of the entries of each row where both scores are present (O(rows * n^2))."""
    valid = ~(np.isnan(h) | np.isnan(m))
    sizes = valid.sum(axis=1)
    order = np.argsort(~valid, axis=1, kind="stable")  # scored entries first, in order
    hc, mc = np.take_along_axis(h, order, 1), np.take_along_axis(m, order, 1)
    i, j = np.triu_indices(int(sizes.max()) if sizes.size else 0, 1)
    keep = j[None, :] < sizes[:, None]
    row = np.broadcast_to(np.arange(h.shape[0])[:, None], keep.shape)[keep]
    pi, pj = (np.broadcast_to(x, keep.shape)[keep] for x in (i, j))
    return Pairs(row, (hc[:, i] - hc[:, j])[keep], (mc[:, i] - mc[:, j])[keep], pi, pj, sizes,
                 h.shape[0])


def _subset(p: Pairs, keep: NDArray[np.bool_]) -> Pairs:
    return Pairs(p.row[keep], p.dh[keep], p.dm[keep], p.i[keep], p.j[keep], p.sizes, p.n_rows)


def pair_kinds(dh: FloatArray, dm: FloatArray, epsilon: float = 0.0) -> NDArray[np.int_]:
    """CON, DIS, TIE_H, TIE_M or TIE_B per pair; |metric difference| <= epsilon is a tie."""
    th, tm = dh == 0, np.abs(dm) <= epsilon
    con = np.sign(dh) == np.sign(dm)
    return np.select([th & tm, th, tm, con], [TIE_B, TIE_H, TIE_M, CON], DIS)


def _kind_counts(p: Pairs, kinds: NDArray[np.int_]) -> Index:
    """(n_rows, 5) pair counts per kind."""
    flat = np.bincount(p.row * 5 + kinds, minlength=5 * p.n_rows)
    return flat.reshape(p.n_rows, 5)
