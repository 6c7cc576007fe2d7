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
from functools import lru_cache
from itertools import chain

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
    levels_from_stats,
    order_names,
    order_scores,
    sacrebleu_scorer,
)

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

        Every text is tokenised and counted once; a set's information weights are its
        references' whole-text counts merged in the set's order (the same counter, key order
        included, as counting the concatenated references, as mteval does).  Each set then
        runs mteval's per-segment arithmetic (``segment_stats``).
        """
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        prepare = sacrebleu_scorer(params)._preprocess_segment
        hyp_tokens = [prepare(line).split() for line in hyps]
        hyp_counts = [Counter(ngrams(tokens)) for tokens in hyp_tokens]
        out = []
        for refs in refsets:
            parts = [_reference_counts(tuple(ref), params) for ref in refs]
            info, memo = _information(tuple(tuple(ref) for ref in refs), params)
            stats = [
                _counted_stats(len(tokens), hyp_counts[i], [p[0][i] for p in parts],
                               sum(p[1][i] for p in parts), info, memo)
                for i, tokens in enumerate(hyp_tokens)
            ]
            out.append(_levels(stats, len(refs), docs))
        return out


RefCounts = tuple[list[Counter[Ngram]], list[int], Counter[Ngram]]


@lru_cache(maxsize=8)
def _reference_counts(lines: tuple[str, ...], params: Params) -> RefCounts:
    """One reference's per-segment n-gram counts, lengths and whole-text counts, kept for
    the process: every system of a test bed is scored against the same references."""
    prepare = sacrebleu_scorer(params)._preprocess_segment
    tokens = [prepare(line).split() for line in lines]
    return ([Counter(ngrams(t)) for t in tokens], [len(t) for t in tokens],
            Counter(chain.from_iterable(map(ngrams, tokens))))


@lru_cache(maxsize=8)
def _information(refs: tuple[tuple[str, ...], ...], params: Params
                 ) -> tuple[InformationWeights, dict[Ngram, float]]:
    """A reference set's information weights and the memo of those computed so far, shared
    by every system scored against the set (a weight depends on the references only)."""
    parts = [_reference_counts(ref, params) for ref in refs]
    counts = parts[0][2] if len(parts) == 1 else _MergedCounts([p[2] for p in parts])
    return InformationWeights(counts, sum(sum(lengths) for _, lengths, _ in parts)), {}


class _MergedCounts(dict[Ngram, int]):
    """The counts of several references' n-grams together, summed on lookup.

    Its keys are those of ``Counter(chain(...))`` over the references in order, in the same
    order (first occurrence); a lookup sums the references' integer counts, so every
    information weight is the one the merged counter gives.  The stored values are 0
    placeholders: only ``keys()`` and ``[]`` read it (``InformationWeights``).
    """

    def __init__(self, parts: Sequence[Counter[Ngram]]) -> None:
        super().__init__(dict.fromkeys(chain.from_iterable(parts), 0))
        self._gets = [part.get for part in parts]

    def __getitem__(self, gram: Ngram) -> int:
        return sum([get(gram, 0) for get in self._gets])


def _levels(stats: list[Stats], nrefs: int, docs: Documents) -> dict[str, LevelScores]:
    return levels_from_stats(stats, docs, METRIC_NAMES, lambda row: nist_from_stats(row, nrefs))
