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

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat

from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.helpers import extract_word_ngrams
from sacrebleu.utils import sum_of_lists

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params

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
        # Per segment and distinct reference: (chrF stats, chrF F, chrF++ stats, chrF++ F),
        # None where the reference is undefined (sacrebleu skips it).
        cells: dict[int, list[_Cell | None]] = {key: [] for key in unique}
        for i, hyp in enumerate(hyps):
            hyp_ngrams = _ngrams(plus, plus._preprocess_segment(hyp))
            for key, ref in unique.items():
                line = ref[i]
                if line is None:
                    cells[key].append(None)
                    continue
                stats: list[int] = []
                ref_ngrams = _reference_ngrams(line, params.lowercase)
                for h, r in zip(hyp_ngrams, ref_ngrams, strict=True):
                    stats.extend(_match_statistics(h, r))
                short = stats[:n_char]
                cells[key].append((short, chrf._compute_f_score(short),
                                   stats, plus._compute_f_score(stats)))
        out = []
        for refs in refsets:
            columns = [cells[id(ref)] for ref in refs]
            chrf_stats, plus_stats = [], []
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
            out.append({
                "chrF": _levels(chrf, chrf_stats, docs),
                "chrF++": _levels(plus, plus_stats, docs),
            })
        return out


def _metrics(params: Params) -> tuple[CHRF, CHRF]:
    return _chrf_pair(params.lowercase)


@lru_cache(maxsize=2)
def _chrf_pair(lowercase: bool) -> tuple[CHRF, CHRF]:
    return CHRF(lowercase=lowercase), CHRF(word_order=2, lowercase=lowercase)


@lru_cache(maxsize=1 << 13)
def _reference_ngrams(line: str, lowercase: bool) -> list[Counter[str]]:
    """A reference line's n-grams, kept for the process: every system of a test bed is
    scored against the same references (only read, never changed)."""
    plus = _chrf_pair(lowercase)[1]
    return _ngrams(plus, plus._preprocess_segment(line))


def _ngrams(plus: CHRF, line: str) -> list[Counter[str]]:
    """Character n-grams 1..char_order, then word n-grams 1..word_order (sacrebleu's order)."""
    chars = line if plus.whitespace else "".join(line.split())
    out = [Counter(chars)]
    for n in range(2, plus.char_order + 1):
        out.append(Counter(map("".join, zip(*(chars[k:] for k in range(n)), strict=False))))
    words = plus._remove_punctuation(line)
    out.extend(extract_word_ngrams(words, n) for n in range(1, plus.word_order + 1))
    return out


def _match_statistics(hyp: Counter[str], ref: Counter[str]) -> tuple[int, int, int]:
    """sacrebleu's ``CHRF._get_match_statistics``: hypothesis, reference and matched counts."""
    matches = sum(map(min, hyp.values(), map(ref.get, hyp.keys(), repeat(0))))
    return (sum(hyp.values()) if ref else 0), sum(ref.values()), matches


def _levels(metric: CHRF, stats: list[list[int]], docs: Documents) -> LevelScores:
    def score(s: list[int]) -> float:
        return metric._compute_score_from_stats(s).score / 100.0

    return LevelScores(
        seg=[score(s) for s in stats],
        doc={d: score(sum_of_lists(stats[a:b])) for d, a, b in docs.spans()},
        sys=score(sum_of_lists(stats)) if stats else None,
        seg_stats=[[float(x) for x in s] for s in stats],
    )
