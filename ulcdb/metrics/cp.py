"""CP: similarity of constituency trees (ULC manual 4.4.2).

CP-STM(i)-l: syntactic tree matching (STM, Liu & Gildea 2005) as the ULC manual words it:
"all syntactic subpaths in the candidate and the reference trees are retrieved; the
fraction of matching subpaths of a given length" -- subpaths are label sequences along
downward paths of the tree (phrase labels, then the PoS of the word; words are not
nodes).  Individual = hypothesis subpaths of length l also in the reference (counts
clipped) / hypothesis subpaths of length l (0 when it has none); accumulated = mean of the
individual scores over the lengths 1..l present in either tree, l = 1..9.
CP-Op-t: lexical overlapping by part of speech; CP-Oc-t: lexical overlapping by phrase
constituent type (embedded constituents
count a word once for each constituent of the type that contains it).

Stand-ins: the Charniak-Johnson parser is replaced by the annotation's CONSTITUENT layer:
trees projected from spaCy en_core_web_sm's dependency parse by default (under --annotator
stanza, Stanza's constituency parser; the signature's ``parser`` field says which), and its
PTB tagger, so CP-Op-t equals SP-Op-t here.
"""

from __future__ import annotations

from collections import Counter

from ulcdb.annotation.model import CONSTITUENT, Analysis, Span
from ulcdb.metrics.base import SYNTACTIC, Params
from ulcdb.metrics.ling import (
    STAR,
    SegmentFamily,
    SegmentRules,
    prefixed,
    span_bag,
    type_scores,
)
from ulcdb.metrics.sp import PTB_TAGS, tag_bag

DEPTHS = range(1, 10)
PHRASES: tuple[str, ...] = (
    "ADJP", "ADVP", "CONJP", "FRAG", "INTJ", "LST", "NAC", "NP", "NX", "PP", "PRN", "PRT",
    "QP", "RRC", "S", "SBAR", "SBARQ", "SINV", "SQ", "UCP", "VP", "WHADJP", "WHADVP", "WHNP",
    "WHPP", "X")
ROOTS = frozenset({"ROOT", "TOP"})
_STAND_IN = (" Stand-in: the Charniak-Johnson parser is replaced by constituency trees "
             "projected from spaCy en_core_web_sm's dependency parse, PoS from its PTB tagger.")
_COMMON = (" Lexical items are token forms (lower-cased under CASE=lc). Several references:"
           " maximum over references per segment. A failed or empty analysis gives NULL."
           " 0/0 scores 0. Document and system: mean of the segment scores (NULLs ignored)."
           " Range 0-1, higher is better.")
_IMPL = "ULC 0.4.2 / Asiya CP metrics (manual 4.4.2; STM of Liu & Gildea 2005), re-implemented"


def metric_names() -> list[str]:
    names = [f"CP-STM{i}-{n}" for i in ("", "i") for n in DEPTHS]
    names += [f"CP-Op-{t}" for t in (*PTB_TAGS, STAR)]
    return names + [f"CP-Oc-{t}" for t in (*PHRASES, STAR)]


def node_paths(a: Analysis) -> list[list[str]]:
    """For every tree node (constituents, then PoS leaves), its labels up to the root."""
    spans = {s.span_id: s for s in a.layer(CONSTITUENT)}

    def up(s: Span | None) -> list[str]:
        out: list[str] = []
        seen: set[int] = set()
        while s is not None and s.span_id not in seen:
            seen.add(s.span_id)
            out.append(s.label)
            s = spans.get(s.parent) if s.parent is not None else None
        return out

    paths = [up(s) for s in spans.values()]
    for i, tok in enumerate(a.tokens):
        holders = [s for s in spans.values() if s.start <= i < s.end]
        smallest = min(holders, key=lambda s: (s.end - s.start, -len(up(s))), default=None)
        paths.append([tok.tag or "", *up(smallest)])
    return paths


def subpaths(a: Analysis) -> dict[int, Counter[tuple[str, ...]]]:
    """Downward label subpaths by length 1..9 (each ends at some node)."""
    out: dict[int, Counter[tuple[str, ...]]] = {n: Counter() for n in DEPTHS}
    for path in node_paths(a):
        for n in range(1, min(len(path), max(DEPTHS)) + 1):
            out[n][tuple(reversed(path[:n]))] += 1
    return out


def stm_scores(hyp: dict[int, Counter[tuple[str, ...]]], ref: dict[int, Counter[tuple[str, ...]]]
               ) -> dict[str, float]:
    out: dict[str, float] = {}
    acc, seen = 0.0, 0
    for n in DEPTHS:
        produced = sum(hyp[n].values())
        single = sum((hyp[n] & ref[n]).values()) / produced if produced else 0.0
        if produced or ref[n]:  # lengths present on neither side are left out of the mean
            acc, seen = acc + single, seen + 1
        out[f"CP-STMi-{n}"] = single
        out[f"CP-STM-{n}"] = acc / seen if seen else 0.0
    return out


def cp_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    out = stm_scores(subpaths(hyp), subpaths(ref))
    out.update(prefixed("CP-Op", type_scores(tag_bag(hyp, params), tag_bag(ref, params),
                                             PTB_TAGS)))
    out.update(prefixed("CP-Oc", type_scores(span_bag(hyp, CONSTITUENT, params),
                                             span_bag(ref, CONSTITUENT, params), PHRASES,
                                             lambda t: t not in ROOTS)))
    return out


def _describe(name: str) -> str:
    if name.startswith("CP-STM"):
        head, n = name.rsplit("-", 1)
        what = (f"Syntactic tree matching: hypothesis subpaths of length {n} also in the "
                "reference (counts clipped) / hypothesis subpaths of that length." if
                head.endswith("i") else f"Average accumulated syntactic tree matching over "
                f"subpath lengths 1..{n} (mean of CP-STMi-1..{n} over the lengths where "
                "hypothesis or reference has subpaths).")
        return (f"{name}: {what} Subpaths: label sequences along downward tree paths (phrase "
                "labels, PoS leaves). Several references: each individually, maximum kept. "
                f"Failed analyses NULL; document/system: mean of segments.{_STAND_IN}")
    kind, t = name[3:5], name[6:]
    scope = "part of speech" if kind == "Op" else "phrase constituent type"
    what = (f"Lexical overlapping according to the {scope} {t}." if t != STAR else
            f"Average lexical overlapping over every {scope} present"
            + (" (ROOT/TOP excluded)." if kind == "Oc" else "."))
    return f"{name}: {what}{_COMMON}{_STAND_IN}"


class CpFamily(SegmentFamily):
    """CP-STM(i)-l, CP-Op-t, CP-Oc-t and their * averages."""

    name = "CP"
    level = SYNTACTIC
    languages = frozenset({"en"})
    language_note = ("its constituents are projected from dependencies with English PTB tags "
                     "(no trained constituency parser here)")
    implementation = _IMPL
    reads = {"parser": "constituents"}
    method = {"stm": "subpaths-clipped-precision"}
    layer = CONSTITUENT
    rules = SegmentRules(metric_names, _describe, cp_scores)
