"""NIST family, compatible with mteval-v13a (the NIST scorer ULC and Asiya run).

NIST (Doddington, 2002) credits each matched n-gram with its *information*, estimated from
the references of the scored set: ``info(w1..wn) = -log2(count(w1..wn) / count(w1..wn-1))``
(for unigrams the denominator is the number of reference words).  The counts run over every
reference segment of every reference given to ``compute`` -- so, as in mteval, every NIST
value (segments included) depends on which segments are scored together, and document
scores use the weights of the whole set.

Per segment: individual NIST-n = (information of the matched n-grams, clipped by the
maximum reference count) / (number of hypothesis n-grams) x length penalty; cumulative
NIST-n sums the individual terms for 1..n, then applies the penalty.  The length penalty is
``exp(-beta * log(ratio)^2)`` of ``ratio = hyp_len / average reference length``, 1 when the
ratio is at least 1, with ``beta`` such that a ratio of 1.5 gives 0.5 (mteval's
``nist_length_penalty``).  Document and system scores come from summed statistics.

``LevelScores.seg_stats`` holds ``[hyp_len, total_ref_len, info_1..5, hyp_ngrams_1..5]``
per segment (``total_ref_len`` summed over the references); ``nist_from_stats(summed,
nrefs)`` re-aggregates any group of them.  The ``info_n`` are only valid with the other
segments of the set they were computed in.

Tokenisation is sacrebleu's ``13a`` (mteval-v13a's own).  One mteval quirk is kept: Perl
reads the n-gram prefix ``"0"`` as false, so a bigram starting with the token ``0`` is
weighted against the number of reference words instead of the count of ``0``.  Case is
handled as in the BLEU family (``str.lower`` when ``Params.lowercase``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.base import (
    Documents,
    Family,
    LevelScores,
    MetricSpec,
    Params,
    build_specs,
    check_inputs,
)
from ulcdb.metrics.bleu import (
    Stats,
    Table,
    each,
    levels_from_stats,
    order_columns,
    order_names,
    order_scores,
    tokens_of,
)
from ulcdb.metrics.ngram_counts import Encoded, NgramTable, against_references

MAX_ORDER = 5
REFERENCE = "mteval-v13a.pl (NIST), with sacrebleu 2.6.0's tokenizer 13a"
# mteval's nist_length_penalty: a length ratio of 1.5 scores 0.5.
_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)
_LOG2 = math.log(2)

Ngram = tuple[str, ...]


def ngrams(tokens: Sequence[str]) -> Iterator[Ngram]:
    """Every n-gram of orders 1..MAX_ORDER, as tuples of tokens."""
    shifted = [tokens[i:] for i in range(MAX_ORDER)]
    return chain.from_iterable([zip(*shifted[:n], strict=False) for n in range(1, MAX_ORDER + 1)])


@dataclass(frozen=True)
class InformationWeights:
    """mteval's ``compute_ngram_info``: n-gram counts over all the reference segments.

    Weights are computed on demand, for the n-grams a hypothesis matches only.
    """

    counts: Mapping[Ngram, int]  # a Counter, or the merged counts of several references
    total_words: int

    @classmethod
    def from_references(cls, ref_tokens: Sequence[Sequence[str]]) -> InformationWeights:
        counts = Counter(chain.from_iterable(map(ngrams, ref_tokens)))
        return cls(counts, sum(map(len, ref_tokens)))

    def __call__(self, gram: Ngram) -> float:
        """``-log2(count(gram) / count(prefix))``; unigrams over the number of words."""
        prefix = gram[:-1]
        # Perl's `$mgram ? ... : $tot_wrds`: the prefix "" and the prefix "0" are both false.
        denominator = self.counts[prefix] if prefix and prefix != ("0",) else self.total_words
        return -math.log(self.counts[gram] / denominator) / _LOG2


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], info: InformationWeights
) -> Stats:
    """``[hyp_len, total_ref_len, info_1..5, hyp_ngrams_1..5]`` of one segment.

    ``total_ref_len`` is summed over the references (mteval divides it by their number).
    """
    return _counted_stats(len(hyp), Counter(ngrams(hyp)), [Counter(ngrams(ref)) for ref in refs],
                          sum(len(ref) for ref in refs), info)


def _counted_stats(
    hyp_len: int, hyp_counts: Counter[Ngram], ref_counts: Sequence[Counter[Ngram]], ref_len: int,
    info: InformationWeights, memo: dict[Ngram, float] | None = None,
) -> Stats:
    """``segment_stats`` from the n-gram counts of the hypothesis and of each reference.

    ``memo`` (gram -> information weight) may be shared by the segments of one scored set.
    """
    if memo is None:
        memo = {}
    terms: list[list[float]] = [[] for _ in range(MAX_ORDER)]
    gets = [counts.get for counts in ref_counts]
    single = gets[0] if len(gets) == 1 else None
    for gram in hyp_counts.keys() & info.counts.keys():
        clip = single(gram, 0) if single is not None else max([g(gram, 0) for g in gets])
        if clip:
            weight = memo.get(gram)
            if weight is None:
                weight = memo[gram] = info(gram)
            terms[len(gram) - 1].append(weight * min(hyp_counts[gram], clip))
    # The set's iteration order follows string hashes, which differ between processes:
    # fsum's exactly rounded sum makes the result independent of it (bit-identical runs).
    gained = [math.fsum(t) for t in terms]
    hyp_ngrams = [max(hyp_len - n, 0) for n in range(MAX_ORDER)]
    return [hyp_len, ref_len, *gained, *hyp_ngrams]


def length_penalty(hyp_len: float, ref_len_total: float, nrefs: int) -> float:
    """mteval's ``nist_length_penalty`` of hyp_len / average reference length."""
    if ref_len_total <= 0:  # mteval dies here (division by zero); nothing can match anyway
        return 1.0
    ratio = hyp_len / (ref_len_total / nrefs)
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    return math.exp(-_BETA * math.log(ratio) * math.log(ratio))


