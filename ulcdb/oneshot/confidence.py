"""sacrebleu's ``--confidence`` for `ulcdb eval`: a system's bootstrap mean and 95% interval
from the segment statistics ulcdb stored, resampled as sacrebleu resamples them (the same
draws for the same seed, the statistics summed in float32 as its ``_bootstrap_resample``)."""

from __future__ import annotations

import numpy as np
from sacrebleu.metrics.base import Metric, Score

from ulcdb.stats import sacrebleu_significance as sig


def with_interval(score: Score, scorer: Metric, seg_stats: list[list[float]], resamples: int,
                  seed: int) -> None:
    """Set ``score``'s bootstrap mean and interval (sacrebleu's ``Score.estimate_ci``) and
    ``scorer``'s resamples and seed, which its signature then carries (``bs:N|seed:S``)."""
    def corpus(sums: sig.Sums) -> float:
        return float(scorer._compute_score_from_stats(sums).score)  # type: ignore[arg-type]

    idxs = sig.bootstrap_indices(len(seg_stats), resamples, seed)
    values = sig.resampled_scores(np.asarray(seg_stats, dtype="float64"), idxs, corpus)
    score.estimate_ci([Score(score.name, float(v)) for v in values])
    scorer.n_bootstrap = resamples
    scorer.seed = str(seed)
