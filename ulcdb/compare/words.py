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

Beyond compare-mt's point values: its bootstrap intervals of the F-measure
(``calc_bucket_details``: 1000 samples of half the segments, seeded here) and, for two
systems, a paired bootstrap p-value of their F difference per bucket (sacrebleu's draws and
p-value, as every test of `ulcdb compare`).

Pure functions over token lists; ``ulcdb.compare.analysis`` reads the texts from the store.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ulcdb.stats.correlations import FloatArray, IntArray

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
    f_low: float | None = None  # compare-mt's bootstrap interval of fmeas
    f_high: float | None = None
    p_value: float | None = None  # paired bootstrap against the first system


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


Counts = tuple[IntArray, dict[str, IntArray], dict[str, IntArray]]


def segment_counts(refs: Sequence[Sequence[str]],
                   outs: Mapping[str, Sequence[Sequence[str]]], freq: Mapping[str, int],
                   cutoffs: Sequence[int] = FREQ_CUTOFFS) -> Counts:
    """Per segment and bucket: reference words, and per system output words and matches
    (compare-mt's ``my_ref_total_list``, ``my_out_totals_list``, ``my_out_matches_list``)."""
    k = len(cutoffs) + 1
    ref_total = np.zeros((len(refs), k), dtype=np.int64)
    out_total = {s: np.zeros((len(refs), k), dtype=np.int64) for s in outs}
    matched = {s: np.zeros((len(refs), k), dtype=np.int64) for s in outs}
    for i, ref in enumerate(refs):
        ref_buckets = [bucket_of(freq.get(w, 0), cutoffs) for w in ref]
        for b in ref_buckets:
            ref_total[i, b] += 1
        for system, sents in outs.items():
            out = sents[i]
            for w, m in zip(out, match_positions(ref, out), strict=True):
                b = ref_buckets[m] if m >= 0 else bucket_of(freq.get(w, 0), cutoffs)
                out_total[system][i, b] += 1
                matched[system][i, b] += m >= 0
    return ref_total, out_total, matched


def prf(m: ArrayLike, o: ArrayLike, r: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Recall, precision and F-measure of summed counts (0 where nothing matches)."""
    m, o, r = (np.asarray(x, dtype=float) for x in (m, o, r))
    hit = m > 0
    rec = np.divide(m, r, out=np.zeros_like(m), where=hit)
    prec = np.divide(m, o, out=np.zeros_like(m), where=hit)
    f = np.divide(2 * prec * rec, prec + rec, out=np.zeros_like(m), where=hit)
    return rec, prec, f


def f_intervals(ref_total: IntArray, out_total: IntArray, matched: IntArray,
                num_samples: int = 1000, sample_ratio: float = 0.5,
                seed: int | None = None) -> tuple[FloatArray, FloatArray]:
    """compare-mt's ``calc_bucket_details``: F-measure per bucket on ``num_samples`` samples
    of ceil(n * sample_ratio) segments drawn with ``np.random.choice`` (here from a
    ``RandomState(seed)``, what compare-mt draws after ``np.random.seed(seed)``); the
    interval is the sorted samples' entries int(0.025 N) and int(0.975 N)."""
    rs = np.random.RandomState(seed)
    n = len(ref_total)
    ids = list(range(n))
    size = int(np.ceil(n * sample_ratio))
    fs = np.empty((num_samples, ref_total.shape[1]))
    for j in range(num_samples):
        pick = rs.choice(ids, size=size, replace=True)
        fs[j] = prf(matched[pick].sum(0), out_total[pick].sum(0), ref_total[pick].sum(0))[2]
    fs.sort(axis=0)
    return fs[int(num_samples * 0.025)], fs[int(num_samples * 0.975)]


def paired_p(ref_total: IntArray, out_a: IntArray, match_a: IntArray,
             out_b: IntArray, match_b: IntArray, resamples: int = 1000,
             seed: int | None = 12345) -> FloatArray:
    """Per bucket, the p-value of the F-measure difference of two systems by paired
    bootstrap resampling of segments, with sacrebleu's draws and p-value (as `ulcdb
    compare`); 1 where the two systems' counts are the same on every segment."""
    from ulcdb.stats.sacrebleu_significance import bootstrap_indices, paired_from_samples

    idxs = bootstrap_indices(len(ref_total), resamples, seed)
    fa = np.array([prf(match_a[i].sum(0), out_a[i].sum(0), ref_total[i].sum(0))[2]
                   for i in idxs])
    fb = np.array([prf(match_b[i].sum(0), out_b[i].sum(0), ref_total[i].sum(0))[2]
                   for i in idxs])
    real_a = prf(match_a.sum(0), out_a.sum(0), ref_total.sum(0))[2]
    real_b = prf(match_b.sum(0), out_b.sum(0), ref_total.sum(0))[2]
    out = np.array([paired_from_samples(float(real_a[b]), float(real_b[b]), fa[:, b],
                                        fb[:, b]).p_value for b in range(ref_total.shape[1])])
    diffs = np.abs(fb - fa)
    out[np.all(diffs == 0, axis=0)] = 1.0  # no resample tells them apart (e.g. both 0)
    return out


def word_accuracy(refs: Sequence[Sequence[str]], outs: Mapping[str, Sequence[Sequence[str]]],
                  freq: Mapping[str, int] | None = None,
                  cutoffs: Sequence[int] = FREQ_CUTOFFS, resamples: int = 0,
                  seed: int | None = 12345,
                  tick: Callable[[str, int], None] | None = None) -> list[WordAccuracy]:
    """Per bucket (in order) and system, compare-mt's word accuracy of ``outs`` (system ->
    tokenised segments aligned with ``refs``); ``freq`` defaults to the counts in ``refs``.
    With ``resamples``: compare-mt's F intervals (``f_intervals``, seeded) and, for every
    system after the first, the paired p-value against the first (``paired_p``); ``tick``
    hears (system, 1) as each system's figures are done."""
    counts = Counter(w for sent in refs for w in sent) if freq is None else freq
    ref_total, out_total, matched = segment_counts(refs, outs, counts, cutoffs)
    r_sum = ref_total.sum(0)
    first = next(iter(outs))
    extra: dict[str, tuple[FloatArray, FloatArray, FloatArray]] = {}
    if resamples and len(refs):
        for system in outs:
            lo, hi = f_intervals(ref_total, out_total[system], matched[system], resamples,
                                 seed=seed)
            p = (paired_p(ref_total, out_total[first], matched[first], out_total[system],
                          matched[system], resamples, seed) if system != first
                 else np.full(len(r_sum), np.nan))
            extra[system] = (lo, hi, p)
            if tick is not None:
                tick(system, 1)
    rows = []
    for b, label in enumerate(bucket_labels(cutoffs)):
        for system in outs:
            m, o = int(matched[system][:, b].sum()), int(out_total[system][:, b].sum())
            rec, prec, f = (float(x) for x in prf(np.array(m), np.array(o), r_sum[b]))
            low: float | None = None
            high: float | None = None
            pv: float | None = None
            if system in extra:
                low, high = float(extra[system][0][b]), float(extra[system][1][b])
                pv = None if np.isnan(extra[system][2][b]) else float(extra[system][2][b])
            rows.append(WordAccuracy(label, system, int(r_sum[b]), o, m, rec, prec, f, low,
                                     high, pv))
    return rows
