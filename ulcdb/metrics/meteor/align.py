"""Meteor 1.5's tokens, matchers, beam-search alignment, statistics and score."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cached_property, lru_cache
from itertools import accumulate, chain
from operator import itemgetter
from typing import TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.meteor.beam import compiled_search
from ulcdb.metrics.meteor.stem import snowball_english
from ulcdb.metrics.meteor.synonyms import synonym_sets, wordnet_base_forms

EXACT, STEM, WN_STEM, SYNONYM = 0, 1, 2, 3
MODULE_NAMES = ("exact", "stem", "wn_stem", "synonym")
MODULE_WEIGHTS = (1.0, 0.6, 0.6, 0.8)
WORDNET_MODULES = frozenset((WN_STEM, SYNONYM))
ALPHA, BETA, GAMMA, DELTA = 0.85, 0.2, 0.6, 0.75
BEAM_SIZE = 40
VARIANTS: dict[str, tuple[int, ...]] = {
    "MTR-exact": (EXACT,),
    "MTR-stem": (EXACT, STEM),
    "MTR-wnstm": (EXACT, STEM, WN_STEM),
    "MTR-wnsyn": (EXACT, STEM, SYNONYM),
}
REFERENCE = "Meteor 1.5 (meteor-1.5.jar) -l en -m"

# Meteor 1.5's resources/function/english.words (93 entries, compared lowercased).
FUNCTION_WORDS = frozenset(
    "the , . to of and a in that for \" is on 's it with was as said at he by be from have has"
    " are his but an this not i will \u2019 they ) -rrb- ( -lrb- who their had we which were"
    " been more or s its would about new one after you : also up when there than $ all out her"
    " people she year two - can if last first \u201c over other \u201d into some what so -- no"
    " time years could ? 't \u2014 '".split(" ")
)

K = TypeVar("K", bound=Hashable)
_SEPARATORS = re.compile(r"[ \t\n\r\f]+")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


# --- tokens as the jar sees them -----------------------------------------------------------

def tokenize(text: str) -> list[str]:
    """``StringTokenizer`` tokens; characters beyond the BMP become UTF-16 surrogate pairs."""
    if _ASTRAL.search(text):
        data = text.encode("utf-16-le")
        text = "".join(chr(int.from_bytes(data[k:k + 2], "little"))
                       for k in range(0, len(data), 2))
    return [tok for tok in _SEPARATORS.split(text) if tok]


@lru_cache(maxsize=1 << 18)
def java_hash(word: str) -> int:
    """Java's ``String.hashCode`` (as an unsigned 32-bit number)."""
    h = 0
    for ch in word:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h


# --- alignment ---------------------------------------------------------------------------------

class _Side:
    """One tokenised sentence with what the matchers and the scorer need of each word.

    ``wordnet`` says which WordNet modules (wn_stem, synonym) will look at it.
    """

    def __init__(self, text: str, wordnet: frozenset[int] = frozenset(),
                 stem: Callable[[str], str] = snowball_english,
                 function_words: frozenset[str] = FUNCTION_WORDS) -> None:
        self.words = tokenize(text)
        table = _word_table(stem, function_words, wordnet)
        rows = []
        for w in self.words:
            row = table.get(w)
            if row is None:
                row = table[w] = _describe(w, stem, function_words, wordnet)
            rows.append(row)
        self.keys = [row[0] for row in rows]
        self.stems = [row[1] for row in rows]
        self.function = [row[2] for row in rows]
        self.syns = [row[3] for row in rows] if SYNONYM in wordnet else []
        self.bases = [row[4] for row in rows] if WN_STEM in wordnet else []
        self.syn_ids = [row[5] for row in rows] if SYNONYM in wordnet else []
        self.base_ids = [row[6] for row in rows] if WN_STEM in wordnet else []

    @cached_property
    def by_key(self) -> dict[int, list[int]]:
        return _positions([k] for k in self.keys)

    @cached_property
    def by_stem(self) -> dict[int, list[int]]:
        return _positions([k] for k in self.stems)

    @cached_property
    def by_syn(self) -> dict[int, list[int]]:
        return _positions(self.syns)

    @cached_property
    def by_base(self) -> dict[str, list[int]]:
        return _positions(self.bases)


