"""The METEOR family: MTR-exact, MTR-stem, MTR-wnstm, MTR-wnsyn at every level."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params, check_inputs
from ulcdb.metrics.meteor.align import (
    BEAM_SIZE,
    EXACT,
    MODULE_NAMES,
    MODULE_WEIGHTS,
    REFERENCE,
    STEM,
    VARIANTS,
    WN_STEM,
    WORDNET_MODULES,
    _Side,
    meteor_scores,
    pair_alignments,
    segment_stats,
)
from ulcdb.metrics.meteor.kernel import Packed, Statistics, compiled_statistics, pack
from ulcdb.metrics.meteor.lang import STEM_LANGUAGES, MeteorLanguage, meteor_language

Stats = NDArray[np.int64]

# --- the family -------------------------------------------------------------------------------

_MATCHER_TEXT = (
    "exact matches",
    "Snowball English stems (case-sensitive port of Meteor's Java stemmer)",
    "wn_stem: pairs the stem module missed whose WordNet 3.0 base forms meet (WordNet::"
    "QueryData's validForms over all parts of speech: the lowercased word, exception lists, "
    "WordNet's detachment rules), e.g. went/go, children/child",
    "WordNet 3.0 synsets of the word and of its base forms (WordNet exception lists, "
    "Meteor's suffix rules)",
)


def _reference_text(modules: Sequence[int]) -> str:
    """What the variant reproduces (or, for wn_stem, extends)."""
    jar = [MODULE_NAMES[m] for m in modules if m != WN_STEM]
    text = f"{REFERENCE} \"{' '.join(jar)}\""
    if WN_STEM in modules:
        text += " plus METEOR 0.6's wn_stem module (which no Meteor 1.x has), weight 0.6"
    return text


def _description(modules: Sequence[int]) -> str:
    mods = " ".join(MODULE_NAMES[m] for m in modules)
    weights = " ".join(str(MODULE_WEIGHTS[m]) for m in modules)
    quirk = (", whose search weights count only exact matches, so an added module can lower a "
             "score, as in the jar" if len(modules) > 1 else "")
    if WN_STEM in modules:
        fidelity = (
            "No reference tool prints these numbers: ULC 0.4.2 ran METEOR 0.6 (exact, "
            "porter_stem, wn_stem; Fmean 10PR/(R+9P), penalty 0.5*(chunks/matches)**3), which "
            "is not available; ulcdb adds wn_stem as a module of its Meteor 1.5 "
            "re-implementation (weight 0.6, Meteor 1.5's weight for morphological variants) so "
            "that MTR-wnstm shares the scale of the other MTR-* variants. Where wn_stem finds "
            "no candidate the value equals the jar's 'exact stem' (tested on the golden sample)."
        )
    else:
        fidelity = (
            "Equal to the jar on the golden sample (every row, as printed); pow is the C "
            "library's, which may differ from Java's Math.pow in the last bit.")
    return (
        f"METEOR with the modules '{mods}' (weights {weights}): a recall-weighted harmonic "
        "mean of unigram precision and recall (alpha 0.85; function words weigh 1-delta, "
        "delta 0.75) times 1 - 0.6 * (chunks/matches)**0.2. Range 0-1, higher is better. "
        f"Reference implementation: {_reference_text(modules)}, without -norm/-lower (Eval "
        "ID meteor-1.5-wo-en-no_norm-0.85_0.2_0.6_0.75), re-implemented: tokens split on "
        "ASCII whitespace only, punctuation attached, case-sensitive; "
        + "; ".join(_MATCHER_TEXT[m] for m in modules)
        + f"; Meteor's beam search (beam 40){quirk}. Several references: best-scoring "
        "reference per segment (first on ties). Document and system: Meteor's score of the "
        f"summed segment statistics, not a mean of segment scores. {fidelity} With CASE=lc "
        "the texts are lowercased first (str.lower; Meteor's -lower). Departure from the ULC "
        "manual: ULC 0.4.2 ran METEOR 0.6 (its MTR-wnsyn chained porter_stem, wn_stem and "
        "wn_synonymy); ulcdb, like Asiya 3.0, runs Meteor 1.5's modules and parameters."
    )


class MeteorFamily(Family):
    """MTR-exact, MTR-stem, MTR-wnstm and MTR-wnsyn (Meteor 1.5, English, no normalisation)."""

    has_kernels = True
    name = "METEOR"
    version = "1"
    def __init__(self, variants: dict[str, tuple[int, ...]] | None = None,
                 compiled: bool = True) -> None:
        """``compiled``: align whole columns with numba when it is there (the same numbers
        as the Python functions, which run otherwise)."""
        self.variants = dict(VARIANTS if variants is None else variants)
        self.compiled = compiled
        for metric, modules in self.variants.items():
            if not modules or modules[0] != EXACT or list(modules) != sorted(set(modules)):
                raise ValueError(f"{metric}: modules must start with exact, in order, got "
                                 f"{modules}")
            if WN_STEM in modules and STEM not in modules:
                raise ValueError(f"{metric}: wn_stem lists what stem missed, so needs stem")

    def specs(self) -> list[MetricSpec]:
        return [
            MetricSpec(
                name=metric,
                family=self.name,
                description=_description(modules),
                reference_implementation=_reference_text(modules),
            )
            for metric, modules in self.variants.items()
        ]

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "ascii-ws", "norm": "no", **meteor_language(params.lang).fields(),
                "impl": "meteor-1.5"}

    def language_used(self, params: Params) -> str:
        """Meteor runs English without a target language, as ULC assumes."""
        return meteor_language(params.lang).code

    def metric_languages(self, metric: str) -> frozenset[str] | None:
        """MTR-exact: any language (Meteor's ``-l other`` where it has no settings);
        MTR-stem: Meteor's languages with a stemmer; the WordNet variants: English."""
        modules = set(self.variants.get(metric, ()))
        if modules & WORDNET_MODULES:
            return frozenset({"en"})
        return STEM_LANGUAGES if STEM in modules else None

    def language_note_for(self, metric: str) -> str:
        if set(self.variants.get(metric, ())) & WORDNET_MODULES:
            return "its WordNet modules (Meteor's synonym, METEOR 0.6's wn_stem) are English only"
        return "Meteor 1.5 has no stemmer for it (MTR-exact works for every language)"

    def metrics_for(self, params: Params) -> list[str]:
        """The variants Meteor can run for the target language."""
        lang = params.lang or "en"
        return [m for m in self.variants
                if (langs := self.metric_languages(m)) is None or lang in langs]

    def _variants_for(self, params: Params) -> dict[str, tuple[int, ...]]:
        return {m: self.variants[m] for m in self.metrics_for(params)}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set, each (hypothesis, reference) pair aligned once.

        Per segment and module set, the statistics of the best-scoring reference of the set
        (the first on ties, as Meteor picks it)."""
        for refs in refsets:
            check_inputs(hyps, refs, docs)
        lang = meteor_language(params.lang)
        variants = self._variants_for(params)
        wordnet = self._wordnet_modules(variants)
        module_sets = list(variants.values())
        table = lang.module_weights()
        weights = [[table[m] for m in mods] for mods in module_sets]
        hyps_column = _Column([_side(h, params.lowercase, wordnet, lang) for h in hyps])
        statistics = compiled_statistics() if self.compiled else None
        # Per distinct reference: statistics (module set, segment, column) and scores
        # (module set, segment).
        scored: dict[int, tuple[Stats, NDArray[np.float64]]] = {}
        for refs in refsets:
            for ref in refs:
                if id(ref) in scored:
                    continue
                column = _reference_column(ref, params.lowercase, wordnet, lang)
                if statistics is None:
                    stats = _python_statistics(hyps_column, column, module_sets)
                else:
                    stats = _compiled_statistics(statistics, hyps_column, column, module_sets)
                scores = np.zeros((len(module_sets), len(hyps)))
                for k, modules in enumerate(module_sets):
                    scores[k] = meteor_scores(stats[k, :, :_width(modules)].astype(np.float64),
                                              weights[k], lang.params)
                scored[id(ref)] = (stats, scores)
        out = []
        for refs in refsets:
            all_stats = np.stack([scored[id(ref)][0] for ref in refs])
            all_scores = np.stack([scored[id(ref)][1] for ref in refs])
            best = all_scores.argmax(axis=0)  # the first best-scoring reference, as Meteor
            sets, segments = np.ogrid[:len(module_sets), :len(hyps)]
            out.append(_levels(variants, lang, all_scores[best, sets, segments],
                               all_stats[best, sets, segments], docs))
        return out

    @staticmethod
    def _wordnet_modules(variants: dict[str, tuple[int, ...]]) -> frozenset[int]:
        return frozenset(m for mods in variants.values() for m in mods if m in WORDNET_MODULES)


def _levels(variants: dict[str, tuple[int, ...]], lang: MeteorLanguage,
            scores: NDArray[np.float64], stats: Stats, docs: Documents
            ) -> dict[str, LevelScores]:
    """Each variant's levels from the chosen scores and statistics (module set, segment):
    the segment's score as computed, documents and the system scored on summed statistics
    (integers, so exact)."""
    out: dict[str, LevelScores] = {}
    table = lang.module_weights()
    spans = list(docs.spans())
    for k, (metric, modules) in enumerate(variants.items()):
        rows = stats[k, :, :_width(modules)]
        weights = [table[m] for m in modules]
        sums = np.zeros((rows.shape[0] + 1, rows.shape[1]), np.int64)
        np.cumsum(rows, axis=0, out=sums[1:])
        # the documents' summed statistics, then the system's
        starts = np.array([a for _, a, _ in spans] + [0], np.int64)
        ends = np.array([b for _, _, b in spans] + [rows.shape[0]], np.int64)
        pooled = meteor_scores((sums[ends] - sums[starts]).astype(np.float64), weights,
                               lang.params).tolist()
        out[metric] = LevelScores(
            seg=scores[k].tolist(),
            doc={d: v for (d, _, _), v in zip(spans, pooled, strict=False)},
            sys=pooled[-1] if rows.shape[0] else None,
            seg_stats=rows.astype(np.float64).tolist(),
        )
    return out


def _width(modules: Sequence[int]) -> int:
    """Length of Meteor's statistics for a module set."""
    return 7 + 4 * len(modules)


def _side(text: str, lowercase: bool, wordnet: frozenset[int], lang: MeteorLanguage) -> _Side:
    return _Side(text.lower() if lowercase else text, wordnet, lang.stem, lang.function_words)


class _Column:
    """The tokenised sentences of one text, and their arrays for the compiled aligner."""

    def __init__(self, sides: list[_Side]) -> None:
        self.sides = sides

    @cached_property
    def packed(self) -> Packed:
        sides = self.sides
        return pack([s.keys for s in sides], [s.stems for s in sides],
                    [s.function for s in sides], [s.syn_ids for s in sides],
                    [s.base_ids for s in sides])


def _python_statistics(hyps: _Column, refs: _Column, module_sets: list[tuple[int, ...]]
                       ) -> Stats:
    """Per module set, per segment: ``segment_stats`` of the pair's alignment (zero padded
    to the widest set's length)."""
    out = np.zeros((len(module_sets), len(hyps.sides), _width(max(module_sets, key=len))),
                   np.int64)
    for n, (t, r) in enumerate(zip(hyps.sides, refs.sides, strict=True)):
        for k, (modules, matches) in enumerate(
                zip(module_sets, pair_alignments(t, r, module_sets), strict=True)):
            out[k, n, :_width(modules)] = segment_stats(t, r, modules, matches)
    return out


def _compiled_statistics(statistics: Statistics, hyps: _Column, refs: _Column,
                         module_sets: list[tuple[int, ...]]) -> Stats:
    """``_python_statistics`` by the compiled aligner, one call for the whole column."""
    sets = np.full((len(module_sets), max(map(len, module_sets))), -1, np.int64)
    for k, modules in enumerate(module_sets):
        sets[k, :len(modules)] = modules
    return statistics(hyps.packed, refs.packed, sets, BEAM_SIZE, 2)


# Tokenised references shared by the targets a worker process scores: (texts, lowercase,
# WordNet modules) -> sides, the most recent few only.
_REFERENCE_CACHE: dict[tuple[tuple[str, ...], bool, frozenset[int], str], _Column] = {}
_REFERENCE_CACHE_SIZE = 4


def _reference_column(ref: Sequence[str], lowercase: bool, wordnet: frozenset[int],
                      lang: MeteorLanguage) -> _Column:
    key = (tuple(ref), lowercase, wordnet, lang.code)
    column = _REFERENCE_CACHE.pop(key, None)
    if column is None:
        column = _Column([_side(text, lowercase, wordnet, lang) for text in ref])
        while len(_REFERENCE_CACHE) >= _REFERENCE_CACHE_SIZE:
            del _REFERENCE_CACHE[next(iter(_REFERENCE_CACHE))]
    _REFERENCE_CACHE[key] = column  # most recently used last
    return column
