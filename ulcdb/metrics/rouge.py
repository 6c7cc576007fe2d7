"""ROUGE family: ROUGE-1.5.5's F values, as ULC and Asiya run it.

Options ``-z SPL -2 -1 -U -m -r 1000 -n 4 -w 1.2 -c 95 -d`` (ULC manual, section 4.1) with the
defaults ``-f A`` and ``-p 0.5``.  Every segment is one ROUGE evaluation (peer = hypothesis,
models = references).  What ROUGE-1.5.5 does, and this module reproduces:

* **Tokens.** ASCII letters are lower-cased (always: ``Params.lowercase`` changes nothing),
  every other character than an ASCII letter or digit separates tokens.  ``-m``: a token
  longer than 3 characters is looked up in WordNet's irregular forms (``went`` -> ``go``),
  else Porter-stemmed by the stemmer ROUGE carries (see ``rouge_stem.RougePorterStemmer``).
* **ROUGE-N** (n = 1..4): clipped n-gram hits; R over the reference n-grams, P over the
  hypothesis n-grams.  **ROUGE-L**: LCS length over the reference / hypothesis length.
* **ROUGE-W-1.2**: ROUGE's weighted-LCS dynamic programme (f(k) = k^1.2, its tie-breaking
  included); the hit is the sum of f(run) over the runs of *reference* positions that its
  trace-back marks (consecutive in the reference, not necessarily in the hypothesis).
  R = f^-1(hit / f(f(|ref|))) -- ROUGE-1.5.5 weights the reference length twice -- and
  P = f^-1(hit / f(|hyp|)).
* **ROUGE-S***: clipped skip-bigrams at any distance.  **ROUGE-SU***: the same plus the
  unigrams of every token but the last of each side (ROUGE's loop stops one token early).
* **-f A**: several references pool their hits and counts before R and P (no best pick).
* **Rounding.** R and P are rounded to 5 decimals (``%7.5f``), F is computed from them and
  rounded again (the ``Eval`` lines).
* **Averages.** A document's or the system's value is ROUGE's ``Average_F`` of a run on those
  segments: not the plain mean of the segment F values but the mean of 1000 bootstrap
  means (``-r 1000``; resample r drawn with Perl's ``rand`` after ``srand(r)``), rounded to
  5 decimals.  It differs from the plain mean by up to 0.004 on the shared sample.  Asiya's
  system value is the same; its document value is the plain mean of the segment scores.

Sufficient statistics per reference (hits and counts) are cached, so scoring against A, B
and A+B matches every (hypothesis, reference) pair once.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, TypeVar

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics import rouge_kernel
from ulcdb.metrics.base import (
    Documents,
    Family,
    LevelScores,
    MetricSpec,
    Params,
    build_specs,
    check_inputs,
)
from ulcdb.metrics.rouge_table import f_values, round5
from ulcdb.metrics.wordnet import VERSION as WORDNET_VERSION
from ulcdb.metrics.wordnet import wordnet_dir

if TYPE_CHECKING:
    from ulcdb.metrics.rouge_stem import RougePorterStemmer

ROUGE_OPTIONS = "-z SPL -2 -1 -U -m -r 1000 -n 4 -w 1.2 -c 95 -d"
REFERENCE = f"ROUGE-1.5.5 (Lin 2004), options '{ROUGE_OPTIONS}' (-f A, -p 0.5); value = F"
WEIGHT = 1.2  # -w 1.2: f(k) = k ** 1.2
ALPHA = 0.5  # -p 0.5: F = P*R / ((1 - alpha) * P + alpha * R)
MAX_N = 4
RESAMPLES = 1000  # -r 1000
_DRAND48_MULT = np.uint64(0x5DEECE66D)
_DRAND48_ADD = np.uint64(0xB)
_DRAND48_MASK = np.uint64((1 << 48) - 1)
NGRAM_NAMES = tuple(f"RG-{n}" for n in range(1, MAX_N + 1))
METRIC_NAMES = (*NGRAM_NAMES, "RG-L", "RG-S*", "RG-SU*", "RG-W-1.2")
EXCEPTIONS_VERSION = WORDNET_VERSION
_EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")

# One (hit, reference count, hypothesis count) triple per metric, in METRIC_NAMES order.
Counts = tuple[tuple[float, float, float], ...]


# --- tokens -----------------------------------------------------------------------------------


@cache
def _exceptions() -> dict[str, str]:
    """Irregular form -> base form, built as ROUGE's ``buildExeptionDB.pl`` builds its DB.

    Each line ``form base [base...]`` maps the form to its first base; a form listed in two
    files takes the base of the file read last (ROUGE read them in directory order; here
    adj, adv, noun, verb, so ``better`` and ``best`` map to ``well``).
    """
    folder = wordnet_dir()
    table: dict[str, str] = {}
    for name in _EXCEPTION_FILES:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            fields = line.split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


@cache
def _porter() -> RougePorterStemmer:  # imported late: nltk takes seconds to load
    from ulcdb.metrics.rouge_stem import RougePorterStemmer

    return RougePorterStemmer()


@lru_cache(maxsize=1 << 16)
def stem(token: str) -> str:
    """ROUGE's ``-m``: WordNet exception, else Porter stem, for tokens longer than 3 chars."""
    if len(token) <= 3:
        return token
    base = _exceptions().get(token)
    return base if base is not None else _porter().stem(token, to_lowercase=False)


