"""BLEU family, compatible with mteval-v13a (the NIST scorer ULC and Asiya run).

Tokenisation and n-gram matching are sacrebleu's (its ``13a`` tokenizer is mteval-v13a's
default tokenisation), so the per-segment sufficient statistics are exactly sacrebleu's
vector ``[hyp_len, ref_len, matches_1..4, totals_1..4]``: ``ref_len`` is the reference
length closest to the hypothesis length, the shorter one on ties (mteval's
``--brevity-penalty closest``).  Scores are computed from those statistics with mteval's
``bleu_score`` formula at every level; document and system scores come from statistics
summed over their segments, never from means.

mteval's formula equals sacrebleu's ``smooth_method='exp'`` except in two corner cases that
only segments reach (both reproduced here, as mteval prints them):

* an n-gram order the hypothesis is too short to have (fewer than n tokens) counts as
  precision 1 and the geometric mean still divides by 4, where sacrebleu's
  ``sentence_bleu`` (effective order) divides by the orders present;
* a hypothesis without a single matching unigram still gets the smoothed precisions
  ``1/(2^k * total_k)`` where sacrebleu returns 0.

Individual BLEU-n (``BLEUi-n``) is mteval's individual n-gram precision without brevity
penalty; by the same rule it is 1 for a hypothesis with fewer than n tokens.

Case: ``Params.lowercase`` False is mteval's ``-c``.  True lowercases with ``str.lower``
before tokenising, as sacrebleu's ``lowercase=True``; mteval without ``-c`` lowercases only
ASCII A-Z, so accented capitals (``Ü``) differ from mteval there.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sacrebleu.metrics.bleu import BLEU

from ulcdb.metrics.base import (
    Documents,
    Family,
    LevelScores,
    MetricSpec,
    Params,
    build_specs,
    check_inputs,
)
from ulcdb.metrics.ngram_counts import against_references

MAX_ORDER = 4
REFERENCE = "mteval-v13a.pl (NIST), via sacrebleu 2.6.0 tokenizer 13a and n-gram statistics"

Stats = list[float]
Table = NDArray[np.float64]  # statistics rows


def sacrebleu_scorer(params: Params) -> BLEU:
    """sacrebleu's BLEU object with the options of this family (13a, exp smoothing).

    One object per case setting, kept for the process: its tokenizer caches tokenised
    lines, so references shared by many systems are tokenised once.
    """
    return _scorer(params.lowercase)


@lru_cache(maxsize=2)
def _scorer(lowercase: bool) -> BLEU:
    return _SharedReferencesBLEU(lowercase=lowercase, tokenize="13a", smooth_method="exp",
                                 force=True)


class _SharedReferencesBLEU(BLEU):
    """sacrebleu's BLEU that keeps the reference n-grams of the last reference sets it
    extracted: every system of a test bed is scored against the same sets, so their n-grams
    are counted once per process instead of once per system (the numbers are sacrebleu's:
    the kept value is what ``_cache_references`` returned)."""

    KEPT = 8  # reference sets (LEX scores 7 per system: each of 3 references, pairs, all)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kept: OrderedDict[tuple[tuple[str | None, ...], ...], tuple[list[Any], int]] = (
            OrderedDict())

    def _cache_references(self, references: Sequence[Sequence[str]]) -> list[Any]:
        key = tuple(map(tuple, references))
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = (super()._cache_references(references), self.num_refs)
            if len(self._kept) > self.KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        self.num_refs = found[1]
        return found[0]


def sum_stats(rows: Sequence[Stats]) -> Stats:
    """Element-wise sum of sufficient-statistics vectors (in order)."""
    total: Stats = list(rows[0])
    for row in rows[1:]:
        total = [a + b for a, b in zip(total, row, strict=True)]
    return total


def group_stats(stats: Sequence[Stats], docs: Documents) -> dict[str, Stats]:
    """Statistics summed per document, documents in order of first appearance."""
    rows: dict[str, list[Stats]] = {}
    for doc_id, row in zip(docs.doc_ids, stats, strict=True):
        rows.setdefault(doc_id, []).append(row)
    return {doc_id: sum_stats(doc_rows) for doc_id, doc_rows in rows.items()}


def order_names(family: str, max_order: int) -> tuple[str, ...]:
    """``F``, cumulative ``F-1..max`` and individual ``Fi-2..max`` (BLEU, NIST)."""
    return (family, *(f"{family}-{n}" for n in range(1, max_order + 1)),
            *(f"{family}i-{n}" for n in range(2, max_order + 1)))


def order_scores(family: str, cumulative: list[float], individual: list[float]
                 ) -> dict[str, float]:
    """The ``order_names`` metrics from cumulative and individual scores of orders 1..max:
    ``F`` is the highest cumulative order."""
    out = {family: cumulative[-1]}
    out.update({f"{family}-{n}": cumulative[n - 1] for n in range(1, len(cumulative) + 1)})
    out.update({f"{family}i-{n}": individual[n - 1] for n in range(2, len(individual) + 1)})
    return out


def levels_from_stats(stats: list[Stats] | Table, docs: Documents, names: Sequence[str],
                      score: Callable[[Table], dict[str, Table]]) -> dict[str, LevelScores]:
    """Segment scores from each segment's statistics (a list per segment, or a table's
    rows), document and system scores from the statistics summed over their segments (never
    means), every metric of ``names``.

    ``score`` maps a table of statistics rows to each metric's column; the segments, the
    documents' sums and the system's sum go through it as one table."""
    table = np.asarray(stats, dtype=np.float64)
    rows: list[Stats] = table.tolist() if isinstance(stats, np.ndarray) else stats
    if not rows:
        return {name: LevelScores(seg=[], doc={}, sys=None, seg_stats=rows) for name in names}
    doc_ids, sums = summed_rows(table, docs)
    columns = score(np.concatenate([table, sums]))
    n, m = len(rows), len(doc_ids)
    out = {}
    for name in names:
        values = columns[name].tolist()
        out[name] = LevelScores(seg=values[:n], doc=dict(zip(doc_ids, values[n:n + m],
                                                             strict=True)),
                                sys=values[-1], seg_stats=rows)
    return out


def summed_rows(table: Table, docs: Documents) -> tuple[list[str], Table]:
    """Each document's rows summed (documents in order of first appearance), then all rows:
    added one after the other as ``sum_stats`` adds them (a cumulative sum is sequential),
    so float statistics sum to the same bits."""
    index: dict[str, int] = {}
    group = np.fromiter((index.setdefault(d, len(index)) for d in docs.doc_ids), np.int64,
                        count=len(docs.doc_ids))
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(len(index) + 1)).tolist()
    ordered = table[order]
    sums = [np.cumsum(ordered[a:b], axis=0)[-1] for a, b in zip(bounds, bounds[1:], strict=False)]
    sums.append(np.cumsum(table, axis=0)[-1])
    return list(index), np.array(sums)


def each(fn: Callable[[float], float], values: Table) -> Table:
    """``fn`` (``math.log``, ``math.exp``) on every value: numpy's own log and exp differ
    from the C library's in the last bit for some values, and mteval's numbers are these."""
    return np.fromiter(map(fn, values.ravel().tolist()), np.float64,
                       count=values.size).reshape(values.shape)


def order_columns(family: str, cumulative: Table, individual: Table) -> dict[str, Table]:
    """``order_scores`` for a table: each metric's column."""
    out = {family: cumulative[:, -1]}
    out.update({f"{family}-{n}": cumulative[:, n - 1] for n in range(1, cumulative.shape[1] + 1)})
    out.update({f"{family}i-{n}": individual[:, n - 1]
                for n in range(2, individual.shape[1] + 1)})
    return out


