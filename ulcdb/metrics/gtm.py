"""GTM: the General Text Matcher F-measure, as computed by GTM 1.4 (``gtm.jar``).

Melamed, Green & Turian (2003).  A segment's hypothesis and references are laid out on a
bitext grid (hypothesis tokens against the tokens of all references, concatenated with an
unmatchable break between two references); a *hit* is a cell where the two tokens are equal,
a *run* a diagonal stretch of hits.  GTM 1.4 picks runs greedily and scores them:

* every stretch of every diagonal run is a candidate (a run of 3 offers three runs of 1, two of
  2 and one of 3), visited longest first and, among equally long ones, from the largest grid
  point first (the largest hypothesis position, then the largest position in the concatenated
  references); a candidate is taken when none of its cells shares a row or a column with a
  cell taken before;
* at most ``min(|H|, mean |R|)`` hits are taken: the candidate that crosses this budget is cut
  to the (possibly fractional) amount left, and the search stops;
* ``MMS = (sum of taken lengths ** e) ** (1/e)``, ``P = MMS / |H|``, ``R = MMS / mean |R|`` and
  ``GTM-e = 2PR / (P + R)`` (0 when ``P + R`` is 0).

Documents and the system are scored the way GTM 1.4 scores a ``<doc>``: the segments' MMS,
hypothesis lengths and mean reference lengths are summed, then P, R and F are taken from the
sums.  With e = 1 and one reference, a segment's GTM-1 is ``2|H n R| / (|H| + |R|)``.

Tokens are what GTM's ``String.trim()`` and ``StringTokenizer`` give: the text is split on the
ASCII separators space, tab, newline, carriage return and form feed only, so a no-break space
(U+00A0) stays inside a token; matching is exact and case-sensitive.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params, check_inputs
from ulcdb.metrics.gtm_kernel import compiled_matching

EXPONENTS = (1, 2, 3)

# java.lang.String.trim() drops every char <= U+0020 at both ends; StringTokenizer's default
# delimiters are " \t\n\r\f".  Both see the text as decoded ISO-8859-15, where no byte of a
# multi-byte UTF-8 character is a delimiter, so splitting the Unicode text gives the same tokens.
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))
_DELIMITERS = re.compile(r"[ \t\n\r\f]+")


def tokenize(text: str) -> list[str]:
    """GTM 1.4's tokens of a segment."""
    text = text.strip(_JAVA_TRIM)
    return [tok for tok in _DELIMITERS.split(text) if tok] if text else []


@dataclass(frozen=True)
class SegmentMatch:
    """GTM's matching of one segment: the run lengths it took, in the order it took them."""

    lengths: tuple[float, ...]
    hyp_len: float
    ref_len: float  # mean number of reference tokens

    def mms(self, e: float) -> float:
        """Maximum matching size ``(sum len**e) ** (1/e)``, summed in GTM's order."""
        total = 0.0
        for length in self.lengths:
            total += float(length) ** e
        return float(total ** (1.0 / e))  # total >= 0: a real root


def _grid(hyp: list[str], refs: list[list[str]]) -> tuple[list[int], list[int]]:
    """Token ids of the hypothesis and of the concatenated references (-1 = break)."""
    ids: dict[str, int] = {}
    hyp_ids = [ids.setdefault(tok, len(ids)) for tok in hyp]
    ref_ids: list[int] = []
    for ref in refs:
        ref_ids.extend(ids.get(tok, -2) for tok in ref)  # -2: absent from the hypothesis
        ref_ids.append(-1)
    return hyp_ids, ref_ids


def _hits(hyp_ids: list[int], ref_ids: list[int]) -> list[tuple[int, int, int]]:
    """Every hit as ``(t, r, run length from it onwards)``, largest grid point first."""
    where: dict[int, list[int]] = {}
    for r, tok in enumerate(ref_ids):
        if tok >= 0:
            where.setdefault(tok, []).append(r)
    ahead: dict[tuple[int, int], int] = {}
    out: list[tuple[int, int, int]] = []
    for t in range(len(hyp_ids) - 1, -1, -1):
        for r in reversed(where.get(hyp_ids[t], ())):
            n = ahead.get((t + 1, r + 1), 0) + 1
            ahead[t, r] = n
            out.append((t, r, n))
    return out