# What the matchers need of a word type: its hash, its stem's hash, whether it is a function
# word, its synsets and its WordNet base forms (empty unless a module wants them), and the
# same two sorted as integers (base forms by ``_BASE_IDS``) for the compiled matchers.
WordInfo = tuple[int, int, bool, frozenset[int], frozenset[str], tuple[int, ...],
                 tuple[int, ...]]
_BASE_IDS: dict[str, int] = {}
_WORD_TABLES: dict[tuple[Callable[[str], str], frozenset[str], frozenset[int]],
                   dict[str, WordInfo]] = {}
_WORD_TABLE_SIZE = 1 << 18  # word types per table before it starts afresh


def _word_table(stem: Callable[[str], str], function_words: frozenset[str],
                wordnet: frozenset[int]) -> dict[str, WordInfo]:
    """The word types described so far for these settings (each word type once per process,
    whatever number of sentences, targets and references it occurs in)."""
    key = (stem, function_words, wordnet)
    table = _WORD_TABLES.get(key)
    if table is None or len(table) >= _WORD_TABLE_SIZE:
        table = _WORD_TABLES[key] = {}
    return table


def _describe(word: str, stem: Callable[[str], str], function_words: frozenset[str],
              wordnet: frozenset[int]) -> WordInfo:
    syns = synonym_sets(word) if SYNONYM in wordnet else frozenset()
    bases = wordnet_base_forms(word) if WN_STEM in wordnet else frozenset()
    base_ids = sorted(_BASE_IDS.setdefault(b, len(_BASE_IDS)) for b in bases)
    return (java_hash(word), java_hash(stem(word)), word.lower() in function_words, syns,
            bases, tuple(sorted(syns)), tuple(base_ids))


def _positions(values: Iterable[Iterable[K]]) -> dict[K, list[int]]:
    """Value -> ascending positions of the words having it."""
    out: dict[K, list[int]] = {}
    for i, vals in enumerate(values):
        for v in vals:
            if v in out:
                out[v].append(i)
            else:
                out[v] = [i]
    return out


Candidates = list[list[tuple[int, int]]]  # per reference word: (test word, module), in order


def module_matches(t: _Side, r: _Side, module: int) -> Candidates:
    """What one of Meteor's matchers lists for every reference word (test words ascending)."""
    if module == EXACT:
        return [[(i, EXACT) for i in t.by_key.get(rk, ())] for rk in r.keys]
    if module == STEM:
        return [[(i, STEM) for i in t.by_stem.get(rs, ()) if t.keys[i] != rk]
                for rk, rs in zip(r.keys, r.stems, strict=True)]
    out: Candidates = []
    if module == WN_STEM:  # pairs that neither exact nor stem listed
        for rk, rs, rbases in zip(r.keys, r.stems, r.bases, strict=True):
            found = {i for b in rbases for i in t.by_base.get(b, ())
                     if t.keys[i] != rk and t.stems[i] != rs}
            out.append([(i, WN_STEM) for i in sorted(found)])
        return out
    for rk, rsyn in zip(r.keys, r.syns, strict=True):
        found = {i for s in rsyn for i in t.by_syn.get(s, ()) if t.keys[i] != rk}
        out.append([(i, SYNONYM) for i in sorted(found)])
    return out


# A partial alignment is (rank, end of last match in the test, used test words, matches).
# rank orders like Meteor's comparator: more search-weighted matches, fewer chunks, smaller
# distance.  It packs -(search weight) * _MATCH + chunks * _CHUNK + distance into one int
# (exact while distance < 2**40 and chunks < 2**16, i.e. for segments of < ~10,000 words).
Match = tuple[int, int, int]  # (reference word, test word, module)
Links: TypeAlias = "tuple[Match, Links] | None"  # the matches, newest first, as a linked list
Path = tuple[int, int, int, Links]
_CHUNK = 1 << 40
_MATCH = 1 << 56
_EXACT_GAIN = 2 * _MATCH  # an exact match counts 1 in each sentence; other modules count 0
_RANK = itemgetter(0)


