"""Meteor 1.5's languages (``-l``): parameters, module weights, stemmers, function words.

As ``edu.cmu.meteor.util.Constants`` has them.  English, Czech, French, Spanish, German and
Russian are "supported" and use the ranking task's parameters; every other language with a
Snowball stemmer (Danish, Dutch, Finnish, Hungarian, Italian, Norwegian, Portuguese,
Romanian, Swedish, Turkish) uses the language-independent task (``PARAM_I``, ``WEIGHT_I``);
any other language is Meteor's ``other`` (language-independent parameters, exact matching
only).  ``-m`` keeps the task's weights by position, so ``-m "exact stem"`` weighs exact and
stem matches with the first two weights of the language's list.

Function words: Meteor 1.5's command line weighs English function words whatever ``-l``
says (``MeteorConfiguration`` sets the word file for English before the language and never
changes it), and so does ulcdb, to give the jar's numbers.  Stems of languages other than
English come from the ``snowballstemmer`` package, 2.x (3.x changed the German algorithm):
checked against the Java stemmers of Meteor 1.5 built from source on every distinct word of
the shared WMT21 samples, Russian (671 words) agrees on all, German on all but one of 1,844
('Songwriting-Vermächtnisses': the jar keeps the final s).  MTR-exact and MTR-stem for German
equal the jar's (``-l de -m "exact"``, ``-m "exact stem"``) on the en-de sample.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Protocol

from ulcdb.metrics.meteor.align import FUNCTION_WORDS, MODULE_WEIGHTS
from ulcdb.metrics.meteor.stem import snowball_english

PARAM_I = (0.75, 1.40, 0.70, 0.50)
WEIGHT_I = (1.0, 0.5)


@dataclass(frozen=True)
class MeteorLanguage:
    code: str  # ISO 639-1, as test beds name languages
    name: str  # Meteor's name (its -l option and resource files)
    params: tuple[float, float, float, float]  # alpha, beta, gamma, delta
    weights: tuple[float, ...]  # by position in -m "exact stem"
    snowball: str | None  # snowballstemmer algorithm; None: no stem module

    def module_weights(self) -> tuple[float, ...]:
        """Weight per module id (exact, stem, wn_stem, synonym) for this language."""
        if self.code == "en":
            return MODULE_WEIGHTS
        stem = self.weights[1] if len(self.weights) > 1 else 0.0
        return (self.weights[0], stem, 0.0, 0.0)

    def stem(self, word: str) -> str:
        return _stem(self.snowball, word)

    @property
    def function_words(self) -> frozenset[str]:
        return FUNCTION_WORDS  # English's for every language, as the jar does

    def fields(self) -> dict[str, str]:
        """What the signature says: the parameters and weights used (the language is said
        once, as every family's, by ``Family.signature``)."""
        return {"params": "_".join(str(p) for p in self.params),
                "weights": "_".join(str(w) for w in self.weights)}


_RANKED = {  # Constants.PARAM_RANK / WEIGHT_RANK (first two: exact, then stem or paraphrase)
    "en": ("english", (0.85, 0.20, 0.60, 0.75), (1.0, 0.6, 0.8), "english"),
    "cs": ("czech", (0.95, 0.20, 0.60, 0.80), (1.0,), None),  # no stemmer: exact only
    "fr": ("french", (0.90, 1.40, 0.60, 0.65), (1.0, 0.2), "french"),
    "es": ("spanish", (0.65, 1.30, 0.50, 0.80), (1.0, 0.8), "spanish"),
    "de": ("german", (0.95, 1.00, 0.55, 0.55), (1.0, 0.8), "german"),
    "ru": ("russian", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5), "russian"),
}
_LANGUAGE_INDEPENDENT = {
    "da": ("danish", "danish"), "nl": ("dutch", "dutch"), "fi": ("finnish", "finnish"),
    "hu": ("hungarian", "hungarian"), "it": ("italian", "italian"),
    "no": ("norwegian", "norwegian"), "pt": ("portuguese", "portuguese"),
    "ro": ("romanian", "romanian"), "sv": ("swedish", "swedish"),
    "tr": ("turkish", "turkish"),
}

LANGUAGES: dict[str, MeteorLanguage] = {
    code: MeteorLanguage(code, name, params, weights, snowball)
    for code, (name, params, weights, snowball) in _RANKED.items()}
LANGUAGES.update({code: MeteorLanguage(code, name, PARAM_I, WEIGHT_I, snowball)
                  for code, (name, snowball) in _LANGUAGE_INDEPENDENT.items()})
STEM_LANGUAGES = frozenset(c for c, lang in LANGUAGES.items() if lang.snowball)


def meteor_language(code: str | None) -> MeteorLanguage:
    """The language Meteor runs for a target language (None: English, as ULC assumes)."""
    if code is None:
        return LANGUAGES["en"]
    return LANGUAGES.get(code, MeteorLanguage(code, "other", PARAM_I, (1.0,), None))


class _Stemmer(Protocol):
    """What ulcdb uses of a snowballstemmer stemmer (the package has no type information)."""

    def stemWord(self, word: str) -> str: ...


@cache
def _stemmer(algorithm: str) -> _Stemmer:
    import snowballstemmer

    stemmer: _Stemmer = snowballstemmer.stemmer(algorithm)
    return stemmer


@cache
def _stem(algorithm: str | None, word: str) -> str:
    if algorithm == "english":
        return snowball_english(word)
    if algorithm is None:
        return word
    return _stemmer(algorithm).stemWord(word)
