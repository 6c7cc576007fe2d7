"""sacrebleu 2.6.0's BLEU, chrF and TER corpus formulas on many rows of float32 sums at once (the
bootstrap's resamples), each row's value equal bit for bit to sacrebleu's own
``_compute_score_from_stats`` on that row.

sacrebleu computes on numpy float32 scalars (its paired tests sum float32 statistics), where
a Python number meets a float32 as a float32 (NEP 50): the same operations on float32
arrays, in the same order, round the same way.  The logarithms and exponentials of BLEU are
taken with ``math`` on each row as sacrebleu does.  Rows on a smoothing or zero branch
(a count of 0) go to sacrebleu itself.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from ulcdb.stats.sacrebleu_significance import ManyScores, Score

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
BLEU_ORDER = 4  # sacrebleu's default max_ngram_order, as ulcdb stores BLEU's statistics


def bleu_rows(score: Score) -> ManyScores:
    """BLEU (smooth exp, no effective order, 4-grams): [sys_len, ref_len, correct 1-4,
    total 1-4] per row."""

    def many(rows: F32) -> F64:
        correct, total = rows[:, 2:2 + BLEU_ORDER], rows[:, 2 + BLEU_ORDER:]
        plain = (correct > 0).all(1) & (total > 0).all(1) & (rows[:, 0] >= 1)
        precisions = (100. * correct / np.where(total > 0, total, 1)).tolist()
        out = np.empty(len(rows))
        for i, (sys_len, ref_len) in enumerate(rows[:, :2].tolist()):
            if not plain[i]:
                out[i] = score(rows[i])
                continue
            sys_n, ref_n = int(sys_len), int(ref_len)
            bp = math.exp(1 - ref_n / sys_n) if sys_n < ref_n else 1.0
            out[i] = bp * math.exp(sum([math.log(p) for p in precisions[i]]) / BLEU_ORDER)
        return out

    return many


def chrf_rows(score: Score, beta: int, order: int, eps_smoothing: bool) -> ManyScores:
    """chrF / chrF++ (sacrebleu's default effective-order averaging): [hyp, ref, match] per
    character then word n-gram order."""

    def many(rows: F32) -> F64:
        hyp, ref, match = rows[:, 0::3], rows[:, 1::3], rows[:, 2::3]
        plain = (hyp > 0).all(1) & (ref > 0).all(1) & (match > 0).all(1)
        out = np.empty(len(rows))
        if eps_smoothing or not plain.any():
            out[:] = [score(row) for row in rows]
            return out
        factor = beta ** 2
        h, r, m = hyp[plain], ref[plain], match[plain]
        avg_prec = avg_rec = np.zeros(len(h), dtype=np.float32)
        for i in range(order):  # (sacrebleu's eps-smoothed sum is not its result here)
            avg_prec, avg_rec = avg_prec + m[:, i] / h[:, i], avg_rec + m[:, i] / r[:, i]
        mean_prec, mean_rec = avg_prec / order, avg_rec / order  # float32 (NEP 50)
        value = (1 + factor) * mean_prec * mean_rec
        value = value / ((factor * mean_prec) + mean_rec)
        out[plain] = 100 * value
        out[~plain] = [score(row) for row in rows[~plain]]
        return out

    return many


def ter_rows(score: Score) -> ManyScores:
    """TER: [edits, average reference length] per row (an empty reference to sacrebleu)."""

    def many(rows: F32) -> F64:
        plain = rows[:, 1] > 0
        out = np.empty(len(rows))
        out[plain] = 100 * (rows[plain, 0] / rows[plain, 1])
        out[~plain] = [score(row) for row in rows[~plain]]
        return out

    return many
