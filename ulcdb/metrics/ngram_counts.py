"""Word n-gram counts as integer arrays, shared by BLEU and NIST.

sacrebleu and mteval count n-grams as tuples of strings in one ``Counter`` per segment and
match them in Python loops: for the LEX suite on a WMT test bed that is millions of tuples
per reference set.  Here every text of one task (a hypothesis and its references) is read
into one array of token ids; the n-grams of order n get integer ids from the pairs (id of
the (n-1)-gram, next token), numbered with ``np.unique`` over all the texts together, so an
n-gram has the same id in every text.  Per text and order the distinct ``(segment, n-gram)``
keys are sorted with their counts; matching a hypothesis against a reference is a
``searchsorted``.  The counts are the same integers the ``Counter``s hold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]


@dataclass(frozen=True)
class NgramTable:
    """The n-grams of one text (a token list per segment), orders 1..max.

    ``keys[n-1]`` holds the sorted distinct codes ``segment * sizes[n-1] + id`` of the
    text's n-grams, ``counts[n-1]`` how often each occurs in its segment, ``totals[n-1]``
    (when asked for) the count of every n-gram id over the whole text.
    """

    keys: list[Ints]
    counts: list[Ints]
    totals: list[Ints]
    lengths: Ints  # tokens per segment
    sizes: list[int]  # number of distinct n-gram ids per order (over every text)

    def segments(self, order: int) -> Ints:
        """Segment of every key of ``order``."""
        return self.keys[order - 1] // self.sizes[order - 1]

    def ids(self, order: int) -> Ints:
        """N-gram id of every key of ``order``."""
        return self.keys[order - 1] % self.sizes[order - 1]


@dataclass(frozen=True)
class Encoded:
    """Every text of a task counted with shared ids, and what NIST needs of the ids."""

    tables: list[NgramTable]
    prefixes: list[Ints]  # with totals: prefixes[n-1][id], the (n-1)-gram id (n >= 2)
    vocabulary: dict[str, int]  # token -> unigram id


def encode(texts: Sequence[Sequence[Sequence[str]]], max_order: int,
           totals: bool = False) -> Encoded:
    """The n-gram tables of ``texts`` (each a token list per segment, all of the same
    number of segments), ids shared between them.

    When every code ``segment * V^n + id`` fits in 62 bits (V tokens: characters, or few
    words) an n-gram's id is its tokens read as a number in base V; otherwise the ids are
    numbered densely.  ``totals`` (what NIST needs: whole-text counts and the prefix of every
    id) asks for dense ids."""
    nseg = len(texts[0])
    flat = [tok for text in texts for tokens in text for tok in tokens]
    vocabulary = {tok: k for k, tok in enumerate(dict.fromkeys(flat))}
    tokens = np.fromiter(map(vocabulary.__getitem__, flat), dtype=np.int64, count=len(flat))
    lengths = [np.fromiter(map(len, text), dtype=np.int64, count=nseg) for text in texts]
    rows = np.repeat(np.arange(len(texts) * nseg, dtype=np.int64), np.concatenate(lengths))
    base = max(len(vocabulary), 1)
    direct = not totals and base ** max_order * max(nseg, 1) < 2**62
    ids = [tokens]  # per order: the id of the n-gram starting at each position (-1: none)
    sizes = [base]
    prefixes = [np.zeros(0, dtype=np.int64)]
    for n in range(2, max_order + 1):
        m = max(len(tokens) - n + 1, 0)
        valid = rows[:m] == rows[n - 1:]
        gram = np.full(m, -1, dtype=np.int64)
        codes = ids[-1][:m][valid] * base + tokens[n - 1:][valid]
        if direct:
            gram[valid] = codes
            sizes.append(base ** n)
        else:
            unique, inverse = np.unique(codes, return_inverse=True)
            gram[valid] = inverse
            sizes.append(max(len(unique), 1))
            prefixes.append(unique // base)
        ids.append(gram)
    tables = []
    start = 0
    for k, text_lengths in enumerate(lengths):
        end = start + int(text_lengths.sum())
        tables.append(_table(ids, rows, (start, end), k * nseg, text_lengths, sizes, totals))
        start = end
    return Encoded(tables, prefixes, vocabulary)


def _table(ids: list[Ints], rows: Ints, span: tuple[int, int], first_row: int,
           lengths: Ints, sizes: list[int], totals: bool) -> NgramTable:
    keys, counts, whole = [], [], []
    start, end = span
    for order, gram in enumerate(ids, 1):
        part = gram[start:max(min(end, len(gram)), start)]
        seg = rows[start:start + len(part)] - first_row
        keep = part >= 0
        unique, count = np.unique(seg[keep] * sizes[order - 1] + part[keep], return_counts=True)
        keys.append(unique)
        counts.append(count.astype(np.int64))
        if totals:
            whole.append(np.bincount(part[keep], minlength=sizes[order - 1]).astype(np.int64))
    return NgramTable(keys, counts, whole, lengths, sizes)


def counts_in(hyp: NgramTable, ref: NgramTable, order: int) -> Ints:
    """For every key of ``hyp`` of ``order``: its count in the same segment of ``ref``."""
    hk, rk = hyp.keys[order - 1], ref.keys[order - 1]
    if not len(rk):
        return np.zeros(len(hk), dtype=np.int64)
    at = np.minimum(np.searchsorted(rk, hk), len(rk) - 1)
    return np.where(rk[at] == hk, ref.counts[order - 1][at], 0)


def against_references(
        hyp: Sequence[Sequence[str]], refsets: Sequence[Sequence[Sequence[str]]],
        tokenise: Callable[[Sequence[str]], Sequence[Sequence[str]]], max_order: int,
        totals: bool = False) -> tuple[Encoded, dict[int, NgramTable], dict[int, list[Ints]]]:
    """The tokenised hypothesis ``hyp`` (table 0) encoded with each distinct reference text of
    ``refsets`` (by identity: a reference in several sets is counted once): the encoding, each
    reference's table by ``id``, and per reference the reference count of every hypothesis
    n-gram of each order (``counts_in``)."""
    unique: dict[int, Sequence[str]] = {}
    for refs in refsets:
        for ref in refs:
            unique.setdefault(id(ref), ref)
    encoded = encode([hyp, *(tokenise(ref) for ref in unique.values())], max_order,
                     totals=totals)
    tables = {key: encoded.tables[k] for k, key in enumerate(unique, 1)}
    found = {key: [counts_in(encoded.tables[0], table, n) for n in range(1, max_order + 1)]
             for key, table in tables.items()}
    return encoded, tables, found