def mteval_nist(stats: Stats, nrefs: int) -> tuple[list[float], list[float]]:
    """Cumulative and individual NIST-1..5 of one statistics vector, as mteval-v13a."""
    penalty = length_penalty(stats[0], stats[1], nrefs)
    gained = stats[2 : 2 + MAX_ORDER]
    hyp_ngrams = stats[2 + MAX_ORDER : 2 + 2 * MAX_ORDER]
    cumulative: list[float] = []
    individual: list[float] = []
    score = 0.0
    for n in range(MAX_ORDER):
        term = gained[n] / max(hyp_ngrams[n], 1)
        score += term
        cumulative.append(score * penalty)
        individual.append(term * penalty)
    return cumulative, individual


def mteval_nist_table(table: Table, nrefs: int) -> tuple[Table, Table]:
    """``mteval_nist`` of every row of a statistics table at once: the same operations in
    the same order on each row (logs and exps with ``math``), so the same bits."""
    hyp_len, ref_total = table[:, 0], table[:, 1]
    penalty = np.ones(len(table))
    known = ref_total > 0
    ratio = np.divide(hyp_len, ref_total / nrefs, out=np.ones_like(hyp_len), where=known)
    penalty[ratio <= 0] = 0.0
    short = (ratio > 0) & (ratio < 1)
    logs = each(math.log, ratio[short])
    penalty[short] = each(math.exp, -_BETA * logs * logs)
    gained = table[:, 2:2 + MAX_ORDER]
    hyp_ngrams = table[:, 2 + MAX_ORDER:2 + 2 * MAX_ORDER]
    cumulative = np.empty((len(table), MAX_ORDER))
    individual = np.empty((len(table), MAX_ORDER))
    score = np.zeros(len(table))
    for n in range(MAX_ORDER):
        term = gained[:, n] / np.maximum(hyp_ngrams[:, n], 1.0)
        score = score + term
        cumulative[:, n] = score * penalty
        individual[:, n] = term * penalty
    return cumulative, individual


def nist_from_stats(stats: Stats, nrefs: int) -> dict[str, float]:
    """Every metric of the family from one (possibly summed) statistics vector."""
    return order_scores("NIST", *mteval_nist(stats, nrefs))


def _description(name: str) -> str:
    common = (
        " Information weights -log2(count(w1..wn)/count(w1..wn-1)) counted over all reference"
        " segments of the scored set (so every value depends on the set scored together);"
        " matched n-gram counts clipped by the maximum reference count; length penalty"
        " exp(-beta*log(ratio)^2) below the average reference length (0.5 at ratio 1/1.5)."
        " Tokenisation mteval-v13a (= sacrebleu '13a'). Document and system scores from"
        " summed segment statistics. Reference implementation: mteval-v13a.pl, including its"
        " quirk that a bigram starting with the token '0' is weighted like a unigram."
    )
    if name == "NIST":
        what = "NIST: cumulative NIST up to 5-grams (= NIST-5, ULC's 'NIST')."
    elif name.startswith("NISTi-"):
        n = name.split("-")[1]
        what = (
            f"Individual {n}-gram NIST: information of the matched {n}-grams per hypothesis"
            f" {n}-gram, times the length penalty."
        )
    else:
        n = name.split("-")[1]
        what = (
            f"Cumulative NIST up to {n}-grams: the individual 1..{n}-gram terms summed, times"
            " the length penalty."
        )
    return what + common