def mteval_bleu_table(table: Table) -> tuple[Table, Table]:
    """``mteval_bleu`` of every row of a statistics table at once: the same operations in
    the same order on each row (logs and exps with ``math``), so the same bits."""
    hyp_len, ref_len = table[:, 0], table[:, 1]
    matches = table[:, 2:2 + MAX_ORDER]
    totals = table[:, 2 + MAX_ORDER:2 + 2 * MAX_ORDER]
    positive = hyp_len > 0
    ratio = np.divide(ref_len, hyp_len, out=np.zeros_like(ref_len), where=positive)
    penalty = np.where(positive, each(math.exp, np.minimum(0.0, 1 - ratio)), 0.0)
    cumulative = np.empty((len(table), MAX_ORDER))
    individual = np.empty((len(table), MAX_ORDER))
    score = np.zeros(len(table))
    smooth = np.ones(len(table))
    for j in range(MAX_ORDER):
        counted = totals[:, j] != 0
        unmatched = counted & (matches[:, j] == 0)
        smooth = np.where(unmatched, smooth * 2, smooth)
        safe = np.where(counted, totals[:, j], 1.0)
        precision = np.where(unmatched, 1 / (smooth * safe), matches[:, j] / safe)
        log_precision = np.zeros(len(table))
        log_precision[counted] = each(math.log, precision[counted])
        individual[:, j] = each(math.exp, log_precision)
        score = score + log_precision
        cumulative[:, j] = each(math.exp, score / (j + 1)) * penalty
    return cumulative, individual


