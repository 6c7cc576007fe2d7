"""WordNet 3.0 synonyms and base forms as Meteor's SynonymDictionary and METEOR 0.6's
wn_stem (WordNet::QueryData's validForms) read them."""

from __future__ import annotations

from functools import lru_cache

from ulcdb.metrics.wordnet import wordnet_dir

# --- WordNet 3.0 synonyms (Meteor's SynonymDictionary) -------------------------------------

# Meteor's morphology: WordNet's detachment rules tried in this order on any word.
_MORPH_RULES = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
                ("shes", "sh"), ("men", "man"), ("ies", "y"), ("s", ""), ("ies", "y"),
                ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
                ("er", ""), ("est", ""), ("er", "e"), ("est", "e"))


_POS = ("noun", "verb", "adj", "adv")
# WordNet's detachment rules (morphy(7WN)) per part of speech, as WordNet::QueryData has them.
_DETACH: dict[str, tuple[tuple[str, str], ...]] = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
             ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
             ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}


@lru_cache(maxsize=1)
def _wordnet_files() -> dict[str, tuple[dict[str, str], dict[str, list[str]]]]:
    """Per part of speech: lemma -> the rest of its ``index.*`` line (its synset offsets are
    read when a word asks, ``_offsets``), form -> bases (``*.exc``)."""
    base = wordnet_dir()
    out = {}
    for pos in _POS:
        with open(base / f"index.{pos}", encoding="utf-8") as fh:
            lemmas = dict(line.split(" ", 1) for line in fh if not line.startswith(" "))
        exceptions: dict[str, list[str]] = {}
        with open(base / f"{pos}.exc", encoding="utf-8") as fh:
            for line in fh:
                form, *form_bases = line.split()
                exceptions.setdefault(form, []).extend(form_bases)
        out[pos] = (lemmas, exceptions)
    return out


def _offsets(lemma: str, rest: str) -> list[int]:
    """The synset offsets of an ``index.*`` line (the last ``synset_cnt`` fields)."""
    fields = [lemma, *rest.split()]
    return [int(x) for x in fields[len(fields) - int(fields[2]):]]


@lru_cache(maxsize=1 << 18)
def lemma_synsets(lemma: str) -> frozenset[int] | None:
    """Synset offsets of ``lemma`` over all parts of speech (None: not a WordNet lemma), as
    Meteor 1.5's ``english.synsets`` has them."""
    found: set[int] | None = None
    for lemmas, _ in _wordnet_files().values():
        rest = lemmas.get(lemma)
        if rest is not None:
            found = found or set()
            found.update(_offsets(lemma, rest))
    return None if found is None else frozenset(found)


@lru_cache(maxsize=1)
def base_forms_table() -> dict[str, tuple[str, ...]]:
    """Inflected form -> base forms over all parts of speech, as Meteor 1.5's
    ``english.exceptions`` has them."""
    bases: dict[str, list[str]] = {}
    for _, exceptions in _wordnet_files().values():
        for form, form_bases in exceptions.items():
            bases.setdefault(form, []).extend(form_bases)
    return {w: tuple(b) for w, b in bases.items()}


@lru_cache(maxsize=1 << 18)
def wordnet_base_forms(word: str) -> frozenset[str]:
    """WordNet::QueryData's ``validForms(word)`` without the parts of speech.

    For each part of speech, the lowercased word, its exception-list base forms and the
    results of WordNet's detachment rules (none for words ending in "ss" or of two letters or
    fewer, as in WordNet's morphy), kept when they are lemmas of that part of speech.
    """
    lword = word.lower()
    detachable = len(lword) > 2 and not lword.endswith("ss")
    found: set[str] = set()
    for pos, (lemmas, exceptions) in _wordnet_files().items():
        candidates = [lword, *exceptions.get(lword, ())]
        if detachable:
            candidates += [lword[: len(lword) - len(suffix)] + ending
                           for suffix, ending in _DETACH[pos] if lword.endswith(suffix)]
        found.update(c for c in candidates if c in lemmas)
    return frozenset(found)


def _morph(word: str) -> str:
    """Meteor's ``SynonymDictionary.morph`` (its '-ful' branch can never fire, so is left out)."""
    if word.endswith("ss") or len(word) <= 2:
        return word
    for suffix, ending in _MORPH_RULES:
        if word.endswith(suffix):
            candidate = word[: len(word) - len(suffix)] + ending
            if lemma_synsets(candidate) is not None:
                return candidate
    return ""


@lru_cache(maxsize=1 << 18)
def synonym_sets(word: str) -> frozenset[int]:
    """Synsets of ``word`` and of its base forms (``getSynSets`` + ``getStemSynSets``)."""
    bases = base_forms_table()
    found = set(lemma_synsets(word) or ())
    if word in bases:
        for base in bases[word]:
            found.update(lemma_synsets(base) or ())
    else:
        found.update(lemma_synsets(_morph(word)) or ())
    return frozenset(found)
