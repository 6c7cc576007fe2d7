"""ROUGE-1.5.5's Porter stemmer, self-contained (importing nltk for it took about a second).

It is Martin Porter's own Perl version, as NLTK 3's ``PorterStemmer(MARTIN_EXTENSIONS)``
implements it (``bli`` -> ``ble``, ``logi`` -> ``log``; words of one or two letters are kept),
transcribed rule for rule, with C.-Y. Lin's change of 2004 to step 4: the suffixes other than
``ment``, ``ent`` and ``ion`` are tried first, then ``ment``, then ``ent`` or else ``(s|t)ion``,
each on the result of the one before ("fundamental" -> "fundam", "element" -> "elem",
"professional" -> "profess", where Porter gives "fundament", "element", "profession").
tests/metrics/test_metrics_rouge.py checks it against NLTK's stemmer with that step 4 on
every word of WordNet's index and exception lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_VOWELS = frozenset("aeiou")
_STEP4_SUFFIX = re.compile(r"(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_DOUBLE = "*d"  # rule suffix: a double consonant
Rule = tuple[str, str, Callable[[str], bool] | None]


def _consonant_flags(word: str) -> list[bool]:
    flags: list[bool] = []
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(True if i == 0 else not flags[i - 1])
        else:
            flags.append(True)
    return flags


def _is_consonant(word: str, i: int) -> bool:
    if word[i] in _VOWELS:
        return False
    if word[i] == "y":
        negate = False
        while i > 0 and word[i] == "y":
            negate = not negate
            i -= 1
        return (word[i] not in _VOWELS) != negate
    return True


def _measure(stem: str) -> int:
    return "".join("c" if c else "v" for c in _consonant_flags(stem)).count("vc")


def _positive(stem: str) -> bool:
    return _measure(stem) > 0


def _contains_vowel(stem: str) -> bool:
    return not all(_consonant_flags(stem))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _ends_cvc(word: str) -> bool:
    return (len(word) >= 3 and _is_consonant(word, len(word) - 3)
            and not _is_consonant(word, len(word) - 2) and _is_consonant(word, len(word) - 1)
            and word[-1] not in ("w", "x", "y"))


def _apply(word: str, rules: list[Rule]) -> str:
    """The first rule whose suffix the word has decides (its condition on the stem)."""
    for suffix, replacement, condition in rules:
        if suffix == _DOUBLE and _ends_double_consonant(word):
            stem = word[:-2]
        elif suffix != _DOUBLE and word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
        else:
            continue
        return stem + replacement if condition is None or condition(stem) else word
    return word


_STEP1A: list[Rule] = [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None),
                       ("s", "", None)]
_STEP2: list[Rule] = [
    (suffix, replacement, _positive) for suffix, replacement in (
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
        ("izer", "ize"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
        ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
        ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
        ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log"))]
_STEP3: list[Rule] = [
    (suffix, replacement, _positive) for suffix, replacement in (
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
        ("ful", ""), ("ness", ""))]


def _step1b(word: str) -> str:
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _contains_vowel(word[: -len(suffix)]):
            base = word[: -len(suffix)]
            break
    else:
        return word
    last = base[-1]
    return _apply(base, [
        ("at", "ate", None), ("bl", "ble", None), ("iz", "ize", None),
        (_DOUBLE, last, lambda _: last not in ("l", "s", "z")),
        ("", "e", lambda stem: _measure(stem) == 1 and _ends_cvc(stem)),
    ])


def _strip(word: str, start: int) -> str:
    return word[:start] if _measure(word[:start]) > 1 else word


def _step4(word: str) -> str:
    """Lin's step 4 (see the module's text)."""
    match = _STEP4_SUFFIX.search(word)
    if match:
        word = _strip(word, match.start())
    if word.endswith("ment"):
        word = _strip(word, len(word) - 4)
    if word.endswith("ent"):
        word = _strip(word, len(word) - 3)
    elif word.endswith(("sion", "tion")):
        word = _strip(word, len(word) - 3)
    return word


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _ends_cvc(stem)):
            return stem
    return word


class RougePorterStemmer:
    """The Porter stemmer inside ROUGE-1.5.5 (lower-case input: ROUGE lower-cases first)."""

    def stem(self, word: str) -> str:
        if len(word) <= 2:
            return word
        word = _apply(word, _STEP1A)
        word = _step1b(word)
        word = _apply(word, [("y", "i", _contains_vowel)])
        word = _apply(word, _STEP2)
        word = _apply(word, _STEP3)
        word = _step4(word)
        word = _step5a(word)
        return word[:-1] if word.endswith("ll") and _measure(word[:-1]) > 1 else word
