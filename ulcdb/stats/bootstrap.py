"""Bootstrap replicates of ulcdb.stats.correlations coefficients, without materialising the
resamples.

``ulcdb.stats.correlations.bootstrap_counts`` draws, once and seeded, how many times each unit
(segment,
document or system) appears in each of B resamples.  The functions here compute a coefficient
on every resample from those counts, vectorised over the B resamples:

- Pearson: per-unit moments, then one matrix product;
- Spearman: weighted mid-ranks (a unit drawn k times contributes k tied copies);
- Kendall tau-b, tau-c and pairwise accuracy: a unit x unit matrix of summed sign products
  (built once, O(n^2) in blocks) turns every resample's concordance into a quadratic form;
  ties come from sparse unit x value counts;
- DARR: each pair weighted by its unit's count, or by the product of its two units' counts
  when the units are systems.

Each replicate equals the coefficient of the materialised resample (``stats.resample_indices``);
the tests check it.  Pure functions: nothing here touches files or the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ulcdb.stats import correlations as stats
from ulcdb.stats.correlations import FloatArray, IntArray

if TYPE_CHECKING:
    import scipy.sparse

# Internally counts are transposed once to ``ct`` (U x B, float): every product below then
# yields arrays with one row per unit, value or item and one column per resample.


def _membership(units: IntArray, n_units: int, keys: IntArray) -> scipy.sparse.csr_matrix:
    import scipy.sparse  # here: `ulcdb --help` need not pay for scipy

    """Sparse G x U matrix: how many items of unit u have key g."""
    n_keys = int(keys.max(initial=-1)) + 1
    ones = np.ones(units.size)
    return scipy.sparse.csr_matrix((ones, (keys, units)), shape=(n_keys, n_units))


def _columns(n_resamples: int, height: int) -> Iterator[slice]:
    return stats.row_chunks(n_resamples, height)


def _weighted_pearson_columns(w: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
    sw = w.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        dx = x - (w * x).sum(axis=0) / sw
        dy = y - (w * y).sum(axis=0) / sw
        wdx = w * dx
        vx, vy = (wdx * dx).sum(axis=0), (w * dy * dy).sum(axis=0)
        r = (wdx * dy).sum(axis=0) / np.sqrt(vx * vy)
    return np.where((sw >= 2) & (vx > 0) & (vy > 0), np.clip(r, -1, 1), np.nan)


def _pearson_replicates(h: FloatArray, m: FloatArray, units: IntArray, ct: FloatArray
                        ) -> FloatArray:
    h, m = h - h.mean(), m - m.mean()  # centring keeps the raw moments well conditioned
    n_units = ct.shape[0]
    moments = np.stack([np.bincount(units, weights=v, minlength=n_units)
                        for v in (np.ones_like(h), h, m, h * h, m * m, h * m)])
    n, sh, sm, shh, smm, shm = moments @ ct
    with np.errstate(divide="ignore", invalid="ignore"):
        vh, vm = shh - sh * sh / n, smm - sm * sm / n
        r = (shm - sh * sm / n) / np.sqrt(vh * vm)
    tiny = 1e-12
    ok = (n >= 2) & (vh > tiny * np.maximum(shh, tiny)) & (vm > tiny * np.maximum(smm, tiny))
    return np.where(ok, np.clip(r, -1, 1), np.nan)


def _midranks(member: scipy.sparse.csr_matrix, inverse: IntArray, ct: FloatArray
              ) -> FloatArray:
    """Items x resamples: each item's mid-rank among the resample's copies."""
    w: FloatArray = member @ ct  # sparse @ dense: a dense array
    return (np.cumsum(w, axis=0) - (w - 1) / 2)[inverse]


def _spearman_replicates(h: FloatArray, m: FloatArray, units: IntArray, ct: FloatArray
                         ) -> FloatArray:
    n_units = ct.shape[0]
    hi, mi = stats.dense_ranks(h), stats.dense_ranks(m)
    member_h, member_m = _membership(units, n_units, hi), _membership(units, n_units, mi)
    out = np.empty(ct.shape[1])
    for cols in _columns(ct.shape[1], 3 * h.size):
        c = ct[:, cols]
        out[cols] = _weighted_pearson_columns(c[units], _midranks(member_h, hi, c),
                                              _midranks(member_m, mi, c))
    return out


def _signs(a: NDArray[np.int32], b: NDArray[np.int32]) -> NDArray[np.int8]:
    """sign(a - b) as int8, by comparisons (a third of the time of np.sign on differences)."""
    return (a > b).view(np.int8) - (a < b).view(np.int8)


def _unit_sign_matrix(h: FloatArray, m: FloatArray, units: IntArray, n_units: int
                      ) -> FloatArray:
    """A[u, v] = sum over items i of unit u and j of unit v of sign(dh) * sign(dm)."""
    order = np.argsort(units, kind="stable")
    rh = stats.dense_ranks(h)[order].astype(np.int32)
    rm = stats.dense_ranks(m)[order].astype(np.int32)
    u = units[order]
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    present = u[starts]
    out = np.zeros((n_units, n_units))
    for rows in stats.row_chunks(u.size, u.size):
        s = _signs(rh[rows, None], rh[None, :])
        s *= _signs(rm[rows, None], rm[None, :])
        part = np.add.reduceat(s, starts, axis=1, dtype=np.int64)
        ub = u[rows]
        row_starts = np.flatnonzero(np.r_[True, ub[1:] != ub[:-1]])
        out[np.ix_(ub[row_starts], present)] += np.add.reduceat(part, row_starts, axis=0)
    return out


def _tied_pairs(member: scipy.sparse.csr_matrix, ct: FloatArray, n: FloatArray) -> FloatArray:
    """Pairs of copies sharing a value: sum_g W_g (W_g - 1) / 2 with W = member @ counts,
    as the quadratic form c' (M'M) c, so the G x B matrix W is never built."""
    q = (member.T @ member).tocsr()
    qc: FloatArray = q @ ct  # sparse @ dense: a dense array
    quadratic: FloatArray = (qc * ct).sum(axis=0)
    return (quadratic - n) / 2


def _classes(member: scipy.sparse.csr_matrix, ct: FloatArray) -> FloatArray:
    """Distinct values present in each resample."""
    out = np.empty(ct.shape[1])
    for cols in _columns(ct.shape[1], member.shape[0]):
        out[cols] = ((member @ ct[:, cols]) > 0).sum(axis=0)
    return out


def _kendall_replicates(h: FloatArray, m: FloatArray, units: IntArray, ct: FloatArray,
                        classes: bool = True) -> dict[str, FloatArray]:
    n_units = ct.shape[0]
    s = 0.5 * ((_unit_sign_matrix(h, m, units, n_units) @ ct) * ct).sum(axis=0)
    n = np.bincount(units, minlength=n_units) @ ct
    hi, mi = stats.dense_ranks(h), stats.dense_ranks(m)
    joint = stats.dense_ranks(hi * (int(mi.max(initial=0)) + 1) + mi)
    member_h, member_m = _membership(units, n_units, hi), _membership(units, n_units, mi)
    h_ties, m_ties = _tied_pairs(member_h, ct, n), _tied_pairs(member_m, ct, n)
    both = _tied_pairs(_membership(units, n_units, joint), ct, n)
    pairs = n * (n - 1) / 2
    concordant = (pairs - h_ties - m_ties + both + s) / 2
    out = {"s": s, "n": n, "pairs": pairs, "concordant": concordant, "human_ties": h_ties,
           "metric_ties": m_ties, "both_ties": both}
    if classes:
        out["classes"] = np.minimum(_classes(member_h, ct), _classes(member_m, ct))
    return out


def _transposed(counts: ArrayLike) -> FloatArray:
    return np.ascontiguousarray(np.asarray(counts, dtype=float).T)


def _replicates_many(names: Sequence[str], h: FloatArray, m: FloatArray, units: IntArray,
                     ct: FloatArray, accuracy_ties: str) -> dict[str, FloatArray]:
    unknown = [n for n in names if n not in stats.COEFFICIENTS]
    if unknown:
        raise ValueError(f"unknown coefficient(s) {unknown}; use {stats.COEFFICIENTS}")
    out: dict[str, FloatArray] = {}
    if "pearson" in names:
        out["pearson"] = _pearson_replicates(h, m, units, ct)
    if "spearman" in names:
        out["spearman"] = _spearman_replicates(h, m, units, ct)
    kendall = [n for n in names if n not in ("pearson", "spearman")]
    if kendall:
        k = _kendall_replicates(h, m, units, ct, classes="kendall_tau_c" in kendall)
        out.update({n: stats.kendall_from_counts(n, k, accuracy_ties) for n in kendall})
    return {n: out[n] for n in names}


def replicates_many(names: Sequence[str], human: ArrayLike, metric: ArrayLike, units: ArrayLike,
                    counts: ArrayLike, accuracy_ties: str = "acc_eq") -> dict[str, FloatArray]:
    """The coefficients ``names`` on each resample of ``stats.bootstrap_counts``.

    ``units[i]`` is the unit (0..U-1) of item i; ``counts[b, u]`` how often unit u is drawn
    in resample b.  Each value equals the coefficient of the materialised resample (see
    ``stats.resample_indices``); NaN where it is undefined.  The Kendall family (tau-b, tau-c,
    accuracy) shares one count.
    """
    h, m = stats.as_vectors(human, metric)
    return _replicates_many(names, h, m, np.asarray(units, dtype=np.int64),
                            _transposed(counts), accuracy_ties)


def replicates(name: str, human: ArrayLike, metric: ArrayLike, units: ArrayLike,
               counts: ArrayLike, accuracy_ties: str = "acc_eq") -> FloatArray:
    """One coefficient on each resample (see ``replicates_many``)."""
    return replicates_many((name,), human, metric, units, counts, accuracy_ties)[name]


def _mean_defined(rows: FloatArray) -> FloatArray:
    defined = ~np.isnan(rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(defined.any(axis=0),
                        np.where(defined, rows, 0).sum(axis=0) / defined.sum(axis=0), np.nan)


def grouped_replicates_many(names: Sequence[str], human: ArrayLike, metric: ArrayLike,
                            groups: ArrayLike, units: ArrayLike, counts: ArrayLike,
                            accuracy_ties: str = "acc_eq") -> dict[str, FloatArray]:
    """``stats.grouped`` on each resample, for each coefficient of ``names``.

    Groups that lie inside one unit (segments when resampling segments or documents; systems
    when resampling systems) keep their coefficient and are weighted by their unit's count;
    groups that cross units (systems when resampling segments) are recomputed per resample.
    """
    h, m = stats.as_vectors(human, metric)
    units = np.asarray(units, dtype=np.int64)
    ct = _transposed(counts)
    _, slices = stats.group_slices(groups)
    group_units = [np.unique(units[ix]) for ix in slices]
    if all(u.size == 1 for u in group_units):
        where = np.array([u[0] for u in group_units], dtype=np.int64)
        per_group = stats.group_coefficients(names, h, m, slices, accuracy_ties)
        out = {}
        for name in names:
            ok = ~np.isnan(per_group[name])
            w = ct[where[ok]]
            total = w.sum(axis=0)
            with np.errstate(divide="ignore", invalid="ignore"):
                out[name] = np.where(total > 0, (per_group[name][ok] @ w) / total, np.nan)
        return out
    per = [_replicates_many(names, h[ix], m[ix], units[ix], ct, accuracy_ties) for ix in slices]
    return {name: _mean_defined(np.vstack([g[name] for g in per])) for name in names}


def grouped_replicates(name: str, human: ArrayLike, metric: ArrayLike, groups: ArrayLike,
                       units: ArrayLike, counts: ArrayLike, accuracy_ties: str = "acc_eq"
                       ) -> FloatArray:
    """One grouped coefficient on each resample (see ``grouped_replicates_many``)."""
    return grouped_replicates_many((name,), human, metric, groups, units, counts,
                                   accuracy_ties)[name]


def darr_replicates(pairs: stats.DarrPairs, units: ArrayLike, counts: ArrayLike,
                    ties: str = "discordant") -> FloatArray:
    """DARR tau on each resample: a pair inside one unit appears as often as its unit, a pair
    across two units (resampling systems) as often as the product of their counts."""
    import scipy.sparse

    units = np.asarray(units, dtype=np.int64)
    ct = _transposed(counts)
    n_units = ct.shape[0]
    ua, ub = units[pairs.better], units[pairs.worse]
    same = ua == ub
    totals = []
    for cls in (pairs.outcome > 0, pairs.outcome < 0, pairs.outcome == 0):
        inside = np.bincount(ua[cls & same], minlength=n_units) @ ct
        cross = scipy.sparse.csr_matrix(
            (np.ones(int((cls & ~same).sum())), (ua[cls & ~same], ub[cls & ~same])),
            shape=(n_units, n_units))
        totals.append(inside + ((cross @ ct) * ct).sum(axis=0))
    concordant, discordant, tied = totals
    return stats.darr_from_counts(concordant, discordant, tied, ties)
