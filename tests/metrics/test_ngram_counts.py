"""The integer n-gram counts BLEU and NIST match with, against sacrebleu's and mteval's
own Counter-based paths (issue 28: same integers and floats, several sets in one pass)."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics.helpers import extract_all_word_ngrams

from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.bleu import corpus_stats, sacrebleu_scorer, tokens_of
from ulcdb.metrics.ngram_counts import counts_in, encode
from ulcdb.metrics.nist import InformationWeights, NistFamily, segment_stats

# Empty lines, repeated n-grams, the token "0" (mteval's prefix quirk), shared and unseen words.
HYPS = ["the cat sat on the mat the cat", "", "0 a b 0 a", "a a a a", "x y z", "0 0 0 x"]
REF_A = ["the cat is on the mat", "nothing here", "0 a b c", "a a b", "", "0 0 x"]
REF_B = ["a cat sat on a mat the cat sat", "", "b 0 a b", "a a a a a a", "z y x", "0 0"]
DOCS = Documents(("d1", "d1", "d1", "d2", "d2", "d2"))
SETS = [[REF_A], [REF_B], [REF_A, REF_B], [REF_B, REF_A]]


@pytest.mark.parametrize("dense", [False, True])  # ids as base-V numbers, or numbered
def test_counts_and_matches_equal_the_counters(dense: bool) -> None:
    texts = [HYPS, REF_A, REF_B]
    encoded = encode([[line.split() for line in text] for text in texts], 4, totals=dense)
    assert bool(encoded.tables[0].totals) == dense
    hyp = encoded.tables[0]
    for ref_text, ref in zip(texts[1:], encoded.tables[1:], strict=True):
        for order in range(1, 5):
            found = counts_in(hyp, ref, order)
            for seg, line in enumerate(HYPS):
                mine = hyp.segments(order) == seg
                counter, length = extract_all_word_ngrams(line, order, order)
                assert hyp.lengths[seg] == length
                assert sorted(hyp.counts[order - 1][mine].tolist()) == sorted(counter.values())
                ref_counter, _ = extract_all_word_ngrams(ref_text[seg], order, order)
                clipped = np.minimum(hyp.counts[order - 1][mine], found[mine]).sum()
                assert clipped == sum(min(c, ref_counter[g]) for g, c in counter.items())


def test_bleu_statistics_are_sacrebleus_for_every_set() -> None:
    for lowercase in (False, True):
        params = Params(lowercase=lowercase)
        got = corpus_stats([h.upper() if lowercase else h for h in HYPS], SETS, params)
        for refs, stats in zip(SETS, got, strict=True):
            scorer = sacrebleu_scorer(params)
            hyps = [h.upper() if lowercase else h for h in HYPS]
            assert stats == [list(r) for r in scorer._extract_corpus_statistics(hyps, refs)]


def test_nist_statistics_are_mtevals_for_every_set() -> None:
    params = Params()
    got = NistFamily().compute_many(HYPS, SETS, DOCS, params)
    for refs, scores in zip(SETS, got, strict=True):
        ref_tokens = [tokens_of(ref, params) for ref in refs]
        info = InformationWeights.from_references([t for ref in ref_tokens for t in ref])
        expected = [segment_stats(h, [ref[i] for ref in ref_tokens], info)
                    for i, h in enumerate(tokens_of(HYPS, params))]
        assert scores["NIST"].seg_stats == expected


def test_chrf_statistics_are_sacrebleus_for_every_set() -> None:
    """Characters and words counted as integer ids give sacrebleu's counts, per reference
    and (best F per segment) per set, empty and undefined (None) references included."""
    from sacrebleu.metrics.chrf import CHRF

    from ulcdb.metrics.chrf import ChrfFamily

    hyps = [*HYPS, "Hello, (world)!", "naïve café"]
    ref_a = [*REF_A, "hello (world) !", "Naïve Café"]
    ref_b = [*REF_B, None, "naive cafe"]  # None: undefined, sacrebleu skips it
    docs = Documents((*DOCS.doc_ids, "d3", "d3"))
    sets = [[ref_a], [ref_a, ref_b], [ref_b, ref_a]]
    for lowercase in (False, True):
        got = ChrfFamily().compute_many(hyps, sets, docs, Params(lowercase=lowercase))
        for refs, scores in zip(sets, got, strict=True):
            for name, word_order in (("chrF", 0), ("chrF++", 2)):
                metric = CHRF(word_order=word_order, lowercase=lowercase)
                expected = metric._extract_corpus_statistics(hyps, refs)
                assert scores[name].seg_stats == [[float(x) for x in row] for row in expected]
