"""SR: overlapping and matching over semantic roles (ULC manual 4.5.2, Table 4).

SR-Or-t: lexical overlapping between the roles of type t (all their words); SR-Or-*: over
every role type.  SR-Mr-t / SR-Mr-*: matching of whole role fillers (word sequences).
SR-Or: role overlapping without lexical content (multisets of role labels).  The verb-bound
versions require roles to belong to the same verb (items paired with the predicate's
lemma): SR-Orv-t, SR-Orv-*, SR-Mrv-t, SR-Mrv-*, SR-Orv.

Stand-in: SwiRL is replaced by semantic roles derived by rules from spaCy en_core_web_sm's
dependency parse (the annotator's PREDICATE and ROLE layers; PropBank-style labels).
"""

from __future__ import annotations

from ulcdb.annotation.model import PREDICATE, ROLE, Analysis
from ulcdb.metrics.base import SHALLOW_SEMANTIC, Params
from ulcdb.metrics.ling import (
    STAR,
    Bag,
    SegmentFamily,
    SegmentRules,
    prefixed,
    type_scores,
    word,
)

ROLES: tuple[str, ...] = (
    "A0", "A1", "A2", "A3", "A4", "A5", "AA", "AM-ADV", "AM-CAU", "AM-DIR", "AM-DIS",
    "AM-EXT", "AM-LOC", "AM-MNR", "AM-MOD", "AM-NEG", "AM-PNC", "AM-PRD", "AM-REC", "AM-TMP")
_STAND_IN = (" Stand-in: SwiRL is replaced by semantic roles derived by rules from spaCy "
             "en_core_web_sm's dependency parse (PropBank-style labels).")
_COMMON = (" Lexical items are token forms (lower-cased under CASE=lc). Several references:"
           " maximum over references per segment. A failed or empty analysis gives NULL."
           " 0/0 scores 0. Document and system: mean of the segment scores (NULLs ignored)."
           " Range 0-1, higher is better.")
_IMPL = "ULC 0.4.2 / Asiya SR metrics (manual 4.5.2), re-implemented"
ROLE_SET = "roles"  # the single type of SR-Or / SR-Orv


def metric_names() -> list[str]:
    names: list[str] = []
    for v in ("", "v"):
        names += [f"SR-Or{v}-{t}" for t in (*ROLES, STAR)]
        names += [f"SR-Mr{v}-{t}" for t in (*ROLES, STAR)]
        names.append(f"SR-Or{v}")
    return names


def role_bags(a: Analysis, params: Params, verb_bound: bool) -> tuple[Bag, Bag, Bag]:
    """(words by role, fillers by role, role labels), paired with the verb when bound."""
    verbs = {s.span_id: s.label for s in a.layer(PREDICATE)}
    items, elems, labels = Bag(), Bag(), Bag()
    for s in a.layer(ROLE):
        words = tuple(word(t.form, params) for t in a.tokens[s.start:s.end])
        verb = verbs.get(s.parent, "") if s.parent is not None else ""

        def key(x: object, v: str = verb) -> object:
            return (v, x) if verb_bound else x

        for w in words:
            items.add(s.label, key(w))
        elems.add(s.label, key(words))
        labels.add(ROLE_SET, key(s.label))
    return items, elems, labels


def sr_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    out: dict[str, float] = {}
    for v in ("", "v"):
        (hi, he, hl), (ri, re, rl) = (role_bags(hyp, params, v == "v"),
                                      role_bags(ref, params, v == "v"))
        out.update(prefixed(f"SR-Or{v}", type_scores(hi, ri, ROLES)))
        out.update(prefixed(f"SR-Mr{v}", type_scores(he, re, ROLES)))
        out[f"SR-Or{v}"] = type_scores(hl, rl, ())[STAR]
    return out


def _describe(name: str) -> str:
    parts = name.split("-", 2)
    kind, t = parts[1], (parts[2] if len(parts) > 2 else None)
    bound = (" Roles must belong to the same verb (items paired with the predicate's lemma)."
             if kind.endswith("v") else "")
    if t is None:
        what = "Role overlapping: Overlapping over the multisets of role labels, without " \
               "their lexical realisation."
    elif kind.startswith("O"):
        what = (f"Lexical overlapping between semantic roles of type {t}." if t != STAR else
                "Average lexical overlapping over every role type present (Overlapping(*)).")
    else:
        what = (f"Lexical matching of whole role fillers of type {t}." if t != STAR else
                "Average lexical matching over every role type present (Matching(*)).")
    return f"{name}: {what}{bound}{_COMMON}{_STAND_IN}"


class SrFamily(SegmentFamily):
    """SR-Or(v)-t, SR-Or(v)-*, SR-Mr(v)-t, SR-Mr(v)-*, SR-Or(v)."""

    name = "SR"
    level = SHALLOW_SEMANTIC
    languages = frozenset({"en"})
    language_note = ("its semantic roles are derived from dependencies with English rules "
                     "(no trained SRL here)")
    implementation = _IMPL
    reads = {"srl": "roles"}
    layer = ROLE
    rules = SegmentRules(metric_names, _describe, sr_scores)