METRIC_NAMES = order_names("NIST", MAX_ORDER)


class NistFamily(Family):
    """NIST, NIST-1..5 and NISTi-2..5, mteval-v13a compatible (natural scale)."""

    name = "NIST"
    version = "v13a.1"

    def specs(self) -> list[MetricSpec]:
        return build_specs(self.name, METRIC_NAMES, _description, range_min=0.0,
                           range_max=None, reference_implementation=REFERENCE)

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "13a", "info": "scored-set", "impl": "mteval"}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set, sharing tokens and n-gram counts.

        Every text is tokenised and its n-grams counted once, as integer arrays
        (``ngram_counts``); a set's information weights come from its references' whole-text
        counts summed (mteval counts the concatenated references), each matched n-gram's
        weight computed with ``math.log`` on the same integers as ``InformationWeights``,
        and each segment's gain summed with ``math.fsum`` as ``segment_stats`` does.
        """
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        encoded, by_id, found = against_references(
            tokens_of(hyps, params), refsets, lambda ref: tokens_of(ref, params), MAX_ORDER,
            totals=True)
        hyp = encoded.tables[0]
        hyp_ngrams = np.maximum(hyp.lengths[:, None] - np.arange(MAX_ORDER), 0)
        out = []
        for refs in refsets:
            tables = [by_id[id(ref)] for ref in refs]
            gained = _gains(hyp, tables, [found[id(ref)] for ref in refs], encoded,
                            len(hyps))
            ref_len = np.sum([t.lengths for t in tables], axis=0)
            table = np.column_stack([hyp.lengths, ref_len, gained, hyp_ngrams])
            out.append(_levels(table, len(refs), docs))
        return out


def _gains(hyp: NgramTable, refs: list[NgramTable], found: list[list[NDArray[np.int64]]],
           encoded: Encoded, nseg: int) -> Table:
    """Per segment, the information of its matched n-grams of each order 1..MAX_ORDER
    (``_counted_stats``'s ``gained``): weight times the count clipped by the largest
    reference count, summed exactly (``math.fsum``).  A weight is ``math.log`` of the same
    quotient of integers as ``InformationWeights``', taken once per distinct quotient."""
    words = int(sum(int(t.lengths.sum()) for t in refs))
    zero = encoded.vocabulary.get("0")
    out = np.empty((nseg, MAX_ORDER))
    previous: NDArray[np.int64] | None = None
    for n in range(1, MAX_ORDER + 1):
        clip = found[0][n - 1]
        for other in found[1:]:
            clip = np.maximum(clip, other[n - 1])
        counts = np.sum([t.totals[n - 1] for t in refs], axis=0)
        matched = np.flatnonzero(clip)
        ids = hyp.ids(n)[matched]
        grams, where = np.unique(ids, return_inverse=True)
        if n == 1:
            denominators = np.full(len(grams), words, dtype=np.int64)
        else:
            assert previous is not None
            prefix = encoded.prefixes[n - 1][grams]
            denominators = previous[prefix]
            if n == 2 and zero is not None:  # Perl reads the prefix "0" as false
                denominators = np.where(prefix == zero, words, denominators)
        quotients, back = np.unique(counts[grams] / denominators, return_inverse=True)
        weights = (-each(math.log, quotients) / _LOG2)[back]
        terms = (weights[where] * np.minimum(hyp.counts[n - 1][matched], clip[matched])
                 ).tolist()
        segs = hyp.segments(n)[matched]
        bounds = np.searchsorted(segs, np.arange(nseg + 1)).tolist()
        out[:, n - 1] = list(map(math.fsum, map(terms.__getitem__,
                                                map(slice, bounds, bounds[1:]))))
        previous = counts
    return out


def _levels(table: Table, nrefs: int, docs: Documents) -> dict[str, LevelScores]:
    return levels_from_stats(table, docs, METRIC_NAMES,
                             lambda table: order_columns("NIST", *mteval_nist_table(table, nrefs)))