class _Matching:
    """Rows and columns taken so far, the hit budget left and the lengths taken."""

    def __init__(self, budget: float) -> None:
        self.x_used = 0  # bit set of taken positions in the concatenated references
        self.y_used = 0  # bit set of taken hypothesis positions
        self.budget = budget
        self.taken: list[float] = []

    def visit(self, hits: list[tuple[int, int, int]], length: int) -> list[tuple[int, int, int]]:
        """Offer the run of ``length`` starting at every hit, in order; keep the hits still free.

        A hit whose row or column is taken can never start a run again, so it is dropped.
        """
        alive = []
        for hit in hits:
            t, r, ahead = hit
            if (self.y_used >> t) & 1 or (self.x_used >> r) & 1:
                continue
            if ahead >= length and self.budget > 0 and self._take(t, r, length):
                continue
            alive.append(hit)
        return alive

    def _take(self, t: int, r: int, length: int) -> bool:
        size: float = length
        cells = length
        if size > self.budget:  # GTM cuts the run to the (maybe fractional) budget left
            size, cells = self.budget, math.ceil(self.budget)
        mask = (1 << cells) - 1
        if (self.x_used >> r) & mask or (self.y_used >> t) & mask:
            return False
        self.x_used |= mask << r
        self.y_used |= mask << t
        self.budget -= size
        self.taken.append(size)
        return True


def match_segment(hyp: list[str], refs: list[list[str]]) -> SegmentMatch:
    """GTM 1.4's greedy matching of one tokenised hypothesis against its references.

    Same result as visiting GTM's sorted set of every stretch of every run, without building
    it: lengths are visited from the longest down, hits by decreasing grid point within each.
    """
    ref_len = sum(len(ref) for ref in refs) / len(refs)
    matching = _Matching(min(float(len(hyp)), ref_len))
    hits = _hits(*_grid(hyp, refs))
    length = max((ahead for _, _, ahead in hits), default=0)
    while hits and length > 0 and matching.budget > 0:
        hits = matching.visit(hits, length)
        length = min(length - 1, max((ahead for _, _, ahead in hits), default=0))
    return SegmentMatch(tuple(matching.taken), float(len(hyp)), ref_len)


def f_measure(mms: float, hyp_len: float, ref_len: float) -> float:
    """GTM's F-measure of precision ``mms / hyp_len`` and recall ``mms / ref_len``."""
    prc = mms / hyp_len if hyp_len != 0 else 0.0
    rcl = mms / ref_len if ref_len != 0 else 0.0
    return (2 * (prc * rcl)) / (prc + rcl) if prc + rcl > 0 else 0.0


def _description(e: int) -> str:
    reward = "every matched word counts once" if e == 1 else f"runs weighted by length**{e}"
    return (
        f"GTM-{e}: F-measure of precision and recall of the maximum matching size (MMS) between "
        f"the hypothesis and the references, with exponent e={e} ({reward}). Range 0-1, higher "
        "is better. Reference implementation GTM 1.4 (gtm.jar, Melamed, Green & Turian 2003) "
        f"with '+s +d -e {e}': whitespace tokens (ASCII space, tab, CR, LF, FF only; U+00A0 does "
        "not split), case-sensitive exact matching, no preprocessing. MMS is GTM's greedy "
        "approximation: stretches of diagonal runs longest first, ties from the largest grid "
        "point, at most min(|H|, mean |R|) hits. Several references are matched at once (a "
        "hypothesis word is used once over all of them) and recall divides by the mean "
        "reference length. Segment = GTM's segment score; document and system = GTM's own "
        "<doc> score (sum of segment MMS over summed lengths), as GTM prints it for a document "
        "and as Asiya takes it for the system. Departure: Asiya's document GTM is the mean of "
        "the segment scores; ulcdb keeps GTM's own document score. Powers use Python's "
        "correctly rounded pow, where GTM used Java's Math.pow: 5 of 21,930 golden values "
        "(GTM-3) differ in the last printed digit. With CASE=lc the texts are lowercased "
        "first (Python str.lower)."
    )