def tokenize(text: str) -> tuple[str, ...]:
    """ROUGE-1.5.5's tokens of a segment, stemmed as with ``-m``."""
    return tuple(stem(tok) for tok in _NON_ALNUM.sub(" ", text).lower().split())


# --- matching one hypothesis against one reference -------------------------------------------


Gram = str | tuple[str, ...]  # a token (n = 1) or an n-gram of tokens
Item = TypeVar("Item", bound=Hashable)


@dataclass(frozen=True, eq=False)
class Profile:
    """What ROUGE counts in one text: its n-grams and its skip-bigram unigrams."""

    grams: tuple[Counter[Gram], ...]  # n-gram counts, n = 1..MAX_N
    skip_unigrams: Counter[str]  # -U unigrams: every token but the last (ROUGE-1.5.5's loop)


@lru_cache(maxsize=4096)
def profile(tokens: tuple[str, ...]) -> Profile:
    """Counts of one text (cached: a reference is matched against every system)."""
    unigrams: Counter[Gram] = Counter(tokens)
    grams = [unigrams]
    for n in range(2, MAX_N + 1):
        grams.append(Counter(zip(*(tokens[i:] for i in range(n)), strict=False)))
    return Profile(tuple(grams), Counter(tokens[:-1]))


def clipped_hits(hyp: Counter[Item], ref: Counter[Item]) -> int:
    """Sum over the shared items of the smaller count (ROUGE's ``ngramScore`` clipping)."""
    common = hyp.keys() & ref.keys()
    if len(hyp) == hyp.total() and len(ref) == ref.total():
        return len(common)  # every count is 1
    return sum(min(hyp[item], ref[item]) for item in common)


def lcs_length(ref: Sequence[str], hyp: Sequence[str]) -> int:
    """Length of the longest common subsequence (bit-parallel, Allison & Dix 1986)."""
    masks: dict[str, int] = {}
    for j, tok in enumerate(hyp):
        masks[tok] = masks.get(tok, 0) | (1 << j)
    full = (1 << len(hyp)) - 1
    row = full
    for tok in ref:
        match = row & masks.get(tok, 0)
        row = ((row + match) | (row - match)) & full
    return len(hyp) - row.bit_count()


@cache
def _weight(k: int) -> float:
    """f(k) = k ** 1.2, as Perl's ``**`` computes it (C ``pow``)."""
    return float(float(k) ** WEIGHT)  # k >= 0: a real power


def _weights(size: int) -> list[float]:
    return [_weight(k) for k in range(size)]


def _full_row(
    up: list[float], hyp: Sequence[str], tok: str, runs: dict[int, int], weights: list[float]
) -> tuple[list[float], bool]:
    """One row of the dynamic programme, cell by cell; also whether it never decreases."""
    row = [0.0]
    left = 0.0
    monotone = True
    for j, word in enumerate(hyp, 1):
        if word == tok:
            k = runs.get(j - 1, 0)
            value = up[j - 1] + weights[k + 1] - weights[k]
            monotone = monotone and value >= left
            left = value
        elif up[j] >= left:
            left = up[j]
        row.append(left)
    return row, monotone