def bleu_table(table: Table) -> dict[str, Table]:
    """Every metric of the family for every row of a statistics table."""
    return order_columns("BLEU", *mteval_bleu_table(table))


def mteval_bleu(stats: Stats) -> tuple[list[float], list[float]]:
    """Cumulative and individual BLEU-1..4 of one statistics vector, as mteval-v13a.

    Same operations in the same order as mteval's ``bleu_score`` (smoothed), so the
    values agree with its output to the last printed digit.
    """
    hyp_len, ref_len = stats[0], stats[1]
    matches = stats[2 : 2 + MAX_ORDER]
    totals = stats[2 + MAX_ORDER : 2 + 2 * MAX_ORDER]
    penalty = math.exp(min(0, 1 - ref_len / hyp_len)) if hyp_len > 0 else 0.0
    cumulative: list[float] = []
    individual: list[float] = []
    score = 0.0
    smooth = 1
    for j in range(MAX_ORDER):
        if totals[j] == 0:
            log_precision = 0.0
        elif matches[j] == 0:
            smooth *= 2
            log_precision = math.log(1 / (smooth * totals[j]))
        else:
            log_precision = math.log(matches[j] / totals[j])
        individual.append(math.exp(log_precision))
        score += log_precision
        cumulative.append(math.exp(score / (j + 1)) * penalty)
    return cumulative, individual


def bleu_from_stats(stats: Stats) -> dict[str, float]:
    """Every metric of the family from one (possibly summed) statistics vector."""
    return order_scores("BLEU", *mteval_bleu(stats))


def _description(name: str) -> str:
    common = (
        " Tokenisation mteval-v13a (= sacrebleu '13a'); closest reference length, shorter on"
        " ties; n-gram counts clipped by the maximum count over the references. Document and"
        " system scores from summed segment statistics. Reference implementation:"
        " mteval-v13a.pl with smoothing (= sacrebleu smooth_method='exp'). mteval quirks kept:"
        " an n-gram order the hypothesis is too short to have counts as precision 1 (the mean"
        " still divides by n), and a hypothesis without any matching unigram keeps its"
        " smoothed score; only there do segments differ from sacrebleu's sentence_bleu."
    )
    if name == "BLEU":
        what = "BLEU: cumulative 4-gram BLEU with brevity penalty (= BLEU-4, ULC's 'BLEU')."
    elif name.startswith("BLEUi-"):
        n = name.split("-")[1]
        what = (
            f"Individual {n}-gram BLEU precision, without brevity penalty; a zero match count"
            " takes mteval's smoothed value 1/(2^k * n-grams)."
        )
    else:
        n = name.split("-")[1]
        what = (
            f"Cumulative BLEU up to {n}-grams: brevity penalty times the geometric mean of the"
            f" 1..{n}-gram precisions (n = {n}), zero match counts smoothed as mteval"
            " (1/(2^k * n-grams))."
        )
    return what + common