class GtmFamily(Family):
    """GTM-1, GTM-2 and GTM-3 (GTM 1.4, exponents 1, 2 and 3)."""

    has_kernels = True
    name = "GTM"
    version = "1"

    def __init__(self, exponents: Sequence[int] = EXPONENTS, compiled: bool = True) -> None:
        """``compiled``: match whole columns with numba when it is there (``gtm_kernel``, the
        same numbers as ``match_segment``, which runs otherwise)."""
        if not exponents or any(e <= 0 for e in exponents):
            raise ValueError(f"GTM exponents must be positive, got {list(exponents)}")
        self.exponents = tuple(exponents)
        self.compiled = compiled

    def specs(self) -> list[MetricSpec]:
        return [
            MetricSpec(
                name=f"GTM-{e}",
                family=self.name,
                description=_description(e),
                reference_implementation="GTM 1.4 (gtm.jar) +s +d -e " + str(e),
            )
            for e in self.exponents
        ]

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "gtm-ascii-ws", "impl": "gtm-1.4"}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Every reference set, each text tokenised once; each segment's MMS computed once
        per exponent and summed in segment order for documents and the system."""
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        case = str.lower if params.lowercase else _same
        tokens: dict[int, list[list[str]]] = {}
        for text in (hyps, *(ref for refs in refsets for ref in refs)):
            if id(text) not in tokens:
                tokens[id(text)] = [tokenize(case(line)) for line in text]
        hyp_tokens = tokens[id(hyps)]
        matching = compiled_matching() if self.compiled else None
        if matching is None:
            return [self._levels([match_segment(h, [tokens[id(ref)][i] for ref in refs])
                                  for i, h in enumerate(hyp_tokens)], docs)
                    for refs in refsets]
        vocab: dict[str, int] = {}
        packed = {key: _token_ids(column, vocab) for key, column in tokens.items()}
        hyp_ids, hyp_offsets = packed[id(hyps)]
        out = []
        for refs in refsets:
            ref_ids, ref_offsets = _laid_end_to_end([packed[id(ref)] for ref in refs])
            lengths, offsets = matching(hyp_ids, hyp_offsets, ref_ids, ref_offsets, len(refs))
            taken = lengths.tolist()
            out.append(self._levels([
                SegmentMatch(tuple(taken[offsets[i]:offsets[i + 1]]), float(len(h)),
                             sum(len(tokens[id(ref)][i]) for ref in refs) / len(refs))
                for i, h in enumerate(hyp_tokens)], docs))
        return out

    def _levels(self, matches: list[SegmentMatch], docs: Documents) -> dict[str, LevelScores]:
        out: dict[str, LevelScores] = {}
        for e in self.exponents:
            mms = [m.mms(e) for m in matches]
            seg: list[float | None] = [f_measure(v, m.hyp_len, m.ref_len)
                                       for v, m in zip(mms, matches, strict=True)]
            doc: dict[str, float | None] = {d: _pooled(mms[a:b], matches[a:b])
                                            for d, a, b in docs.spans()}
            out[f"GTM-{e}"] = LevelScores(seg=seg, doc=doc, sys=_pooled(mms, matches))
        return out


def _pooled(mms: Sequence[float], matches: Sequence[SegmentMatch]) -> float:
    """GTM's score of a ``<doc>`` made of these segments (their MMS given): summed MMS over
    summed lengths."""
    total = hyp_len = ref_len = 0.0
    for value, m in zip(mms, matches, strict=True):
        total += value
        hyp_len += m.hyp_len
        ref_len += m.ref_len
    return f_measure(total, hyp_len, ref_len)


Column = tuple[NDArray[np.int64], NDArray[np.int64]]  # token ids, segment offsets


def _token_ids(segments: list[list[str]], vocab: dict[str, int]) -> Column:
    """Every segment's token ids (``vocab``: token -> id, grown as needed), flat, and where
    each segment starts."""
    offsets = np.zeros(len(segments) + 1, np.int64)
    np.cumsum([len(tokens) for tokens in segments], out=offsets[1:])
    ids = np.fromiter((vocab.setdefault(tok, len(vocab)) for tokens in segments
                       for tok in tokens), np.int64, int(offsets[-1]))
    return ids, offsets


def _laid_end_to_end(columns: list[Column]) -> Column:
    """Per segment, the references one after the other, each followed by a break (-1)."""
    n_seg = columns[0][1].size - 1
    brk = np.full(1, -1, np.int64)
    pieces = [piece for s in range(n_seg) for ids, offsets in columns
              for piece in (ids[offsets[s]:offsets[s + 1]], brk)]
    sizes = sum(np.diff(offsets) + 1 for _, offsets in columns)
    offsets = np.zeros(n_seg + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return (np.concatenate(pieces) if pieces else np.zeros(0, np.int64)), offsets


def _same(text: str) -> str:
    return text
