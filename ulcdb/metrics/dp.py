"""DP: similarity of dependency trees (ULC manual 4.4.1).

DP-Ol-l: lexical overlapping between the words hanging at level l or deeper (the root is
level 1; "'DP-Ol-4' reflects lexical overlapping between nodes hanging at level 4 or
deeper"), l = 1..9; DP-Ol-*: Overlapping(*) over the levels 1..9.  DP-Oc-t: words by
grammatical category t; DP-Or-t: words of the subtrees ruled by relation t.  DP-HWC(i)-{w,c,r}-l:
head-word chain matching (HWCM, Liu & Gildea 2005) over chains of words, categories (PTB
tags) or relations: individual = matching chains of length l (hypothesis counts clipped by
the reference's) / hypothesis chains of length l (0 when it has none); accumulated = mean
of the individual scores over the lengths 1..l present in hypothesis or reference.
References taken one by one, maximum kept.

Stand-ins: MINIPAR is replaced by spaCy en_core_web_sm's dependency parser; MINIPAR's
categories (N, V, A, Det...) by spaCy's coarse UD parts of speech (NOUN, VERB, ADJ...) and
its relations (s, obj, mod...) by spaCy's ClearNLP dependency labels (nsubj, dobj, amod...).
"""

from __future__ import annotations

from collections import Counter

from ulcdb.annotation.model import Analysis
from ulcdb.metrics.base import SYNTACTIC, Params
from ulcdb.metrics.ling import (
    STAR,
    Bag,
    SegmentFamily,
    SegmentRules,
    prefixed,
    type_scores,
    word,
)

LEVELS = range(1, 10)
# Head-word chains of one length, counted: a chain is its items from the top down.
Chains = Counter[tuple[str, ...]]

UD_POS: tuple[str, ...] = (
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON",
    "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X")
RELATIONS: tuple[str, ...] = (
    "acl", "acomp", "advcl", "advmod", "agent", "amod", "appos", "attr", "aux", "auxpass",
    "case", "cc", "ccomp", "compound", "conj", "csubj", "csubjpass", "dative", "dep", "det",
    "dobj", "expl", "intj", "mark", "meta", "neg", "nmod", "npadvmod", "nsubj", "nsubjpass",
    "nummod", "oprd", "parataxis", "pcomp", "pobj", "poss", "preconj", "predet", "prep",
    "prt", "punct", "quantmod", "relcl", "xcomp")
ROOTS = frozenset({"ROOT", "root"})
CHAIN_ITEMS = {"w": "words", "c": "grammatical categories (PTB tags)",
               "r": "grammatical relations (dependency labels)"}
_STAND_IN = (" Stand-in: MINIPAR is replaced by spaCy en_core_web_sm's dependency parser; "
             "MINIPAR categories by spaCy's UD coarse POS, its relations by spaCy's ClearNLP "
             "dependency labels.")
_COMMON = (" Lexical items are token forms (lower-cased under CASE=lc). Several references:"
           " maximum over references per segment. A failed or empty analysis gives NULL."
           " 0/0 scores 0. Document and system: mean of the segment scores (NULLs ignored)."
           " Range 0-1, higher is better.")
_IMPL = "ULC 0.4.2 / Asiya DP metrics (manual 4.4.1; HWCM of Liu & Gildea 2005), re-implemented"


def metric_names() -> list[str]:
    names = [f"DP-Ol-{lv}" for lv in LEVELS] + ["DP-Ol-*"]
    names += [f"DP-Oc-{t}" for t in (*UD_POS, STAR)] + [f"DP-Or-{t}" for t in (*RELATIONS, STAR)]
    return names + [f"DP-HWC{i}-{k}-{n}" for k in CHAIN_ITEMS for i in ("", "i") for n in LEVELS]


def ancestors(a: Analysis, i: int) -> list[int]:
    """Token ``i`` and its heads up to the root (cycles cut)."""
    out = [i]
    while True:
        h = a.tokens[out[-1]].head
        if h is None or h < 0 or h == out[-1] or h in out or h >= len(a.tokens):
            return out
        out.append(h)