METRIC_NAMES = order_names("BLEU", MAX_ORDER)


class BleuFamily(Family):
    """BLEU, BLEU-1..4 and BLEUi-2..4, mteval-v13a compatible, on the 0-1 scale."""

    name = "BLEU"
    version = "v13a.1"

    def specs(self) -> list[MetricSpec]:
        return build_specs(self.name, METRIC_NAMES, _description, range_min=0.0,
                           range_max=1.0, reference_implementation=REFERENCE)

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "13a", "smooth": "exp", "bp": "closest", "impl": "mteval"}

    def segment_stats(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str]], params: Params
    ) -> list[Stats]:
        """sacrebleu's per-segment statistics ``[hyp_len, ref_len, matches.., totals..]``."""
        # sacrebleu annotates Any: its rows are lists of ints (valid floats).
        stats: list[Stats] = sacrebleu_scorer(params)._extract_corpus_statistics(hyps, refs)
        return stats

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set: each text is tokenised and its n-grams
        counted once (``ngram_counts``), each (hypothesis, reference) pair matched once,
        and each set takes, per n-gram, the largest count of its references (sacrebleu's
        clipping); the statistics are sacrebleu's integers."""
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        if any(line is None for refs in refsets for ref in refs for line in ref):
            # sacrebleu's own path leaves out undefined references segment by segment
            return [levels_from_stats([list(row) for row in self.segment_stats(
                hyps, refs, params)], docs, METRIC_NAMES, bleu_table) for refs in refsets]
        return [levels_from_stats(stats, docs, METRIC_NAMES, bleu_table)
                for stats in corpus_stats(hyps, refsets, params)]


def tokens_of(lines: Sequence[str], params: Params) -> list[list[str]]:
    """sacrebleu's tokens of each line (13a, lower-cased with ``Params.lowercase``)."""
    prepare = sacrebleu_scorer(params)._preprocess_segment
    return [prepare(line).split() for line in lines]


def corpus_stats(hyps: Sequence[str], refsets: Sequence[Sequence[Sequence[str]]],
                 params: Params) -> list[list[Stats]]:
    """sacrebleu's per-segment statistics of ``hyps`` against each reference set."""
    encoded, tables, found = against_references(
        tokens_of(hyps, params), refsets, lambda ref: tokens_of(ref, params), MAX_ORDER)
    hyp = encoded.tables[0]
    hyp_len = hyp.lengths
    totals = [np.maximum(hyp_len - n + 1, 0) for n in range(1, MAX_ORDER + 1)]
    nseg = len(hyps)
    out = []
    for refs in refsets:
        matches = []
        for n in range(1, MAX_ORDER + 1):
            clip = found[id(refs[0])][n - 1]
            for ref in refs[1:]:
                clip = np.maximum(clip, found[id(ref)][n - 1])
            matched = np.minimum(hyp.counts[n - 1], clip)
            matches.append(np.bincount(hyp.segments(n), weights=matched,
                                       minlength=nseg).astype(np.int64))
        ref_len = _closest_lengths(hyp_len, [tables[id(r)].lengths
                                             for r in refs])
        columns = np.stack([hyp_len, ref_len, *matches, *totals], axis=1)
        out.append(columns.tolist())
    return out


def _closest_lengths(hyp_len: NDArray[np.int64], ref_lens: list[NDArray[np.int64]]
                     ) -> NDArray[np.int64]:
    """sacrebleu's ``_get_closest_ref_len`` per segment: the closest reference length,
    the shorter one on ties."""
    best = ref_lens[0]
    for lengths in ref_lens[1:]:
        diff, best_diff = np.abs(hyp_len - lengths), np.abs(hyp_len - best)
        best = np.where((diff < best_diff) | ((diff == best_diff) & (lengths < best)),
                        lengths, best)
    return best
