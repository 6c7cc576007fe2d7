"""chrF and chrF++ exactly as sacrebleu 2.6.0 computes them, on a 0-1 scale.

``chrF`` is sacrebleu's ``CHRF()`` (character n-grams 1-6, beta 2, whitespace removed,
effective-order averaging) and ``chrF++`` its ``CHRF(word_order=2)`` (plus word uni- and
bigrams).  The segment score is sacrebleu's ``sentence_score``; a document's and the system's
are ``corpus_score`` over their segments, i.e. the F-score of the summed per-segment
statistics (kept in ``seg_stats``: hypothesis, reference and matched counts per n-gram
order).  With several references each segment keeps the statistics of the reference with
the best F-score, as sacrebleu does.

Both metrics come from one pass: chrF's statistics for a reference are the first
``3 * char_order`` numbers of chrF++'s, so the n-grams are extracted once and each metric
picks its own best reference.  Preprocessing, word n-grams, punctuation splitting and the
F-score are sacrebleu's functions; character n-gram counting and matching are re-written
with C-level iteration (about 3x faster than sacrebleu's loops, same integers; the tests
compare with ``sentence_score`` and ``corpus_score``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.utils import sum_of_lists

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params
from ulcdb.metrics.ngram_counts import counts_in, encode

# One hypothesis against one reference: (chrF stats, chrF F, chrF++ stats, chrF++ F).
_Cell = tuple[list[int], float, list[int], float]

_COMMON = (
    "Segment: sacrebleu sentence_score; document and system: corpus_score, the F-score of "
    "the statistics summed over the unit's segments (not a mean of segment scores). Several "
    "references: per segment, the statistics of the reference with the highest F-score. "
    "Range 0-1 (sacrebleu's 0-100 divided by 100), higher is better. Case-sensitive unless "
    "Params.lowercase (sacrebleu's lowercase=True). Reference implementation followed "
    "exactly, no known departure."
)


class ChrfFamily(Family):
    """``chrF`` and ``chrF++`` from sacrebleu's CHRF statistics."""

    name = "chrF"
    version = "1"

    def specs(self) -> Sequence[MetricSpec]:
        return [
            MetricSpec(
                "chrF", self.name,
                "Character n-gram F-score (Popović 2015): F-beta (beta = 2) of the average "
                "character n-gram precision and recall over orders 1-6 (orders with no "
                "hypothesis or reference n-gram left out), whitespace removed. " + _COMMON,
                reference_implementation="sacrebleu 2.6.0 CHRF()",
            ),
            MetricSpec(
                "chrF++", self.name,
                "chrF++ (Popović 2017): as chrF, with word unigrams and bigrams added to the "
                "six character orders (words split on whitespace, one leading or trailing "
                "punctuation mark split off). " + _COMMON,
                reference_implementation="sacrebleu 2.6.0 CHRF(word_order=2)",
            ),
        ]

    def signature_body(self, params: Params, nrefs: int) -> str:
        parts = []
        for name, metric in zip(("chrF", "chrF++"), _metrics(params), strict=True):
            metric.num_refs = nrefs
            parts.append(f"{name}|{metric.get_signature().format()}")
        return ";".join(parts) + f";family:{self.version}"

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set, sharing the work between them.

        A hypothesis's n-grams are extracted once, its statistics and F-scores against each
        distinct reference computed once; each reference set then picks, per segment, the
        first of its references with the highest F-score (sacrebleu's choice).
        """
        chrf, plus = _metrics(params)
        n_char = 3 * chrf.char_order
        unique: dict[int, Sequence[str]] = {}
        for refs in refsets:
            for ref in refs:
                unique.setdefault(id(ref), ref)
        tables = dict(zip(unique, _statistics(plus, [hyps, *unique.values()]), strict=True))
        if hyps and not chrf.eps_smoothing and not plus.eps_smoothing and all(
                line is not None for ref in unique.values() for line in ref):
            return [{"chrF": _best(chrf, [tables[id(r)][:, :n_char] for r in refs], docs),
                     "chrF++": _best(plus, [tables[id(r)] for r in refs], docs)}
                    for refs in refsets]
        return self._by_segment(hyps, refsets, docs, unique, tables, chrf, plus)

    def _by_segment(self, hyps: Sequence[str], refsets: Sequence[Sequence[Sequence[str]]],
                    docs: Documents, unique: dict[int, Sequence[str]],
                    tables: dict[int, NDArray[np.int64]], chrf: CHRF, plus: CHRF
                    ) -> list[dict[str, LevelScores]]:
        """Segment by segment with sacrebleu's F-score: where a reference line is undefined
        (sacrebleu leaves it out), or an empty test set."""
        n_char = 3 * chrf.char_order
        # Per segment and distinct reference: (chrF stats, chrF F, chrF++ stats, chrF++ F),
        # None where the reference is undefined (sacrebleu skips it).
        cells: dict[int, list[_Cell | None]] = {}
        for key, ref in unique.items():
            column: list[_Cell | None] = []
            for line, stats in zip(ref, tables[key].tolist(), strict=True):
                if line is None:
                    column.append(None)
                    continue
                short = stats[:n_char]
                column.append((short, chrf._compute_f_score(short), stats,
                               plus._compute_f_score(stats)))
            cells[key] = column
        out = []
        for refs in refsets:
            columns = [cells[id(ref)] for ref in refs]
            chrf_stats, plus_stats = [], []
            chrf_f, plus_f = [], []
            for i in range(len(hyps)):
                best_c: list[int] = []
                best_p: list[int] = []
                best_cf = best_pf = -1.0
                for column in columns:
                    cell = column[i]
                    if cell is None:
                        continue
                    if cell[1] > best_cf:
                        best_cf, best_c = cell[1], cell[0]
                    if cell[3] > best_pf:
                        best_pf, best_p = cell[3], cell[2]
                chrf_stats.append(best_c)
                plus_stats.append(best_p)
                chrf_f.append(best_cf)
                plus_f.append(best_pf)
            out.append({
                "chrF": _levels(chrf, chrf_stats, chrf_f, docs),
                "chrF++": _levels(plus, plus_stats, plus_f, docs),
            })
        return out


def _metrics(params: Params) -> tuple[CHRF, CHRF]:
    return _chrf_pair(params.lowercase)


@lru_cache(maxsize=2)
def _chrf_pair(lowercase: bool) -> tuple[CHRF, CHRF]:
    return CHRF(lowercase=lowercase), CHRF(word_order=2, lowercase=lowercase)


@lru_cache(maxsize=1 << 13)
def _pieces(line: str, whitespace: bool) -> tuple[str, tuple[str, ...]]:
    """A preprocessed line's characters (whitespace removed unless kept) and its words
    (sacrebleu's ``_remove_punctuation``), kept for the reference lines every task reads."""
    words = CHRF._remove_punctuation(_chrf_pair(False)[1], line)
    return (line if whitespace else "".join(line.split())), tuple(words)


def _statistics(plus: CHRF, texts: Sequence[Sequence[str | None]]
                ) -> list[NDArray[np.int64]]:
    """sacrebleu's ``[hyp, ref, match]`` counts per order (characters 1..char_order, then
    words 1..word_order) of the first text against each of the others, per segment.

    The n-grams are counted as integer arrays (``ngram_counts``: characters and words as
    tokens, every text of the task with shared ids); the counts are the integers of
    ``CHRF._get_match_statistics`` on sacrebleu's ``Counter``s."""
    pieces = [[_pieces(plus._preprocess_segment(line) if line is not None else "",
                       plus.whitespace) for line in text] for text in texts]
    chars = [[piece[0] for piece in text] for text in pieces]
    words = [[piece[1] for piece in text] for text in pieces]
    parts = [(encode(chars, plus.char_order), plus.char_order),
             (encode(words, plus.word_order), plus.word_order)]
    nseg = len(texts[0])
    out = []
    for k in range(1, len(texts)):
        columns: list[NDArray[np.int64]] = []
        for encoded, orders in parts:
            hyp, ref = encoded.tables[0], encoded.tables[k]
            for n in range(1, orders + 1):
                found = counts_in(hyp, ref, n)
                matches = np.bincount(hyp.segments(n), minlength=nseg,
                                      weights=np.minimum(hyp.counts[n - 1], found))
                hyp_total = np.maximum(hyp.lengths - n + 1, 0)
                ref_total = np.maximum(ref.lengths - n + 1, 0)
                columns += [np.where(ref_total > 0, hyp_total, 0), ref_total,
                            matches.astype(np.int64)]
        out.append(np.stack(columns, axis=1))
    return out


def _best(metric: CHRF, tables: list[NDArray[np.int64]], docs: Documents) -> LevelScores:
    """Per segment the statistics of the first reference with the highest F-score (every
    reference line defined), the segment's score that F-score; documents and the system
    scored on their summed statistics."""
    scores = np.stack([f_scores(metric, t) for t in tables])
    pick = np.argmax(scores, axis=0)  # the first of equal maxima, as sacrebleu's loop
    rows = np.arange(scores.shape[1])
    table = np.stack(tables)[pick, rows]
    spans = docs.spans()
    sums = np.add.reduceat(table, [a for _, a, _ in spans], axis=0)
    totals = (f_scores(metric, np.vstack([sums, table.sum(axis=0)])) / 100.0).tolist()
    return LevelScores(seg=(scores[pick, rows] / 100.0).tolist(),
                       doc={d: v for (d, _, _), v in zip(spans, totals, strict=False)},
                       sys=totals[-1], seg_stats=table.astype(np.float64).tolist())


def f_scores(metric: CHRF, table: NDArray[np.int64]) -> NDArray[np.float64]:
    """sacrebleu's ``CHRF._compute_f_score`` (without eps smoothing) of every row of a
    statistics table: the same operations in the same order, so the same bits."""
    factor = metric.beta ** 2
    n = len(table)
    avg_prec, avg_rec = np.zeros(n), np.zeros(n)
    effective = np.zeros(n, dtype=np.int64)
    for i in range(metric.order):
        hyp, ref, match = (table[:, 3 * i + k].astype(np.float64) for k in range(3))
        both = (hyp > 0) & (ref > 0)
        avg_prec = np.where(both, avg_prec + np.divide(match, hyp, where=both,
                                                       out=np.zeros(n)), avg_prec)
        avg_rec = np.where(both, avg_rec + np.divide(match, ref, where=both,
                                                     out=np.zeros(n)), avg_rec)
        effective += both
    some = effective > 0
    avg_prec = np.divide(avg_prec, effective, where=some, out=np.zeros(n))
    avg_rec = np.divide(avg_rec, effective, where=some, out=np.zeros(n))
    total = avg_prec + avg_rec
    score = (1 + factor) * avg_prec * avg_rec
    score = np.divide(score, (factor * avg_prec) + avg_rec, where=total != 0, out=np.zeros(n))
    return np.where(total != 0, 100 * score, 0.0)


def _levels(metric: CHRF, stats: list[list[int]], f_scores: list[float],
            docs: Documents) -> LevelScores:
    """Segment scores from each segment's F-score (``f_scores``: the chosen reference's,
    the same number ``_compute_score_from_stats`` gives), document and system scores from
    the statistics summed over their segments (integers: the sums of ``sum_of_lists``)."""
    def score(s: list[int]) -> float:
        return metric._compute_score_from_stats(s).score / 100.0

    spans = docs.spans()
    sums: list[list[int]] = []
    if stats and all(stats):  # a segment without a defined reference has no statistics
        table = np.asarray(stats, dtype=np.int64)
        sums = np.add.reduceat(table, [a for _, a, _ in spans], axis=0).tolist()
        sums.append(table.sum(axis=0).tolist())
    else:
        sums = [sum_of_lists(stats[a:b]) for _, a, b in spans]
        sums.append(sum_of_lists(stats) if stats else [])
    return LevelScores(
        seg=[f / 100.0 if f >= 0 else score(s) for s, f in zip(stats, f_scores, strict=True)],
        doc={d: score(total) for (d, _, _), total in zip(spans, sums, strict=False)},
        sys=score(sums[-1]) if stats else None,
        seg_stats=[[float(x) for x in s] for s in stats],
    )
