"""The bootstrap sums resamples in blocks (issue 29 §2, the report's speed) and still gives
sacrebleu's float32 sums bit for bit: sacrebleu sums each resample's rows on its own
(``stats[row].sum(0)``), and the scores follow from those sums."""

from __future__ import annotations

import numpy as np
import pytest

from ulcdb.stats import sacrebleu_significance as sig


@pytest.mark.parametrize(("n", "k"), [(1, 1), (7, 1), (56, 3), (1002, 9), (313, 27)])
@pytest.mark.parametrize("block_bytes", [1, 4096, 32 * 2**20])
def test_block_sums_equal_sacrebleus_row_sums(n: int, k: int, block_bytes: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Fractional statistics (TER's average reference length) are where an order of
    additions would show; blocks of one resample, of a few, and of all of them."""
    monkeypatch.setattr(sig, "_BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(n * k)
    stats = rng.random((n, k)) * 100 / 3
    idxs = sig.bootstrap_indices(n, 257, 12345)
    f32 = stats.astype("float32")
    seen: list[np.ndarray] = []

    def score(sums: np.ndarray) -> float:
        seen.append(sums.copy())
        return float(sums[0]) / 7

    got = sig.resampled_scores(stats, idxs, score)
    want = [f32[row].sum(0) for row in idxs]
    assert len(seen) == len(want) == len(got)
    for sums, expected in zip(seen, want, strict=True):
        assert sums.dtype == np.float32 and np.array_equal(sums, expected)
    assert got.tolist() == [float(w[0]) / 7 for w in want]
