"""How each stored metric becomes a corpus score from per-unit statistics.

- BLEU, chrF, chrF++, 1-TER, -TER: the stored sufficient statistics and sacrebleu 2.6.0's
  own corpus formula (``_compute_score_from_stats``, on sacrebleu's 0-100 scale while
  testing, so resamples and p-values are sacrebleu's), mapped back to ulcdb's scale.
- BLEU-n, BLEUi-n and NIST variants: their stored statistics and ulcdb's formulas.
- Every other metric (METEOR, ROUGE, GTM, linguistic, DR, TINE, ULC, imported...): the mean
  of its segment (or document) scores, i.e. statistics ``[value, 1]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ulcdb.compare.sacrebleu_rows import bleu_rows, chrf_rows, ter_rows
from ulcdb.stats.sacrebleu_significance import (
    ManyScores,
    Paired,
    Score,
    Sums,
    SymmetricInterval,
)

_SACREBLEU = {"BLEU", "chrF", "chrF++", "1-TER", "-TER"}


@dataclass(frozen=True)
class Measure:
    """A metric as a function of summed statistics, on a test scale, with the map back."""

    metric: str
    kind: str  # 'sacrebleu', 'stats' or 'mean'
    score: Score
    to_metric: Callable[[float], float] = field(default=lambda v: v)
    decreasing: bool = False  # to_metric reverses the order (TER)
    scale: float = 1.0  # |d to_metric / d v|
    many: ManyScores | None = None  # ``score`` of each row of float32 sums, at once

    @property
    def reading(self) -> str:
        return {"sacrebleu": "corpus formula (sacrebleu 2.6.0) on resampled statistics",
                "stats": "corpus formula on resampled statistics",
                "mean": "mean of resampled unit scores (score: the mean of the segment "
                        "scores, not the metric's own system score of `ulcdb score`)"
                }[self.kind]

    def map_paired(self, p: Paired) -> Paired:
        """The result on the metric's own scale (p-values are unchanged)."""
        iv = p.interval
        if iv is not None:
            low, high = self.to_metric(iv.low), self.to_metric(iv.high)
            iv = SymmetricInterval(self.to_metric(iv.mean), iv.half_width * self.scale,
                          min(low, high), max(low, high))
        return Paired(self.to_metric(p.score), self.to_metric(p.baseline), p.p_value, iv)


def _mean(stats: Sums) -> float:
    return float(stats[0] / stats[1]) if stats[1] else float("nan")


def measure(metric: str, has_stats: bool, nrefs: int) -> Measure:
    if metric in _SACREBLEU and has_stats:
        return _sacrebleu(metric)
    if has_stats and (metric.startswith(("BLEU-", "BLEUi-", "NIST"))):
        return Measure(metric, "stats", _ulcdb_stats(metric, nrefs))
    return Measure(metric, "mean", _mean)


def _sacrebleu(metric: str) -> Measure:
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.ter import TER

    if metric == "BLEU":
        obj: BLEU | CHRF | TER = BLEU()
    elif metric.startswith("chrF"):
        obj = CHRF(word_order=2 if metric == "chrF++" else 0)
    else:
        obj = TER()

    def score(stats: Sums) -> float:
        # sacrebleu annotates a list, but its own paired tests pass these numpy sums (float32
        # on resamples), whose arithmetic a list of Python floats would not repeat exactly.
        return float(obj._compute_score_from_stats(stats).score)  # type: ignore[arg-type]

    if metric == "1-TER":
        return Measure(metric, "sacrebleu", score, lambda v: 1.0 - v / 100, True, 0.01,
                       ter_rows(score))
    if metric == "-TER":
        return Measure(metric, "sacrebleu", score, lambda v: 0.0 - v / 100, True, 0.01,
                       ter_rows(score))
    many = (bleu_rows(score) if isinstance(obj, BLEU) else
            chrf_rows(score, obj.beta, obj.char_order + obj.word_order, obj.eps_smoothing)
            if isinstance(obj, CHRF) else None)
    return Measure(metric, "sacrebleu", score, lambda v: v / 100, False, 0.01, many)


def _ulcdb_stats(metric: str, nrefs: int) -> Score:
    if metric.startswith("NIST"):
        from ulcdb.metrics.nist import nist_from_stats

        return lambda s: float(nist_from_stats(list(map(float, s)), nrefs)[metric])
    from ulcdb.metrics.bleu import bleu_from_stats

    return lambda s: float(bleu_from_stats(list(map(float, s)))[metric])
