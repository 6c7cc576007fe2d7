"""WER and PER as Asiya 3.0 computes them with ``WER.pl`` / ``PER.pl`` (F. Sánchez-Martínez).

Per reference, exactly as the scripts (``-s``):

* tokens: the line split on ASCII whitespace (Perl byte strings: U+00A0 is not a separator);
* WER = word Levenshtein distance / reference length; the corpus value Σdistance / Σlength;
* PER = 1 - (correct - max(0, |hyp| - |ref|)) / |ref|, ``correct`` the size of the multiset
  intersection; the corpus value applies the same formula to the summed counts (so the
  ``max(0, ...)`` is taken on corpus totals).

Asiya negates them (``-WER``, ``-PER``); the ULC manual uses ``1-WER``, ``1-PER``.  With
several references Asiya runs the scripts once per reference and keeps the maximum of the
negated values, separately per segment and for the system (so the system value is the best
single-reference corpus value, not an aggregate of per-segment choices).  A document's value
is the mean of its segments' values, as Asiya computes it (not the scripts' own document
value).  ``1-X`` is ``1 + (-X)`` at every level.

``seg_stats`` per segment: ``[hyp_len, then per reference: distance, correct, ref_len]``, one
list the four metrics share (stored once per computation, as BLEU's: ``seg_stats.sql``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from rapidfuzz.distance import Levenshtein

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params, mean

_TOKENS = (
    "Tokens: the line split on ASCII whitespace only (as the Perl scripts on UTF-8 bytes; "
    "U+00A0 is not a separator), case-sensitive unless Params.lowercase (then both sides go "
    "through Python str.lower(), a ulcdb choice not checked against Asiya). "
)
_LEVELS = (
    "Several references: the best (highest) value over single references, taken "
    "separately per segment and for the system (system = best single-reference corpus "
    "value). Document: mean of the document's segment values (Asiya). A segment whose "
    "reference is empty has no value (the scripts would divide by zero). "
)
_WER = (
    "WER = word-level Levenshtein distance (insertions, deletions, substitutions, cost 1) / "
    "reference length; system: Σdistance / Σreference length. "
)
_PER = (
    "PER = 1 - (correct - max(0, |hyp| - |ref|)) / |ref|, correct = size of the multiset "
    "intersection of hypothesis and reference tokens; system: the same formula on summed "
    "counts. "
)
_IMPL = "Asiya 3.0 via WER.pl 1.0 / PER.pl 1.0 (-s)"


class ErrorRateFamily(Family):
    """``1-WER``, ``1-PER`` (ULC manual) and ``-WER``, ``-PER`` (Asiya 3.0)."""

    name = "ErrorRate"
    version = "1"

    def specs(self) -> Sequence[MetricSpec]:
        def spec(name: str, what: str, body: str, top: float) -> MetricSpec:
            return MetricSpec(
                name, self.name,
                f"{what} {body}{_LEVELS}{_TOKENS}Higher is better, at most {top:g}, no lower "
                f"bound. Reference implementation: {_IMPL}; no known departure.",
                range_min=None, range_max=top, reference_implementation=_IMPL,
            )

        return [
            spec("1-WER", "1 - word error rate (ULC manual 4.1).", _WER, 1.0),
            spec("1-PER", "1 - position-independent error rate (ULC manual 4.1).", _PER, 1.0),
            spec("-WER", "Negated word error rate (Asiya 3.0 -WER).", _WER, 0.0),
            spec("-PER", "Negated position-independent error rate (Asiya 3.0 -PER).", _PER, 0.0),
        ]

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "ascii-space", "multiref": "max-seg-and-sys", "doc": "mean-seg",
                "impl": "asiya-wer.pl-per.pl"}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set; each (hypothesis, reference) pair counted once.

        A set's statistics row is the hypothesis length followed by its references'
        (Levenshtein distance, correct words, reference length) triples; its four metrics
        share the one table."""
        vocab: dict[bytes, int] = {}
        hyp_ids = [[vocab.setdefault(t, len(vocab)) for t in _tokens(h, params.lowercase)]
                   for h in hyps]
        hyp_counts = [Counter(h) for h in hyp_ids]
        triples: dict[int, list[list[float]]] = {}
        for refs in refsets:
            for ref in refs:
                if id(ref) in triples:
                    continue
                column = []
                for h, h_counts, line in zip(hyp_ids, hyp_counts, ref, strict=True):
                    r = [vocab.setdefault(t, len(vocab)) for t in _tokens(line, params.lowercase)]
                    correct = sum((h_counts & Counter(r)).values())
                    column.append([float(Levenshtein.distance(h, r)), float(correct),
                                   float(len(r))])
                triples[id(ref)] = column
        out = []
        for refs in refsets:
            columns = [triples[id(ref)] for ref in refs]
            stats = []
            for i, h in enumerate(hyp_ids):
                row = [float(len(h))]
                for column in columns:
                    row += column[i]
                stats.append(row)
            array = np.array(stats, np.float64).reshape(len(stats), 1 + 3 * len(refs))
            totals = [sum(col) for col in zip(*stats, strict=True)]
            result: dict[str, LevelScores] = {}
            for name, rate, rates in (("WER", wer, _wer_rates), ("PER", per, _per_rates)):
                neg = _negated_levels(stats, array, totals, docs, rate, rates)
                result[f"-{name}"] = neg
                result[f"1-{name}"] = _shift(neg, 1.0)
            out.append(result)
        return out


