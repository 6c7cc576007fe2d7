"""SP: shallow-syntactic similarity (ULC manual 4.3).

SP-Op-t / SP-Op-*: lexical overlapping by part of speech; SP-Oc-t / SP-Oc-*: lexical
overlapping by base-phrase chunk type (Overlapping of manual 4.2.2, see ``ling``).
SP-NIST(i)-{l,p,c,iob}-n: NIST (the NIST family's mteval-v13a implementation) over
sequences of lemmas, parts of speech, base-phrase chunk labels and chunk IOB labels.

Stand-ins: SVMTool (PoS, lemmas) and Phreco (chunks) are replaced by spaCy en_core_web_sm's
PTB tagger and lemmatiser, and base chunks derived from its dependency parse (the annotator's
CHUNK layer).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ulcdb.annotation.model import CHUNK, Analysis
from ulcdb.metrics.base import SHALLOW_SYNTACTIC, Documents, Family, LevelScores, MetricSpec, Params
from ulcdb.metrics.ling import (
    STAR,
    Bag,
    compute_segments,
    ling_fields,
    prefixed,
    span_bag,
    type_scores,
    usable,
    word,
)
from ulcdb.metrics.nist import InformationWeights, mteval_nist, segment_stats

# The Penn Treebank tag set (with spaCy's additions HYPH, NFP, ADD, AFX, XX) and the
# CoNLL-2000 chunk types: the per-type metrics catalogued.  '*' covers every type present.
PTB_TAGS: tuple[str, ...] = (
    "CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNS", "NNP",
    "NNPS", "PDT", "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB",
    "VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "WP$", "WRB", "#", "$", ".", ",", ":",
    "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP", "ADD", "AFX", "XX")
CHUNK_TYPES: tuple[str, ...] = (
    "ADJP", "ADVP", "CONJP", "INTJ", "LST", "NP", "PP", "PRT", "SBAR", "UCP", "VP")
SEQUENCES: dict[str, str] = {"l": "lemmas", "p": "parts of speech",
                             "c": "base-phrase chunk labels (one per chunk, O per word "
                                  "outside chunks)", "iob": "chunk IOB labels (B-NP, I-NP, O)"}
ORDERS = range(1, 6)
_STAND_IN = (" Stand-in: SVMTool/Phreco are replaced by spaCy en_core_web_sm (PTB tags, "
             "lemmas) and base chunks derived from its dependency parse.")
_COMMON = (" Lexical items are token forms (lower-cased under CASE=lc). Several references:"
           " maximum over references per segment. A failed or empty analysis gives NULL."
           " 0/0 scores 0. Document and system: mean of the segment scores (NULLs ignored)."
           " Range 0-1, higher is better.")
_IMPL = "ULC 0.4.2 / Asiya SP metrics (manual 4.3), re-implemented"


def overlap_names() -> list[str]:
    return ([f"SP-Op-{t}" for t in (*PTB_TAGS, STAR)]
            + [f"SP-Oc-{t}" for t in (*CHUNK_TYPES, STAR)])


def nist_names() -> list[str]:
    return [f"SP-NIST{i}-{k}-{n}" for k in SEQUENCES for i in ("", "i") for n in ORDERS]


def tag_bag(a: Analysis, params: Params) -> Bag:
    bag = Bag()
    for t in a.tokens:
        if t.tag and t.tag != "_SP":
            bag.add(t.tag, word(t.form, params))
    return bag


def op_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    return prefixed("SP-Op", type_scores(tag_bag(hyp, params), tag_bag(ref, params), PTB_TAGS))


def oc_scores(hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
    return prefixed("SP-Oc", type_scores(span_bag(hyp, CHUNK, params),
                                         span_bag(ref, CHUNK, params), CHUNK_TYPES))


def iob_labels(a: Analysis) -> list[str]:
    labels = ["O"] * len(a.tokens)
    for s in a.layer(CHUNK):
        for i in range(s.start, s.end):
            labels[i] = ("B-" if i == s.start else "I-") + s.label
    return labels


def chunk_labels(a: Analysis) -> list[str]:
    return [lab[2:] if lab.startswith("B-") else "O"
            for lab in iob_labels(a) if not lab.startswith("I-")]


def sequence(a: Analysis, kind: str, params: Params) -> list[str]:
    """The token sequence SP-NIST-``kind`` scores."""
    if kind == "l":
        return [word(t.lemma or t.form, params) for t in a.tokens]
    if kind == "p":
        return [t.tag or "" for t in a.tokens]
    return chunk_labels(a) if kind == "c" else iob_labels(a)


# Cumulative and individual NIST-1..5 of a group of segments (mteval_nist), None if none scored.
Nist = tuple[list[float], list[float]] | None


class NistLevels(TypedDict):
    seg: list[Nist]
    doc: list[tuple[str, Nist]]
    sys: list[Nist]


def nist_levels(hyps: list[list[str] | None], refs: list[list[list[str]] | None],
                docs: Documents, nrefs: int) -> NistLevels:
    """NIST-n and NISTi-n (n = 1..5) at every level; None rows are left out (NULL)."""
    info = InformationWeights.from_references([r for rs in refs if rs for r in rs])
    stats = [segment_stats(h, rs, info) if h is not None and rs else None
             for h, rs in zip(hyps, refs, strict=True)]

    def score(group: list[list[float] | None]) -> Nist:
        kept = [s for s in group if s is not None]
        return mteval_nist([sum(c) for c in zip(*kept, strict=True)], nrefs) if kept else None

    return {"seg": [score([s]) for s in stats],
            "doc": [(d, score(stats[a:b])) for d, a, b in docs.spans()],
            "sys": [score(stats)]}


def pick(value: Nist, ind: bool, n: int) -> float | None:
    return None if value is None else value[1 if ind else 0][n - 1]


class SpFamily(Family):
    """SP-Op-t, SP-Op-*, SP-Oc-t, SP-Oc-*, SP-NIST(i)-{l,p,c,iob}-n."""

    name = "SP"
    version = "1"
    needs_analysis = True

    def specs(self) -> Sequence[MetricSpec]:
        out = [MetricSpec(n, self.name, _describe(n), SHALLOW_SYNTACTIC,
                          reference_implementation=_IMPL) for n in overlap_names()]
        out += [MetricSpec(n, self.name, _describe(n), SHALLOW_SYNTACTIC, range_max=None,
                           reference_implementation=_IMPL) for n in nist_names()]
        return out

    def signature_fields(self, params: Params) -> dict[str, object]:
        return ling_fields(params, {"tagger": "pos", "chunks": "chunks"}) | {
            "nist": "mteval-v13a-stats"}

    def compute(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                docs: Documents, params: Params) -> dict[str, LevelScores]:
        out = compute_segments(hyps, refs, docs, lambda h, r: op_scores(h, r, params),
                               [f"SP-Op-{t}" for t in (*PTB_TAGS, STAR)])
        out.update(compute_segments(hyps, refs, docs, lambda h, r: oc_scores(h, r, params),
                                    [f"SP-Oc-{t}" for t in (*CHUNK_TYPES, STAR)], CHUNK))
        for kind in SEQUENCES:
            out.update(self._nist(hyps, refs, docs, params, kind))
        return out

    def _nist(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
              docs: Documents, params: Params, kind: str) -> dict[str, LevelScores]:
        layer = None if kind in ("l", "p") else CHUNK
        seg_refs = [[r[i] for r in refs] for i in range(len(hyps))]
        h_seq = [sequence(h, kind, params) if usable(h, layer) else None for h in hyps]
        r_seq = [[sequence(r, kind, params) for r in rs] if all(usable(r, layer) for r in rs)
                 else None for rs in seg_refs]
        lv = nist_levels(h_seq, r_seq, docs, len(refs))
        out = {}
        for ind in (False, True):
            for n in ORDERS:
                out[f"SP-NIST{'i' if ind else ''}-{kind}-{n}"] = LevelScores(
                    seg=[pick(v, ind, n) for v in lv["seg"]],
                    doc={d: pick(v, ind, n) for d, v in lv["doc"]},
                    sys=pick(lv["sys"][0], ind, n))
        return out


def _describe(name: str) -> str:
    if name.startswith("SP-NIST"):
        head, kind, n = name.rsplit("-", 2)
        ind = head.endswith("i")
        what = (f"{'Individual' if ind else 'Accumulated'} NIST "
                f"{'of ' + n + '-grams' if ind else 'up to ' + n + '-grams'} over sequences of "
                f"{SEQUENCES[kind]}, computed with the NIST family's mteval-v13a code "
                "(information weights over all reference sequences of the set, length "
                "penalty; several references used together as mteval does). Document and "
                "system scores from summed segment statistics; a segment whose hypothesis "
                "or any reference failed to parse is NULL and left out.")
        return f"{name}: {what}{_STAND_IN}"
    kind, t = name[3:5], name[6:]
    scope = "part of speech" if kind == "Op" else "base-phrase chunk type"
    what = (f"Lexical overlapping according to the {scope} {t} (Overlapping(t), manual 4.3)."
            if t != STAR else f"Average lexical overlapping over every {scope} present "
            "(Overlapping(*)).")
    return f"{name}: {what}{_COMMON}{_STAND_IN}"