def _patched_row(
    up: list[float], columns: list[int], runs: dict[int, int], weights: list[float]
) -> tuple[list[float], bool]:
    """The same row when ``up`` never decreases: it equals ``up`` except after a match.

    Left of the first match every cell takes the value above; after a match the row keeps
    the match's value up to the first cell above that is not smaller (found by bisection),
    then equals ``up`` again.
    """
    row = list(up)
    monotone = True
    ends = [*columns[1:], len(up)]
    for j, end in zip(columns, ends, strict=True):
        k = runs.get(j - 1, 0)
        value = up[j - 1] + weights[k + 1] - weights[k]
        monotone = monotone and value >= row[j - 1]
        row[j] = value
        joined = bisect_left(up, value, j + 1, end)
        row[j + 1 : joined] = [value] * (joined - j - 1)
    return row, monotone


def _wlcs_table(ref: Sequence[str], hyp: Sequence[str]) -> list[list[float]]:
    """The scores ``c[i][j]`` of ROUGE's ``wlcs_inner`` dynamic programme.

    A matching cell extends the diagonal, ``c[i-1][j-1] + f(k+1) - f(k)`` with k the number
    of consecutive matches ending at ``(i-1, j-1)``; any other cell takes the larger of the
    cells above and to the left.  Perl's order of operations is kept, so ties are the same.
    Rows are mostly running maxima of the row above, which is exploited when it applies.
    """
    n = len(hyp)
    weights = _weights(n + 2)
    columns: dict[str, list[int]] = {}
    for j, tok in enumerate(hyp, 1):
        columns.setdefault(tok, []).append(j)
    rows = [[0.0] * (n + 1)]
    monotone = True  # rows[-1] never decreases
    runs: dict[int, int] = {}  # column -> consecutive matches ending there, in rows[-1]
    for tok in ref:
        up = rows[-1]
        where = columns.get(tok)
        if where is None:
            row = up if monotone else list(accumulate(up, max))
            monotone = True
        elif monotone:
            row, monotone = _patched_row(up, where, runs, weights)
        else:
            row, monotone = _full_row(up, hyp, tok, runs, weights)
        rows.append(row)
        runs = {j: runs.get(j - 1, 0) + 1 for j in where or ()}
    return rows


def wlcs_hit(ref: Sequence[str], hyp: Sequence[str]) -> float:
    """ROUGE-W hit: sum of f(run) over the runs of consecutive reference tokens ROUGE marks.

    The trace-back is ROUGE's ``markLCS``: diagonal on a match, else up when the cell above
    is not smaller than the cell to the left (ROUGE's tie-break), else left.
    """
    if not ref or not hyp:
        return 0.0
    rows = _wlcs_table(ref, hyp)
    marked = bytearray(len(ref))
    i, j = len(ref), len(hyp)
    while i and j:
        if ref[i - 1] == hyp[j - 1]:
            i -= 1
            j -= 1
            marked[i] = 1
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    hit = 0.0
    for length in map(len, marked.split(b"\x00")):
        if length:
            hit += _weight(length)
    return hit


def _pair_counts_matrix(ids: list[int], size: int) -> NDArray[np.float64]:
    """``M[a, b]``: number of positions i < j with ``ids[i] == a`` and ``ids[j] == b``."""
    onehot = np.zeros((len(ids), size))
    onehot[np.arange(len(ids)), ids] = 1.0
    before = np.cumsum(onehot, axis=0) - onehot
    return before.T @ onehot


def skip_bigram_hits(hyp: Sequence[str], ref: Sequence[str]) -> int:
    """Clipped skip-bigram hits at any distance (``-2 -1``).

    Only pairs of tokens present on both sides can match, so the counts of ordered pairs
    are taken over those tokens only, as two small count matrices (exact integers).
    """
    ids: dict[str, int] = {tok: k for k, tok in enumerate(set(hyp).intersection(ref))}
    if not ids:
        return 0
    hyp_pairs = _pair_counts_matrix([ids[t] for t in hyp if t in ids], len(ids))
    ref_pairs = _pair_counts_matrix([ids[t] for t in ref if t in ids], len(ids))
    return int(np.minimum(hyp_pairs, ref_pairs).sum())


def _pairs(length: int) -> int:
    return length * (length - 1) // 2


# Token ids of this process (the compiled matching works on integers).
_TOKEN_IDS: dict[str, int] = {}


@lru_cache(maxsize=4096)
def _ids(tokens: tuple[str, ...]) -> NDArray[np.int64]:
    ids = _TOKEN_IDS
    return np.fromiter((ids.setdefault(tok, len(ids)) for tok in tokens), np.int64, len(tokens))