def _tokens(line: str, lowercase: bool) -> list[bytes]:
    return (line.lower() if lowercase else line).encode("utf-8").split()


def wer(hyp_len: float, dist: float, correct: float, ref_len: float) -> float | None:
    """WER.pl's word error rate from (summed) counts; ``None`` for an empty reference."""
    return dist / ref_len if ref_len else None


def per(hyp_len: float, dist: float, correct: float, ref_len: float) -> float | None:
    """PER.pl's position-independent error rate from (summed) counts."""
    if not ref_len:
        return None
    return 1.0 - (correct - max(0.0, hyp_len - ref_len)) / ref_len


Rate = Callable[[float, float, float, float], "float | None"]
Floats = NDArray[np.float64]


def _best_negated(values: Sequence[float | None]) -> float | None:
    vals = [0.0 - v for v in values if v is not None]  # 0.0 - v: no -0.0
    return max(vals) if vals else None


def _per_ref(row: Sequence[float], rate: Rate) -> list[float | None]:
    return [rate(row[0], *row[1 + 3 * k: 4 + 3 * k]) for k in range((len(row) - 1) // 3)]


def _wer_rates(hyp_len: Floats, dist: Floats, correct: Floats, ref_len: Floats) -> Floats:
    """``wer`` of every (segment, reference) at once (NaN for an empty reference)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ref_len != 0, dist / ref_len, np.nan)


def _per_rates(hyp_len: Floats, dist: Floats, correct: Floats, ref_len: Floats) -> Floats:
    """``per`` of every (segment, reference) at once, in its order of operations (NaN for
    an empty reference)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = 1.0 - (correct - np.maximum(0.0, hyp_len - ref_len)) / ref_len
    return np.where(ref_len != 0, rates, np.nan)


def _negated_levels(stats: list[list[float]], array: Floats, totals: list[float],
                    docs: Documents, rate: Rate,
                    rates: Callable[[Floats, Floats, Floats, Floats], Floats]) -> LevelScores:
    """Segment values from ``rates`` on the statistics (segment, column) array (IEEE
    operations, so the same numbers as ``rate`` per segment), the system value from
    ``rate`` on the column ``totals``; ``stats`` is the segment statistics, the one list
    the family's metrics share."""
    hyp_len = array[:, :1]
    negated = 0.0 - rates(hyp_len, array[:, 1::3], array[:, 2::3], array[:, 3::3])
    best = np.full(len(stats), -np.inf)
    for column in negated.T:  # the largest, references with a value only
        best = np.where(column > best, column, best)
    seg: list[float | None] = [None if v == -math.inf else v for v in best.tolist()]
    return LevelScores(
        seg=seg,
        doc={d: mean(seg[a:b]) for d, a, b in docs.spans()},
        sys=_best_negated(_per_ref(totals, rate)) if stats else None,
        seg_stats=stats,
    )


def _shift(scores: LevelScores, offset: float) -> LevelScores:
    def f(v: float | None) -> float | None:
        return None if v is None else offset + v

    return LevelScores(
        seg=[f(v) for v in scores.seg],
        doc={d: f(v) for d, v in scores.doc.items()},
        sys=f(scores.sys),
        seg_stats=scores.seg_stats,
    )
