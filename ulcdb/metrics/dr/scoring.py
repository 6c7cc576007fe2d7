"""DR-STM, DR-Or and DR-Orp of two flat DRSs, as Asiya 3.0 computes them (``IQ/Scoring/DR.pm``:
``SNT_extract_features``, ``extract_features``, ``update_TAGWORDS`` and
``SNT_compute_overlap_scores``).

The DRS is read as a tree from the root ``l0``: a condition's children are the conditions
and sub-DRSs its labels name, in order.
- A node's *type* is its tag plus ``.type`` and ``.symbol`` where present (``pred.v.love``,
  ``named.per.mary``, ``rel.agent``); the children of ``or``, ``imp`` and ``whq`` get their
  1-based position as a suffix on tag and type (``drs-1``, ``drs-2``), the manual's
  "order information made explicit".
- STM: at every node, each ancestor-to-node path of types (lengths 1..depth+1) is counted.
  ``DR-STMi-l`` = Σmin / Σmax of the two multisets of length-l paths; ``DR-STM-l`` pools the
  hits and totals of lengths 1..l before dividing (not a mean of ratios).
- Or(t): each node's words count for every distinct tag on its path from the root (its own
  included): the words it is anchored to (``<index>``), the words of the referents it takes
  with a suffix (``.a`` for ``arg``, ``.a1``/``.a2`` for ``arg1``/``arg2``) and its date; the
  ``dr`` category holds the words of every discourse referent.  ``DR-Or-t`` = Σmin / Σmax over
  the two bags of category t, ``DR-Or-*`` pools hits and totals over every category present
  (not a mean of the per-type values).  ``DR-Orp`` is the same over parts of speech.
- 0/0 is 0.  Items (and path types) are lower-cased under CASE=lc.  (Asiya passes
  ``CASE ne ci`` as its lower-casing flag, so its default case-sensitive setting lower-cases;
  ulcdb's reading: CASE=lc lower-cases, as for every other family, so Asiya's default numbers
  are ulcdb's ``case:lc`` numbers.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ulcdb.metrics.dr.drs import ROOT, FlatDrs, node_type
from ulcdb.metrics.ling import STAR, hits_total, ratio

DEPTHS = range(1, 10)
ORDERED = frozenset({"or", "imp", "whq"})  # complex conditions whose children are numbered
ARG_SUFFIX = (("arg", ".a"), ("arg1", ".a1"), ("arg2", ".a2"))
# DRS types catalogued as DR-Or-t / DR-Orp-t (ULC manual tables 27-28, Asiya's rDReng, and
# the numbered sub-DRSs of imp/or/whq); DR-Or-* pools every category present.
TYPES: tuple[str, ...] = (
    "dr", "drs", "drs-1", "drs-2", "alfa", "merge", "smerge", "timex", "named", "pred",
    "card", "rel", "eq", "not", "or", "imp", "whq", "prop")
MAX_DEPTH = 200  # a guard against label cycles in malformed input


@dataclass
class Features:
    """What the scores compare: path multisets by length, words and PoS by category."""

    paths: dict[int, Counter[tuple[str, ...]]] = field(default_factory=dict)
    words: dict[str, Counter[str]] = field(default_factory=dict)
    pos: dict[str, Counter[str]] = field(default_factory=dict)

    def credit(self, tags: set[str], word: str, pos: str | None) -> None:
        for t in tags:
            self.words.setdefault(t, Counter())[word] += 1
            if pos is not None:
                self.pos.setdefault(t, Counter())[pos] += 1


def features(drs: FlatDrs, lowercase: bool = False) -> Features:
    """Paths and tag-word associations of a DRS (rooted at ``l0``)."""
    f = Features()
    low = str.lower if lowercase else str

    def item(index: str) -> tuple[str, str]:
        w, p = drs.words.get(index, ("", ""))
        return low(w), low(p)

    def visit(label: str, chain: tuple[str, ...], tags: frozenset[str], n: int) -> None:
        c = drs.conds.get(label)
        if c is None or len(chain) > MAX_DEPTH:
            return
        tag, typ = c.tag, low(node_type(c))
        if n:
            tag, typ = f"{tag}-{n}", f"{typ}-{n}"
        path = (*chain, typ)
        for k in range(len(path)):
            f.paths.setdefault(len(path) - k, Counter())[path[k:]] += 1
        tags = tags | {tag}
        for attr, suffix in ARG_SUFFIX:
            if attr in c.attrs:
                for i in drs.refs.get(c.attrs[attr], ()):
                    w, p = item(i)
                    f.credit(set(tags), w + suffix, p + suffix)
        for i in c.indices:
            f.credit(set(tags), *item(i))
        if c.date:
            f.credit(set(tags), low(c.date), None)
        for k, child in enumerate(c.children, 1):
            visit(child, path, tags, k if c.tag in ORDERED else 0)

    if drs.ok():
        visit(ROOT, (), frozenset(), 0)
    for indices in drs.refs.values():
        for i in indices:
            f.credit({"dr"}, *item(i))
    return f


def stm_scores(hyp: Features, ref: Features, prefix: str) -> dict[str, float]:
    """``PREFIX-STMi-l`` and pooled ``PREFIX-STM-l``, l = 1..9."""
    out: dict[str, float] = {}
    hits = total = 0
    empty: Counter[tuple[str, ...]] = Counter()
    for n in DEPTHS:
        h, t = hits_total(hyp.paths.get(n, empty), ref.paths.get(n, empty))
        hits, total = hits + h, total + t
        out[f"{prefix}-STMi-{n}"] = ratio(h, t)
        out[f"{prefix}-STM-{n}"] = ratio(hits, total)
    return out


def overlap_scores(hyp: dict[str, Counter[str]], ref: dict[str, Counter[str]], name: str
                   ) -> dict[str, float]:
    """``NAME-t`` for the catalogued types and pooled ``NAME-*`` over every category."""
    empty: Counter[str] = Counter()
    out = {f"{name}-{t}": ratio(*hits_total(hyp.get(t, empty), ref.get(t, empty)))
           for t in TYPES}
    hits = total = 0
    for t in hyp.keys() | ref.keys():
        h, n = hits_total(hyp.get(t, empty), ref.get(t, empty))
        hits, total = hits + h, total + n
    out[f"{name}-{STAR}"] = ratio(hits, total)
    return out


def dr_scores(hyp: Features, ref: Features, prefix: str = "DR") -> dict[str, float]:
    """Every DR metric of one hypothesis DRS against one reference DRS (both rooted)."""
    out = stm_scores(hyp, ref, prefix)
    out.update(overlap_scores(hyp.words, ref.words, f"{prefix}-Or"))
    out.update(overlap_scores(hyp.pos, ref.pos, f"{prefix}-Orp"))
    return out


def metric_names(prefix: str = "DR") -> list[str]:
    names = [f"{prefix}-STM{i}-{n}" for i in ("", "i") for n in DEPTHS]
    for kind in ("Or", "Orp"):
        names += [f"{prefix}-{kind}-{t}" for t in (*TYPES, STAR)]
    return names