@lru_cache(maxsize=64)
def _weight_array(size: int) -> NDArray[np.float64]:
    weights = np.array(_weights(size), dtype=np.float64)
    weights.setflags(write=False)
    return weights


def python_hits(hyp: tuple[str, ...], ref: tuple[str, ...]) -> list[float]:
    """The hits ``rouge_kernel`` computes, in Python (without numba)."""
    hyp_p, ref_p = profile(hyp), profile(ref)
    hits: list[float] = [clipped_hits(h, r) for h, r in zip(hyp_p.grams, ref_p.grams, strict=True)]
    skip = skip_bigram_hits(hyp, ref)
    unigrams = clipped_hits(hyp_p.skip_unigrams, ref_p.skip_unigrams)
    return [*hits, lcs_length(ref, hyp), skip, skip + unigrams, wlcs_hit(ref, hyp)]


def pair_hits(hyp: tuple[str, ...], ref: tuple[str, ...]) -> list[float]:
    """Hits of every metric of one pair: compiled when numba is there, else in Python."""
    kernel = rouge_kernel.pair_hits()
    if kernel is None or len(hyp) + len(ref) > rouge_kernel.MAX_IDS:
        return python_hits(hyp, ref)
    weights = _weight_array(-(-(max(len(hyp), len(ref)) + 2) // 64) * 64)
    return list(kernel(_ids(hyp), _ids(ref), weights).tolist())


@lru_cache(maxsize=1 << 14)
def pair_counts(hyp: tuple[str, ...], ref: tuple[str, ...]) -> Counts:
    """(hit, reference count, hypothesis count) of every metric, one reference.

    Cached: scoring against references A, B and A+B matches every pair only once.
    """
    m, n = len(ref), len(hyp)
    totals: list[tuple[float, float]] = [
        (max(m - order + 1, 0), max(n - order + 1, 0)) for order in range(1, MAX_N + 1)]
    totals += [(m, n), (_pairs(m), _pairs(n)),
               (_pairs(m) + max(m - 1, 0), _pairs(n) + max(n - 1, 0)),
               (_weight(m) ** WEIGHT, _weight(n))]
    return tuple(
        (hit, ref_total, hyp_total)
        for hit, (ref_total, hyp_total) in zip(pair_hits(hyp, ref), totals, strict=True)
    )


# --- scores -----------------------------------------------------------------------------------


def _ratio(hit: float, total: float, inverse: bool) -> float:
    if total == 0:
        return 0.0
    value = hit / total
    return value ** (1 / WEIGHT) if inverse else value


def rpf(
    hit: float, ref_total: float, hyp_total: float, inverse: bool = False
) -> tuple[float, float, float]:
    """ROUGE's R and P rounded to 5 decimals, and F computed from them, rounded.

    ``inverse`` applies ROUGE-W's f^-1 to both ratios.
    """
    recall = round5(_ratio(hit, ref_total, inverse))
    precision = round5(_ratio(hit, hyp_total, inverse))
    denominator = (1 - ALPHA) * precision + ALPHA * recall
    if denominator <= 0:
        return recall, precision, 0.0
    return recall, precision, round5(precision * recall / denominator)


def segment_rpf(
    hyp: tuple[str, ...], refs: Sequence[tuple[str, ...]]
) -> list[tuple[float, float, float]]:
    """Rounded (R, P, F) of every metric for one segment (ROUGE's ``Eval`` line).

    With several references the hits and counts are summed first (``-f A``), in reference
    order as ROUGE sums them.
    """
    pooled = [[0.0, 0.0, 0.0] for _ in METRIC_NAMES]
    for ref in refs:
        for total, counts in zip(pooled, pair_counts(hyp, ref), strict=True):
            total[0] += counts[0]
            total[1] += counts[1]
            total[2] += counts[2]
    return [
        rpf(total[0], total[1], total[2], inverse=name == "RG-W-1.2")
        for name, total in zip(METRIC_NAMES, pooled, strict=True)
    ]


def segment_f(hyp_tokens: Sequence[tuple[str, ...]],
              ref_tokens: Sequence[Sequence[tuple[str, ...]]]) -> NDArray[np.float64]:
    """``segment_rpf``'s F of every segment and metric (segments x metrics), the rounding
    done on whole columns (``rouge_table``): the same values, bit for bit."""
    counts = np.array([[pair_counts(hyp, ref[i]) for ref in ref_tokens]
                       for i, hyp in enumerate(hyp_tokens)], dtype=np.float64)
    seg = np.zeros((len(hyp_tokens), len(METRIC_NAMES)))
    if not len(hyp_tokens):
        return seg
    pooled = counts[:, 0]
    for k in range(1, counts.shape[1]):  # in reference order, as segment_rpf sums them
        pooled = pooled + counts[:, k]
    for m, name in enumerate(METRIC_NAMES):
        hit, ref_total, hyp_total = pooled[:, m, 0], pooled[:, m, 1], pooled[:, m, 2]
        seg[:, m] = f_values(hit, ref_total, hyp_total, ALPHA,
                             1 / WEIGHT if name == "RG-W-1.2" else None)
    return seg


def perl_bootstrap_draws(n: int) -> NDArray[np.int64]:
    """``int(rand(n))`` for ``n`` draws after ``srand(r)``, r = 0..999 (shape n x 1000).

    Perl (5.20 and later) has its own drand48: a 48-bit linear congruential generator whose
    state after ``srand(seed)`` is ``seed << 16 | 0x330E``; ``rand(n)`` is ``n * state / 2^48``.
    """
    state = (np.arange(RESAMPLES, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    draws = np.empty((n, RESAMPLES), dtype=np.int64)
    for j in range(n):
        state = (state * _DRAND48_MULT + _DRAND48_ADD) & _DRAND48_MASK
        draws[j] = float(n) * (state.astype(np.float64) * 2.0**-48)  # int() truncates
    return draws


@lru_cache(maxsize=64)
def resample_indices(n: int) -> NDArray[np.int32]:
    """Segment index of every bootstrap draw of ROUGE's ``computeAverages`` (n x 1000).

    ROUGE numbers the evaluations 1..n in file order and resamples them in the order of
    ``sort keys``, i.e. of the numbers as strings (1, 10, 11, ..., 2, 20, ...).
    """
    order = np.array(sorted(range(n), key=lambda i: str(i + 1)), dtype=np.int64)
    indices: NDArray[np.int32] = order[perl_bootstrap_draws(n)].astype(np.int32)
    indices.setflags(write=False)
    return indices


def rouge_averages(scores: NDArray[np.float64]) -> list[float]:
    """ROUGE's ``Average_X`` of every column of ``scores`` (one row per evaluation).

    ROUGE-1.5.5 reports as the average of the rounded per-evaluation scores the mean of
    its 1000 bootstrap means (``-r 1000``; resample r drawn after ``srand(r)``), rounded to
    5 decimals, not their plain mean.  The sums are taken in ROUGE's order (draw order,
    then the sorted means), so the last bits and hence the rounding are the same.
    """
    if len(scores) == 0:
        raise ValueError("ROUGE averages need at least one evaluation")
    indices = resample_indices(len(scores))
    compiled = rouge_kernel.bootstrap_totals()
    if compiled is None:
        totals = bootstrap_totals(scores, indices)
    else:
        totals = compiled(np.ascontiguousarray(scores, dtype=np.float64), indices)
    return [round5(total / RESAMPLES) for total in totals.tolist()]


def bootstrap_totals(
    scores: NDArray[np.float64], indices: NDArray[np.int32]
) -> NDArray[np.float64]:
    """Per column, the sum of the sorted bootstrap means in numpy (without numba)."""
    sums = scores[indices[0]]  # a copy: one row per resample
    for draw in indices[1:]:
        sums += scores[draw]
    means = np.sort(sums / len(scores), axis=0)
    totals: NDArray[np.float64] = np.cumsum(means, axis=0)[-1]
    return totals


# --- family -----------------------------------------------------------------------------------

_WHAT = {
    "RG-L": "ROUGE-L: longest common subsequence (LCS) of hypothesis and reference tokens",
    "RG-S*": "ROUGE-S*: skip-bigrams (ordered token pairs at any distance)",
    "RG-SU*": "ROUGE-SU*: skip-bigrams at any distance plus unigrams",
    "RG-W-1.2": "ROUGE-W-1.2: weighted LCS favouring consecutive matches, f(k) = k^1.2",
}
_QUIRKS = {
    "RG-SU*": " As in ROUGE-1.5.5 the last token of each side adds no unigram.",
    "RG-W-1.2": (
        " As in ROUGE-1.5.5 the hit sums f over the runs of reference tokens the trace-back"
        " marks, and R = f^-1(hit / f(f(reference length))): the length is weighted twice."
    ),
}
_COMMON = (
    " Value: ROUGE's F (harmonic mean of recall over the reference and precision over the"
    " hypothesis), 0 to 1, higher is better. Reference implementation ROUGE-1.5.5 with"
    f" '{ROUGE_OPTIONS}' (-f A, -p 0.5), one evaluation per segment, as ULC and Asiya run it;"
    " reproduces every R, P and F it prints on the shared ru-en sample (one and two references;"
    " segment, document and system). Tokens: ASCII letters lower-cased, any other character"
    " than [A-Za-z0-9] a separator; tokens longer than 3 characters stemmed (WordNet irregular"
    " form, else ROUGE's Porter stemmer). Several references pool hits and counts (-f A). R and"
    " P rounded to 5 decimals, F computed from them and rounded. Document and system values"
    " are ROUGE's Average_F of a run on those segments: the mean of its 1000 bootstrap means"
    " (Perl's seeded rand reproduced), rounded to 5 decimals, not the plain mean of the"
    " segment values (Asiya's document value is that plain mean; its system value is this)."
    " Departures: irregular forms come from WordNet 3.0's exception lists where ROUGE-1.5.5"
    " ships a WordNet 2.0 database (forms in only one of them stem differently; 'best' and"
    " 'better' map to 'well', which in ROUGE depends on the order its database was built);"
    " the bootstrap follows Perl 5.20+ (and glibc) drand48."
)


def _description(name: str) -> str:
    what = _WHAT.get(name) or f"ROUGE-{name[3:]}: {name[3:]}-gram overlap"
    return what + "." + _QUIRKS.get(name, "") + _COMMON


class RougeFamily(Family):
    """RG-1..4, RG-L, RG-S*, RG-SU*, RG-W-1.2: ROUGE-1.5.5's F at every level."""

    has_kernels = True
    name = "ROUGE"
    version = "1.5.5.1"
    languages = frozenset({"en"})
    language_note = ("ROUGE-1.5.5 is English-only: it keeps only [A-Za-z0-9] tokens and "
                     "stems with Porter's English stemmer")

    def specs(self) -> list[MetricSpec]:
        return build_specs(self.name, METRIC_NAMES, _description, range_min=0.0,
                           range_max=1.0, reference_implementation=REFERENCE)

    def case(self, params: Params) -> str:
        return "lc"  # ROUGE lower-cases on its own: params.lowercase changes nothing

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "rouge-1.5.5", "stem": f"porter+{EXCEPTIONS_VERSION}-exc",
                "opts": ROUGE_OPTIONS, "f": "A", "alpha": ALPHA}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """``compute`` for every reference set, every text tokenised once.

        References are tokenised once per worker process (a small cache of recent ones);
        ``pair_counts`` already shares the matching of a pair between the sets.
        """
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        hyp_tokens = [tokenize(hyp) for hyp in hyps]
        return [
            _levels(hyp_tokens, [_reference_tokens(ref) for ref in refs], docs)
            for refs in refsets
        ]


# Tokenised references shared by the targets a worker process scores (the last few).
_REFERENCE_CACHE: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
_REFERENCE_CACHE_SIZE = 8


def _reference_tokens(ref: Sequence[str]) -> list[tuple[str, ...]]:
    key = tuple(ref)
    tokens = _REFERENCE_CACHE.pop(key, None)
    if tokens is None:
        tokens = [tokenize(text) for text in ref]
        while len(_REFERENCE_CACHE) >= _REFERENCE_CACHE_SIZE:
            del _REFERENCE_CACHE[next(iter(_REFERENCE_CACHE))]
    _REFERENCE_CACHE[key] = tokens  # most recently used last
    return tokens


def _levels(
    hyp_tokens: Sequence[tuple[str, ...]],
    ref_tokens: Sequence[Sequence[tuple[str, ...]]],
    docs: Documents,
) -> dict[str, LevelScores]:
    """Segment F values and ROUGE's averages per document and for the system."""
    seg = segment_f(hyp_tokens, ref_tokens)
    doc = {doc_id: rouge_averages(seg[start:end]) for doc_id, start, end in docs.spans()}
    system = rouge_averages(seg) if len(hyp_tokens) else [None] * len(METRIC_NAMES)
    return {
        name: LevelScores(
            seg=seg[:, k].tolist(),
            doc={doc_id: values[k] for doc_id, values in doc.items()},
            sys=system[k],
        )
        for k, name in enumerate(METRIC_NAMES)
    }
