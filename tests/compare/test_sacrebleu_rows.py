"""The bootstrap scores many resamples at once (issue 29 §2, the report's speed): BLEU, chrF,
chrF++ and TER of each row equal sacrebleu 2.6.0's ``_compute_score_from_stats`` on that row
bit for bit, on the float32 sums its paired tests use, zero counts (sacrebleu's smoothing
branches) included."""

from __future__ import annotations

import numpy as np
import pytest

from ulcdb.compare.measures import measure


def _rows(metric: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """Corpus-like float32 sums with some zero counts, as short buckets give."""
    if metric.endswith("TER"):  # edits, average reference length (fractional, or 0)
        edits = rng.integers(0, 5000, n) * (rng.random(n) > 0.02)
        ref = rng.integers(0, 9000, n) / 3 * (rng.random(n) > 0.02)
        return np.column_stack([edits, ref]).astype(np.float32)
    if metric == "BLEU":
        sys_len = rng.integers(0, 3000, n)
        ref_len = sys_len + rng.integers(-400, 400, n)
        total = np.stack([np.maximum(sys_len - k, 0) for k in range(4)], 1)
        correct = (total * rng.random((n, 4)) * rng.integers(0, 2, (n, 4)) ** (
            rng.random((n, 1)) < 0.1)).astype(int)
        rows = np.column_stack([sys_len, np.maximum(ref_len, 0), correct, total])
    else:
        order = 6 if metric == "chrF" else 8
        hyp = rng.integers(0, 20000, (n, order)) * (rng.random((n, order)) > 0.02)
        ref = rng.integers(1, 20000, (n, order)) * (rng.random((n, order)) > 0.02)
        match = (np.minimum(hyp, ref) * rng.random((n, order))).astype(int)
        rows = np.stack([hyp, ref, match], 2).reshape(n, 3 * order)
    return rows.astype(np.float32)


@pytest.mark.parametrize("metric", ["BLEU", "chrF", "chrF++", "1-TER", "-TER"])
def test_many_rows_equal_sacrebleu_row_by_row(metric: str) -> None:
    m = measure(metric, True, 3)
    assert m.many is not None
    rng = np.random.default_rng(7)
    rows = _rows(metric, rng, 4000)
    got = m.many(rows)
    want = [m.score(row) for row in rows]
    assert got.tolist() == want
    zeros = (rows == 0).any(1)
    assert 0 < zeros.sum() < len(rows)  # both the fast rows and sacrebleu's own were met


def test_the_mean_measures_score_row_by_row() -> None:
    assert measure("METEOR", False, 1).many is None
