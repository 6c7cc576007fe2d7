"""NE: overlapping and matching over named entities (ULC manual 4.5.1).

NE-Oe-t: lexical overlapping between the entities of type t; NE-Oe-*: over every entity
type (type O excluded); NE-Oe-**: over every item, the words outside entities counted as
type O.  NE-Me-t: matching of whole entities (word sequences) of type t; NE-Me-*: over
every entity type.  Stand-in: BIOS is replaced by spaCy's named-entity recogniser
(en_core_web_sm, OntoNotes types PERSON, ORG, GPE... instead of BIOS's PER, ORG, LOC...).
"""

from __future__ import annotations

from ulcdb.annotation.model import ENTITY, Analysis
from ulcdb.metrics.base import SHALLOW_SEMANTIC, Params
from ulcdb.metrics.ling import (
    STAR,
    Bag,
    SegmentFamily,
    SegmentRules,
    prefixed,
    span_bag,
    type_scores,
    word,
)

# spaCy's OntoNotes entity types: the per-type metrics catalogued.
NE_TYPES: tuple[str, ...] = (
    "CARDINAL", "DATE", "EVENT", "FAC", "GPE", "LANGUAGE", "LAW", "LOC", "MONEY", "NORP",
    "ORDINAL", "ORG", "PERCENT", "PERSON", "PRODUCT", "QUANTITY", "TIME", "WORK_OF_ART")
OUTSIDE = "O"
_STAND_IN = (" Stand-in: BIOS (ULC manual 4.5.1) is replaced by spaCy's named-entity "
             "recogniser (en_core_web_sm; OntoNotes entity types).")
_COMMON = (" Lexical items are token forms (lower-cased under CASE=lc). Several references:"
           " maximum over references per segment. A failed or empty analysis gives NULL."
           " 0/0 scores 0. Document and system: mean of the segment scores (NULLs ignored)."
           " Range 0-1, higher is better.")
_IMPL = "ULC 0.4.2 / Asiya NE metrics (manual 4.5.1), re-implemented"


def metric_names() -> list[str]:
    oe = [f"NE-Oe-{t}" for t in (*NE_TYPES, STAR, "**")]
    return oe + [f"NE-Me-{t}" for t in (*NE_TYPES, STAR)]


def _describe(name: str) -> str:
    kind, t = name[3:5], name[6:]
    if t == "**":
        what = ("Lexical overlapping over all items, named entities by type and the words "
                "outside entities as type O (Overlapping(*) of manual 4.2.2).")
    elif kind == "Oe":
        what = (f"Lexical overlapping between named entities of type {t} (Overlapping(t))."
                if t != STAR else "Average lexical overlapping over all entity types, type O"
                " excluded (Overlapping(*)).")
    else:
        what = (f"Lexical matching of whole named entities of type {t} (Matching(t))."
                if t != STAR else "Average lexical matching over all entity types, type O "
                "excluded (Matching(*)).")
    return f"{name}: {what}{_COMMON}{_STAND_IN}"


def entity_bags(a: Analysis, params: Params) -> tuple[Bag, Bag]:
    """(items by type with the words outside entities as type O, whole entities by type)."""
    items = span_bag(a, ENTITY, params)
    inside = {i for s in a.layer(ENTITY) for i in range(s.start, s.end)}
    for i, tok in enumerate(a.tokens):
        if i not in inside:
            items.add(OUTSIDE, word(tok.form, params))
    return items, span_bag(a, ENTITY, params, whole=True)


def ne_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    (hi, he), (ri, re) = entity_bags(hyp, params), entity_bags(ref, params)
    out = prefixed("NE-Oe", type_scores(hi, ri, NE_TYPES, lambda t: t != OUTSIDE))
    out["NE-Oe-**"] = type_scores(hi, ri, ())[STAR]
    out.update(prefixed("NE-Me", type_scores(he, re, NE_TYPES)))
    return out


class NeFamily(SegmentFamily):
    """NE-Oe-t, NE-Oe-*, NE-Oe-**, NE-Me-t, NE-Me-*."""

    name = "NE"
    level = SHALLOW_SEMANTIC
    implementation = _IMPL
    reads = {"ner": "entities"}
    layer = ENTITY

    rules = SegmentRules(metric_names, _describe, ne_scores)