def tree_bags(a: Analysis, params: Params) -> tuple[Bag, Bag, Bag]:
    """(words by level l or deeper, words by category, subtree words by relation)."""
    levels, cats, rels = Bag(), Bag(), Bag()
    for i, tok in enumerate(a.tokens):
        w = word(tok.form, params)
        up = ancestors(a, i)
        for lv in range(1, min(len(up), max(LEVELS)) + 1):
            levels.add(str(lv), w)
        if tok.pos:
            cats.add(tok.pos, w)
        for j in up:  # every ruling node's relation (i belongs to j's subtree)
            rel = a.tokens[j].deprel
            if rel and rel not in ROOTS:
                rels.add(rel, w)
    return levels, cats, rels


def chains(a: Analysis, kind: str, params: Params) -> dict[int, Chains]:
    """Head-word chains by length: item sequences along downward paths, length 1..9."""
    def item(j: int) -> str:
        t = a.tokens[j]
        return word(t.form, params) if kind == "w" else (t.tag if kind == "c" else t.deprel) or ""

    out: dict[int, Chains] = {n: Counter() for n in LEVELS}
    for i in range(len(a.tokens)):
        path = [item(j) for j in ancestors(a, i)[: max(LEVELS)]]
        for n in range(1, len(path) + 1):
            out[n][tuple(reversed(path[:n]))] += 1
    return out


def hwc_scores(hyp: dict[int, Chains], ref: dict[int, Chains], kind: str) -> dict[str, float]:
    out: dict[str, float] = {}
    acc, seen = 0.0, 0
    for n in LEVELS:
        produced = sum(hyp[n].values())
        single = sum((hyp[n] & ref[n]).values()) / produced if produced else 0.0
        if produced or ref[n]:  # lengths present on neither side are left out of the mean
            acc, seen = acc + single, seen + 1
        out[f"DP-HWCi-{kind}-{n}"] = single
        out[f"DP-HWC-{kind}-{n}"] = acc / seen if seen else 0.0
    return out


def dp_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    (hl, hc, hr), (rl, rc, rr) = tree_bags(hyp, params), tree_bags(ref, params)
    out = prefixed("DP-Ol", type_scores(hl, rl, [str(lv) for lv in LEVELS]))
    out.update(prefixed("DP-Oc", type_scores(hc, rc, UD_POS)))
    out.update(prefixed("DP-Or", type_scores(hr, rr, RELATIONS)))
    for kind in CHAIN_ITEMS:
        out.update(hwc_scores(chains(hyp, kind, params), chains(ref, kind, params), kind))
    return out


def _describe(name: str) -> str:
    if name.startswith("DP-HWC"):
        head, kind, n = name.rsplit("-", 2)
        if head.endswith("i"):
            what = (f"Head-word chain matching (Liu & Gildea 2005) of chains of {n} "
                    f"{CHAIN_ITEMS[kind]}: hypothesis chains also in the reference (counts "
                    "clipped) / hypothesis chains of that length (0 when it has none).")
        else:
            what = (f"Average accumulated head-word chain matching over chains of "
                    f"{CHAIN_ITEMS[kind]} of lengths 1..{n} (mean of DP-HWCi-{kind}-1..{n} "
                    "over the lengths where hypothesis or reference has chains).")
        return f"{name}: {what} Several references: each compared individually, maximum " \
               f"kept. Failed analyses NULL; document/system: mean of segments.{_STAND_IN}"
    kind, t = name[3:5], name[6:]
    if kind == "Ol":
        what = (f"Lexical overlapping between words hanging at tree level {t} or deeper "
                "(root = level 1)." if t != STAR else
                "Overlapping(*) over the tree levels 1..9 (a word counts at every level up to "
                "its own, as DP-Ol-l counts level l or deeper).")
    elif kind == "Oc":
        what = (f"Lexical overlapping between words of grammatical category {t}." if t != STAR
                else "Average lexical overlapping over every grammatical category present.")
    else:
        what = (f"Lexical overlapping between the words of subtrees ruled by relation {t}."
                if t != STAR else "Average lexical overlapping over every relation present "
                "(the root's subtree, i.e. the whole sentence, excluded).")
    return f"{name}: {what}{_COMMON}{_STAND_IN}"


class DpFamily(SegmentFamily):
    """DP-Ol-l, DP-Oc-t, DP-Or-t (with * averages), DP-HWC(i)-{w,c,r}-l."""

    name = "DP"
    level = SYNTACTIC
    implementation = _IMPL
    reads = {"parser": "dep"}
    method = {"hwc": "clipped-precision"}
    layer = None
    rules = SegmentRules(metric_names, _describe, dp_scores)
