"""DR and DR_doc: similarity of discourse representation structures (ULC manual 4.6.1; the
document-level metrics of Giménez et al., MetricsMATR 2010).

DR scores each segment's DRS against each reference's; DR_doc builds one DRS per document
(referents shared across its sentences) and scores documents: every segment carries its
document's score, and the system score is the mean of the document scores.  The scores
themselves are Asiya 3.0's (``ulcdb.metrics.dr.scoring``).

Where the DRSs come from: an analysis holding an imported DRS (``ingest annotations
--format boxer-xml``, then ``score --annotator TOOL``) is scored on it, with ``drs:boxer-xml``
in the signature; with ulcdb's own annotation (spaCy or Stanza), the DRS is built from it
(``ulcdb.metrics.dr.builder``, ``drs:ulcdb-v1``).  Imported analyses without a DRS, and
failed or empty analyses, give NULL (never 0), which x-b backs off.  Document DRSs are
imported from Boxer's document mode (``--format boxer-xml-doc``) or built by ulcdb's
builder; DR_doc on an imported annotation without document DRSs is NULL.

Several references: the maximum over references, per segment (DR) or document (DR_doc) and
per metric, as the other linguistic families.  DR document and system scores: means of the
segment scores, NULLs left out (Asiya counts a failed segment as 0 in a document's mean and
leaves it out of the system's; ulcdb leaves NULL out of both).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from ulcdb.annotation.annotators import annotation_name
from ulcdb.annotation.model import OK, Analysis
from ulcdb.metrics.base import (
    SEMANTIC,
    Documents,
    Family,
    LevelScores,
    MetricSpec,
    Params,
    mean,
    mean_levels,
)
from ulcdb.metrics.dr import builder
from ulcdb.metrics.dr.drs import FlatDrs
from ulcdb.metrics.dr.scoring import TYPES, Features, dr_scores, features, metric_names
from ulcdb.metrics.ling import STAR

BUILDER_TOOLS = frozenset({"spacy", "stanza"})
_IMPL = ("ULC 0.4.2 / Asiya 3.0 DR metrics (IQ/Scoring/DR.pm; manual 4.6.1; DR_doc of "
         "Giménez et al. 2010), re-implemented")


def uses_builder(params: Params) -> bool:
    return params.annotator in BUILDER_TOOLS


def segment_drs(a: Analysis, params: Params) -> FlatDrs | None:
    """The DRS of one analysed segment: its imported one, or (own annotation) built."""
    if a.status != OK:
        return None
    if a.drs is not None:
        drs = FlatDrs.from_json(a.drs)
        return drs if drs.ok() else None
    return builder.build([a]) if uses_builder(params) else None


def document_drs(analyses: Sequence[Analysis], params: Params) -> FlatDrs | None:
    """One DRS for a document's segments: the imported one (on its first segment), or
    (own annotation) built."""
    if analyses and analyses[0].doc_drs is not None:
        drs = FlatDrs.from_json(analyses[0].doc_drs)
        return drs if drs.ok() else None
    if not uses_builder(params) or any(a.drs is not None for a in analyses):
        return None
    return builder.build(analyses)


class _DrBase(Family):
    """What DR and DR_doc share: catalogue, signature, multi-reference scoring."""

    version = "1"
    needs_analysis = True
    languages = frozenset({"en"})
    language_note = ("its DRSs are built by English rules (no C&C/Boxer here) or imported "
                     "from Boxer, which reads English")
    prefix: str
    doc_level: bool

    def specs(self) -> Sequence[MetricSpec]:
        return [MetricSpec(n, self.name, describe(n, self.doc_level), SEMANTIC,
                           reference_implementation=_IMPL) for n in metric_names(self.prefix)]

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"ann": annotation_name(params.annotator, params.annotator_model),
                "drs": builder.VERSION if uses_builder(params) else "boxer-xml",
                "multiref": "max", "0/0": 0, "failed": "null",
                "doc": "doc-drs" if self.doc_level else "mean-seg",
                "sys": "mean-doc" if self.doc_level else "mean-seg"}

    def compute_many(self, hyps: Sequence[Analysis],
                     refsets: Sequence[Sequence[Sequence[Analysis]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        cache: dict[int, Features] = {}  # DRS features, shared by the reference sets
        built: dict[tuple[int, int], FlatDrs | None] = {}
        return [self.score_refset(hyps, refs, docs, params, built, cache) for refs in refsets]

    @abstractmethod
    def score_refset(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                     docs: Documents, params: Params,
                     built: dict[tuple[int, int], FlatDrs | None],
                     cache: dict[int, Features]) -> dict[str, LevelScores]:
        """All metrics against one reference set (DRSs in ``built``, keyed by the id of their
        side and the first segment, features in ``cache``)."""

    def best(self, hyp: FlatDrs | None, refs: Sequence[FlatDrs | None], params: Params,
             cache: dict[int, Features]) -> dict[str, float | None]:
        names = metric_names(self.prefix)
        usable = [r for r in refs if r is not None]
        if hyp is None or not usable:
            return dict.fromkeys(names)
        h = _features(hyp, params, cache)
        per_ref = [dr_scores(h, _features(r, params, cache), self.prefix) for r in usable]
        return {n: max(s[n] for s in per_ref) for n in names}


def _features(drs: FlatDrs, params: Params, cache: dict[int, Features]) -> Features:
    key = id(drs)
    if key not in cache:
        cache[key] = features(drs, params.lowercase)
    return cache[key]


class DrFamily(_DrBase):
    """DR-STM(i)-l, DR-Or-t, DR-Orp-t and their * versions over segment DRSs."""

    name = "DR"
    prefix = "DR"
    doc_level = False

    def score_refset(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                     docs: Documents, params: Params,
                     built: dict[tuple[int, int], FlatDrs | None],
                     cache: dict[int, Features]) -> dict[str, LevelScores]:
        def drs(side: Sequence[Analysis], i: int) -> FlatDrs | None:
            key = (id(side), i)
            if key not in built:
                built[key] = segment_drs(side[i], params)
            return built[key]

        rows = [self.best(drs(hyps, i), [drs(r, i) for r in refs], params, cache)
                for i in range(len(hyps))]
        return {n: mean_levels([row[n] for row in rows], docs)
                for n in metric_names(self.prefix)}


class DrDocFamily(_DrBase):
    """DRdoc-*: the DR metrics over one DRS per document."""

    name = "DRdoc"
    prefix = "DRdoc"
    doc_level = True
    needs_documents = True

    def score_refset(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                     docs: Documents, params: Params,
                     built: dict[tuple[int, int], FlatDrs | None],
                     cache: dict[int, Features]) -> dict[str, LevelScores]:
        def drs(side: Sequence[Analysis], a: int, b: int) -> FlatDrs | None:
            key = (id(side), a)
            if key not in built:
                built[key] = document_drs(side[a:b], params)
            return built[key]

        spans = docs.spans()
        rows = {d: self.best(drs(hyps, a, b), [drs(r, a, b) for r in refs], params, cache)
                for d, a, b in spans}
        levels = {}
        for n in metric_names(self.prefix):
            doc = {d: row[n] for d, row in rows.items()}
            seg = [doc[d] for d, a, b in spans for _ in range(a, b)]
            levels[n] = LevelScores(seg=seg, doc=doc, sys=mean(list(doc.values())))
        return levels


def describe(name: str, doc_level: bool) -> str:
    prefix, rest = name.split("-", 1)
    if rest.startswith("STM"):
        n = rest.rsplit("-", 1)[1]
        what = (f"Semantic tree matching: matching subpaths of length {n} of the two DRS trees "
                "(Σmin/Σmax of the path multisets)." if rest.startswith("STMi") else
                f"Semantic tree matching accumulated over subpath lengths 1..{n}: hits and "
                "totals pooled over the lengths before dividing (Asiya).")
        what += (" Node types: condition tag with type and symbol (pred.v.love, rel.agent); "
                 "children of or/imp/whq numbered (drs-1, drs-2).")
    else:
        kind, t = rest.split("-", 1)
        items = "lexical items (words)" if kind == "Or" else "parts of speech"
        what = (f"Overlapping of {items} between DRS structures of type {t}: the words of "
                "every node under such a condition, referents' words suffixed .a/.a1/.a2."
                if t not in (STAR, "dr") else
                f"Overlapping of the {items} of every discourse referent." if t == "dr" else
                f"Overlapping of {items} pooled over every DRS type present (hits and "
                f"totals summed, types {', '.join(TYPES)} and any other).")
    level = (" One DRS per document (referents shared across its sentences); every segment "
             "carries its document's score; system: mean of the document scores."
             if doc_level else " Document and system: mean of the segment scores.")
    return (f"{name}: {what}{level} Several references: maximum over references. A failed "
            "or empty analysis gives NULL. Range 0-1, higher is better. DRSs: imported Boxer "
            "output (drs:boxer-xml) or ulcdb's own builder over the spaCy/Stanza annotation "
            f"(drs:{builder.VERSION}, a stand-in for C&C + Boxer).")
