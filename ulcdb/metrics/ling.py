"""Overlapping and Matching over linguistic elements (ULC manual 4.2.2-4.2.3), generically.

A sentence is seen as a bag of linguistic elements (LEs) of some class, each with a type
(a part of speech, a chunk type, a semantic role...) and made of items (words, labels...).
An extractor turns one ``Analysis`` into a ``Bag``: for every LE type, the multiset of its
items (for Overlapping) or of its elements as whole item sequences (for Matching).

  Overlapping(t) = Σ_{i ∈ H_t ∩ R_t} count_hyp(i, t) / Σ_{i ∈ H_t ∪ R_t} max(count_hyp, count_ref)
  Overlapping(*) = the same sums taken over every type t ∈ T before dividing.

The numerator's ``count_hyp`` over the intersection is read as the multiset intersection,
``min(count_hyp, count_ref)`` -- the manual's ``|A ∩ H|`` of Table 3 and what Asiya computes
(read literally, a word repeated in the hypothesis would score above its reference count).
T is every type present in the hypothesis or the reference (a fixed list of types is only
used to decide which per-type metrics are catalogued).  A ratio with nothing on either side
(0/0) is 0, as for Ol.  Matching is the same formula over elements instead of items.

Several references: the maximum over references, per segment and per metric (note 1 of
4.2.3).  A failed or empty analysis (``status != 'ok'``) of the hypothesis, or of every
reference, gives NULL (None), never 0, so that backoff (4.7) can tell it apart.  Document
and system scores: the mean of the segment scores, NULLs ignored (Asiya averages segment
scores for these metrics; 4.7: "system-level scores are calculated by averaging over all
sentence-level scores").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from ulcdb.annotation.annotators import annotation_name, layer_source
from ulcdb.annotation.model import OK, Analysis
from ulcdb.metrics.base import (
    Documents,
    Family,
    LevelScores,
    MetricSpec,
    Params,
    mean_levels,
)

STAR = "*"


@dataclass
class Bag:
    """Multisets of items (or elements) by LE type."""

    by_type: dict[str, Counter[Hashable]] = field(default_factory=dict)

    def add(self, lex_type: str, item: Hashable, n: int = 1) -> None:
        self.by_type.setdefault(lex_type, Counter())[item] += n


Item = TypeVar("Item", bound=Hashable)


def hits_total(hyp: Counter[Item], ref: Counter[Item]) -> tuple[int, int]:
    """Σ min (multiset intersection) and Σ max (multiset union) of the counts."""
    return sum((hyp & ref).values()), sum((hyp | ref).values())


def ratio(hits: float, total: float) -> float:
    return hits / total if total else 0.0


def type_scores(hyp: Bag, ref: Bag, types: Iterable[str],
                star_types: Callable[[str], bool] = lambda t: True) -> dict[str, float]:
    """Overlapping/Matching per listed type, and ``*`` over every present type kept by
    ``star_types``."""
    empty: Counter[Hashable] = Counter()
    out = {t: ratio(*hits_total(hyp.by_type.get(t, empty), ref.by_type.get(t, empty)))
           for t in types}
    hits = total = 0
    for t in hyp.by_type.keys() | ref.by_type.keys():
        if star_types(t):
            h, n = hits_total(hyp.by_type.get(t, empty), ref.by_type.get(t, empty))
            hits, total = hits + h, total + n
    out[STAR] = ratio(hits, total)
    return out


def usable(a: Analysis, layer: str | None = None) -> bool:
    """An analysis metrics can read: status ok and, when the annotator reports which span
    layers it produced, the needed layer among them."""
    if a.status != OK:
        return False
    return layer is None or not a.layers or layer in a.layers


SegmentScorer = Callable[[Analysis, Analysis], dict[str, float]]


def best_over_refs(hyp: Analysis, refs: Sequence[Analysis], scorer: SegmentScorer,
                   names: Sequence[str], layer: str | None = None) -> dict[str, float | None]:
    """Each metric's maximum over the usable references; None when there is none."""
    if not usable(hyp, layer):
        return dict.fromkeys(names)
    per_ref = [scorer(hyp, r) for r in refs if usable(r, layer)]
    if not per_ref:
        return dict.fromkeys(names)
    return {n: max(s[n] for s in per_ref) for n in names}