def _step(paths: list[Path], j: int, here: list[tuple[int, int]],
          fixed: tuple[int, int] | None) -> list[Path]:
    """One position of ``Aligner.resolve``: extend the best ``BEAM_SIZE`` paths."""
    top = paths[:BEAM_SIZE]
    if fixed is not None:
        i, mod = fixed
        cost = abs(j - i) - (_EXACT_GAIN if mod == EXACT else 0)
        return [(rank + cost + (_CHUNK if last not in (-1, i) else 0), i + 1, mask, links)
                for rank, last, mask, links in top]
    moves = [(i, 1 << i, _EXACT_GAIN if mod == EXACT else 0, abs(j - i), (j, i, mod))
             for i, mod in here]
    nxt: list[Path] = []
    add = nxt.append
    for rank, last, mask, links in top:
        for i, bit, gain, dist, match in moves:
            if mask & bit:
                continue
            add((rank - gain + (_CHUNK if last not in (-1, i) else 0), i + 1, mask | bit,
                 (match, links)))
            rank += dist  # Meteor charges it to the path branched from (a bug, kept)
        add((rank + (_CHUNK if last != -1 else 0), -1, mask, links))
    return nxt


def _search(cands: Candidates, fixed: dict[int, tuple[int, int]],
            used: int) -> list[tuple[int, int, int]]:
    """Meteor's ``Aligner.resolve`` (beam search): the chosen matches that are not fixed.

    Compiled (``beam``) when numba is there, else in Python (``python_search``).
    """
    search = compiled_search()
    if search is None:
        return python_search(cands, fixed, used)
    offsets = np.fromiter(accumulate(map(len, cands), initial=0), np.int64, len(cands) + 1)
    flat = np.fromiter(chain.from_iterable(chain.from_iterable(cands)), np.int64,
                       2 * int(offsets[-1])).reshape(-1, 2)
    fixed_at = np.full((len(cands), 2), -1, np.int64)
    if fixed:
        fixed_at[list(fixed)] = list(fixed.values())
    size = max(used.bit_length(), int(flat[:, 0].max(initial=-1)) + 1)
    bits = np.frombuffer(used.to_bytes((size + 7) // 8, "little"), np.uint8)
    mask = np.unpackbits(bits, count=size, bitorder="little").astype(np.bool_)
    found = search(offsets, flat, fixed_at, mask, BEAM_SIZE, EXACT, 2)
    return [(j, i, m) for j, i, m in found.tolist()]


def python_search(cands: Candidates, fixed: dict[int, tuple[int, int]],
                  used: int) -> list[tuple[int, int, int]]:
    """``_search`` in Python: ranks as one integer, paths sorted stably by it."""
    paths: list[Path] = [(0, -1, used, None)]
    idle = False  # a second empty position in a row changes nothing
    for j, here in enumerate(cands):
        if not here and j not in fixed:
            if idle:
                continue
            idle = True
        else:
            idle = False
        paths.sort(key=_RANK)
        paths = _step(paths, j, here, fixed.get(j))
    paths.sort(key=_RANK)
    ends = [(p[0] + (_CHUNK if p[1] != -1 else 0),) + p[1:] for p in paths[:BEAM_SIZE]]
    ends.sort(key=_RANK)
    out, links = [], ends[0][3]
    while links is not None:
        out.append(links[0])
        links = links[1]
    return out


def align(cands: Candidates, n_test: int) -> list[tuple[int, int, int]]:
    """Meteor's alignment from the candidate matches: sorted (reference, test, module)."""
    cover = [0] * n_test
    for i, _ in chain.from_iterable(cands):
        cover[i] += 1
    fixed = {j: c[0] for j, c in enumerate(cands) if len(c) == 1 and cover[c[0][0]] == 1}
    chosen = [(j, i, m) for j, (i, m) in fixed.items()]
    if len(fixed) < sum(1 for c in cands if c):
        chosen += _search(cands, fixed, sum(1 << i for i, _ in fixed.values()))
    return sorted(chosen)


def pair_alignments(t: _Side, r: _Side, module_sets: Sequence[Sequence[int]]
                    ) -> list[list[tuple[int, int, int]]]:
    """The alignment of ``t`` with ``r`` under each module set (shared when identical)."""
    identical = t.keys == r.keys  # Meteor then runs the exact module only
    wanted = {EXACT} if identical else {m for mods in module_sets for m in mods}
    lists = {m: module_matches(t, r, m) for m in sorted(wanted)}
    out: list[list[tuple[int, int, int]]] = []
    seen: tuple[Candidates, list[tuple[int, int, int]]] | None = None
    for modules in module_sets:
        columns = [lists[m] for m in modules if m in lists]
        cands = columns[0]
        if len(columns) > 1:
            cands = [sum(parts, []) for parts in zip(*columns, strict=True)]
        if seen is None or seen[0] != cands:
            seen = (cands, align(cands, len(t.keys)))
        out.append(seen[1])
    return out


# --- statistics and score ---------------------------------------------------------------------

def _chunks(matches: Sequence[tuple[int, int, int]]) -> int:
    """Meteor's ``getCountAndChunks``: runs contiguous in both sentences."""
    chunks, last_ref, last_test = 0, -2, -2
    for j, i, _ in matches:
        if j != last_ref + 1 or i != last_test + 1:
            chunks += 1
        last_ref, last_test = j, i
    return chunks


def segment_stats(t: _Side, r: _Side, modules: Sequence[int],
                  matches: Sequence[tuple[int, int, int]]) -> list[int]:
    """Meteor's sufficient statistics (see the module docstring for the layout)."""
    slot = {mod: 4 * k for k, mod in enumerate(modules)}
    per_module = [0] * (4 * len(modules))
    for j, i, mod in matches:
        k = slot[mod]
        per_module[k + (2 if t.function[i] else 0)] += 1
        per_module[k + (3 if r.function[j] else 1)] += 1
    n = len(matches)
    chunks = _chunks(matches)
    if n == len(t.words) and n == len(r.words) and chunks == 1:
        chunks = 0  # addStats leaves out the chunk of a perfect segment
    return [len(t.words), len(r.words), sum(t.function), sum(r.function),
            *per_module, chunks, n, n]


def meteor_score(stats: Sequence[float], weights: Sequence[float] = MODULE_WEIGHTS,
                 params: tuple[float, float, float, float] = (ALPHA, BETA, GAMMA, DELTA)
                 ) -> float:
    """``MeteorScorer.computeMetrics`` on (summed) statistics, in Java's order of operations;
    ``params`` are alpha, beta, gamma, delta (English's by default)."""
    return float(meteor_scores(np.array([stats], np.float64), weights, params)[0])


def meteor_scores(stats: NDArray[np.float64], weights: Sequence[float] = MODULE_WEIGHTS,
                  params: tuple[float, float, float, float] = (ALPHA, BETA, GAMMA, DELTA)
                  ) -> NDArray[np.float64]:
    """``meteor_score`` of every row of ``stats``: IEEE operations in Java's order, element by
    element (x/0 is inf or NaN as in Java; the power is Python's, as a scalar)."""
    alpha, beta, gamma, delta = params
    tl, rl, tfun, rfun = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    chunks, tm, rm = stats[:, -3], stats[:, -2], stats[:, -1]
    mods = range((stats.shape[1] - 7) // 4)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_len = delta * (tl - tfun) + (1.0 - delta) * tfun
        r_len = delta * (rl - rfun) + (1.0 - delta) * rfun
        t_w = np.zeros(stats.shape[0])
        r_w = np.zeros(stats.shape[0])
        for k in mods:  # content words, then function words, each summed in module order
            t_w = t_w + stats[:, 4 + 4 * k] * weights[k] * delta
            r_w = r_w + stats[:, 5 + 4 * k] * weights[k] * delta
        for k in mods:
            t_w = t_w + stats[:, 6 + 4 * k] * weights[k] * (1.0 - delta)
            r_w = r_w + stats[:, 7 + 4 * k] * weights[k] * (1.0 - delta)
        precision, recall = t_w / t_len, r_w / r_len
        f_mean = 1.0 / ((1.0 - alpha) / precision + alpha / recall)
        perfect = (tm == tl) & (rm == rl) & (chunks == 1)
        frag = np.where(perfect, 0.0, chunks / ((tm + rm) / 2))
        powered = np.array([f**beta for f in frag.tolist()], np.float64)
        score = f_mean * (1.0 - gamma * powered)
    return np.where(np.isnan(score), 0.0, np.where(0.0 > score, 0.0, score))
