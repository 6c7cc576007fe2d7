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
def _wordnet_files() -> dict[str, tuple[dict[str, list[int]], dict[str, list[str]]]]:
    """Per part of speech: lemma -> synset offsets (``index.*``), form -> bases (``*.exc``)."""
    base = wordnet_dir()
    out = {}
    for pos in _POS:
        lemmas: dict[str, list[int]] = {}
        with open(base / f"index.{pos}", encoding="utf-8") as fh:
            for line in fh:
                if not line.startswith(" "):
                    fields = line.split()
                    lemmas[fields[0]] = [int(x) for x in fields[len(fields) - int(fields[2]):]]
        exceptions: dict[str, list[str]] = {}
        with open(base / f"{pos}.exc", encoding="utf-8") as fh:
            for line in fh:
                form, *form_bases = line.split()
                exceptions.setdefault(form, []).extend(form_bases)
        out[pos] = (lemmas, exceptions)
    return out


@lru_cache(maxsize=1)
def wordnet_tables() -> tuple[dict[str, frozenset[int]], dict[str, tuple[str, ...]]]:
    """Lemma -> synset offsets (all parts of speech) and inflected form -> base forms.

    These equal Meteor 1.5's ``english.synsets`` and ``english.exceptions`` entry for entry.
    """
    synsets: dict[str, set[int]] = {}
    bases: dict[str, list[str]] = {}
    for lemmas, exceptions in _wordnet_files().values():
        for lemma, offsets in lemmas.items():
            synsets.setdefault(lemma, set()).update(offsets)
        for form, form_bases in exceptions.items():
            bases.setdefault(form, []).extend(form_bases)
    return ({w: frozenset(s) for w, s in synsets.items()},
            {w: tuple(b) for w, b in bases.items()})


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


def _morph(word: str, synsets: dict[str, frozenset[int]]) -> str:
    """Meteor's ``SynonymDictionary.morph`` (its '-ful' branch can never fire, so is left out)."""
    if word.endswith("ss") or len(word) <= 2:
        return word
    for suffix, ending in _MORPH_RULES:
        if word.endswith(suffix):
            candidate = word[: len(word) - len(suffix)] + ending
            if candidate in synsets:
                return candidate
    return ""


@lru_cache(maxsize=1 << 18)
def synonym_sets(word: str) -> frozenset[int]:
    """Synsets of ``word`` and of its base forms (``getSynSets`` + ``getStemSynSets``)."""
    synsets, bases = wordnet_tables()
    found = set(synsets.get(word, ()))
    if word in bases:
        for base in bases[word]:
            found.update(synsets.get(base, ()))
    else:
        found.update(synsets.get(_morph(word, synsets), ()))
    return frozenset(found)