def compute_segments(hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                     docs: Documents, scorer: SegmentScorer, names: Sequence[str],
                     layer: str | None = None) -> dict[str, LevelScores]:
    """Segment scores (max over references), documents and system as means of segments."""
    rows = [best_over_refs(h, [r[i] for r in refs], scorer, names, layer)
            for i, h in enumerate(hyps)]
    return {n: mean_levels([row[n] for row in rows], docs) for n in names}


def word(form: str, params: Params) -> str:
    """A lexical item: the token's form, lower-cased under CASE=lc."""
    return form.lower() if params.lowercase else form


def ling_fields(params: Params, reads: Mapping[str, str]) -> dict[str, object]:
    """The signature fields of a linguistic family: the annotation as it ran (``ann:TOOL/MODEL``,
    the default model named), how segments, references, documents and the system combine,
    and, per field of ``reads`` (e.g. ``tagger`` -> layer ``pos``), what made that layer in
    that run (``tagger:stanza``)."""
    fields: dict[str, object] = {
        "ann": annotation_name(params.annotator, params.annotator_model), "multiref": "max",
        "num": "min", "0/0": 0, "failed": "null", "doc": "mean-seg", "sys": "mean-seg"}
    return fields | {field: layer_source(params.annotator, layer)
                     for field, layer in reads.items()}


def span_bag(a: Analysis, layer: str, params: Params, whole: bool = False) -> Bag:
    """Words inside the spans of ``layer`` by span label; ``whole``: each span's word
    sequence as one element (for Matching)."""
    bag = Bag()
    for s in a.layer(layer):
        words = tuple(word(t.form, params) for t in a.tokens[s.start:s.end])
        if whole:
            bag.add(s.label, words)
        else:
            for w in words:
                bag.add(s.label, w)
    return bag


def prefixed(prefix: str, scores: dict[str, float]) -> dict[str, float]:
    return {f"{prefix}-{t}": v for t, v in scores.items()}


@dataclass(frozen=True)
class SegmentRules:
    """What a segment-scored family is made of: its metric names, their descriptions and
    the scores of one hypothesis analysis against one reference analysis."""

    names: Callable[[], list[str]]
    describe: Callable[[str], str]
    scores: Callable[[Analysis, Analysis, Params], dict[str, float]]


class SegmentFamily(Family):
    """A linguistic family scored segment by segment: the maximum over references per
    segment, documents and system as means of the segment scores (NULLs left out).
    A family gives its ``rules`` (or overrides the three methods that read them)."""

    version = "1"
    needs_analysis = True
    level: str
    implementation: str
    layer: str | None = None  # span layer without which the scores are NULL
    rules: SegmentRules | None = None

    # For the signature: the annotation layers the family reads (field -> layer, see
    # ulcdb.annotation.annotators.LAYERS), then how it scores them (``method_fields``).
    reads: ClassVar[Mapping[str, str]] = {}
    method: ClassVar[Mapping[str, object]] = {}

    def _rules(self) -> SegmentRules:
        if self.rules is None:
            raise NotImplementedError(f"{type(self).__name__} gives no rules")
        return self.rules

    def names(self) -> list[str]:
        return self._rules().names()

    def describe(self, name: str) -> str:
        return self._rules().describe(name)

    def segment_scores(self, hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
        return self._rules().scores(hyp, ref, params)

    def specs(self) -> Sequence[MetricSpec]:
        return [MetricSpec(n, self.name, self.describe(n), self.level,
                           reference_implementation=self.implementation) for n in self.names()]

    def signature_fields(self, params: Params) -> dict[str, object]:
        return ling_fields(params, self.reads) | dict(self.method_fields())

    def method_fields(self) -> Mapping[str, object]:
        """How the family scores what it reads (a subclass sets ``method``, or computes it
        from the resources installed, as TINE)."""
        return self.method

    def compute(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                docs: Documents, params: Params) -> dict[str, LevelScores]:
        return compute_segments(hyps, refs, docs,
                                lambda h, r: self.segment_scores(h, r, params), self.names(),
                                self.layer)
