"""compare-mt's word accuracy by word frequency (``FreqWordBucketer``, Neubig et al. 2019).

Each output word is matched to a reference word (compare-mt's ``_calc_trg_matches``: the
n-th occurrence of a word in the output matches its n-th occurrence in the reference, if
any).  Words are bucketed by their frequency in the reference: a reference word by its own
frequency, an output word by the bucket of the reference word it matches, else by its own
frequency (0 for a word absent from the reference).  Per bucket and system, summed over the
segments: matches, reference words, output words, recall = matches / reference words,
precision = matches / output words, and their F-measure (all 0 when nothing matches).
compare-mt's default cutoffs 1, 2, 3, 4, 5, 10, 100, 1000 give the buckets <1, 1, 2, 3, 4,
[5,10), [10,100), [100,1000), >=1000.

Pure functions over token lists; ``ulcdb.compare.analysis`` reads the texts from the store.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FREQ_CUTOFFS: tuple[int, ...] = (1, 2, 3, 4, 5, 10, 100, 1000)


@dataclass(frozen=True)
class WordAccuracy:
    """One system in one frequency bucket."""

    bucket: str
    system: str
    n_ref: int  # reference words in the bucket
    n_out: int  # output words in the bucket
    n_match: int
    recall: float
    precision: float
    fmeas: float


def bucket_labels(cutoffs: Sequence[int]) -> list[str]:
    """compare-mt's ``set_bucket_cutoffs`` labels for integer cutoffs."""
    out = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            out.append(f"<{x}")
        elif x - 1 == cutoffs[i - 1]:
            out.append(f"{x - 1}")
        else:
            out.append(f"[{cutoffs[i - 1]},{x})")
    out.append(f">={cutoffs[-1]}")
    return out


def bucket_of(value: int, cutoffs: Sequence[int]) -> int:
    for i, v in enumerate(cutoffs):
        if value < v:
            return i
    return len(cutoffs)


def match_positions(ref: Sequence[str], out: Sequence[str]) -> list[int]:
    """For each output word the reference position it matches, or -1."""
    positions: dict[str, list[int]] = {}
    for i, w in enumerate(ref):
        positions.setdefault(w, []).append(i)
    seen: Counter[str] = Counter()
    matches = []
    for w in out:
        at = positions.get(w, [])
        matches.append(at[seen[w]] if seen[w] < len(at) else -1)
        seen[w] += 1
    return matches


def word_accuracy(refs: Sequence[Sequence[str]], outs: Mapping[str, Sequence[Sequence[str]]],
                  freq: Mapping[str, int] | None = None,
                  cutoffs: Sequence[int] = FREQ_CUTOFFS) -> list[WordAccuracy]:
    """Per bucket (in order) and system, compare-mt's word accuracy of ``outs`` (system ->
    tokenised segments aligned with ``refs``); ``freq`` defaults to the counts in ``refs``."""
    counts = Counter(w for sent in refs for w in sent) if freq is None else freq
    k = len(cutoffs) + 1
    ref_total = [0] * k
    out_total = {s: [0] * k for s in outs}
    matched = {s: [0] * k for s in outs}
    for i, ref in enumerate(refs):
        ref_buckets = [bucket_of(counts.get(w, 0), cutoffs) for w in ref]
        for b in ref_buckets:
            ref_total[b] += 1
        for system, sents in outs.items():
            out = sents[i]
            for w, m in zip(out, match_positions(ref, out), strict=True):
                b = ref_buckets[m] if m >= 0 else bucket_of(counts.get(w, 0), cutoffs)
                out_total[system][b] += 1
                matched[system][b] += m >= 0
    rows = []
    for b, label in enumerate(bucket_labels(cutoffs)):
        for system in outs:
            m, o, r = matched[system][b], out_total[system][b], ref_total[b]
            rec = m / r if m else 0.0
            prec = m / o if m else 0.0
            f = 2 * prec * rec / (prec + rec) if m else 0.0
            rows.append(WordAccuracy(label, system, r, o, m, rec, prec, f))
    return rows
