"""The Snowball English stemmer as Meteor 1.5's Java port runs it (case-sensitive)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# --- Snowball English stemmer (org.tartarus.snowball.ext.englishStemmer) -------------------
# A port of the Snowball 'english' (Porter2) program that Meteor 1.5 bundles.  Unlike NLTK's
# SnowballStemmer it does not lowercase: upper-case letters are consonants and never match a
# suffix, as in the Java code.  Checked against the jar on 472,503 words (all tokens of the
# WMT21 ru-en and en-de test beds, WordNet lemmas in three casings): identical output.

_V = frozenset("aeiouy")
_V_WXY = frozenset("aeiouywxY")
_VALID_LI = frozenset("cdeghkmnrt")
_EXCEPTION1 = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
    "idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli",
    "singly": "singl", "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas",
    "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}
_EXCEPTION2 = frozenset(
    ("inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"))
_STEP1A = ("sses", "ied", "ies", "s", "us", "ss")
_STEP1B = ("eed", "eedly", "ed", "edly", "ing", "ingly")
_STEP2 = {
    "tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent",
    "izer": "ize", "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate",
    "alism": "al", "aliti": "al", "alli": "al", "fulness": "ful", "ousli": "ous",
    "ousness": "ous", "iveness": "ive", "iviti": "ive", "biliti": "ble", "bli": "ble",
    "ogi": "og", "fulli": "ful", "lessli": "less", "li": "",
}
_STEP3 = {
    "tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic",
    "ical": "ic", "ful": "", "ness": "", "ative": "",
}
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
          "ism", "ate", "iti", "ous", "ive", "ize", "ion")


def _longest(word: str, suffixes: Sequence[str] | dict[str, str]) -> str:
    """Snowball's ``among``: the longest of ``suffixes`` that ends ``word`` ('' if none)."""
    best = ""
    for suffix in suffixes:
        if len(suffix) > len(best) and word.endswith(suffix):
            best = suffix
    return best


def _past_vowel_consonant(w: str, i: int) -> int | None:
    """``gopast v gopast non-v`` from ``i``: the position after them, None if it fails."""
    n = len(w)
    while i < n and w[i] not in _V:
        i += 1
    i += 1
    while i < n and w[i] in _V:
        i += 1
    return i + 1 if i < n else None


def _regions(w: str) -> tuple[int, int]:
    """Start of R1 and R2."""
    p1 = next((len(p) for p in ("gener", "commun", "arsen") if w.startswith(p)), None)
    if p1 is None:
        p1 = _past_vowel_consonant(w, 0)
        if p1 is None:
            return len(w), len(w)
    p2 = _past_vowel_consonant(w, p1)
    return p1, len(w) if p2 is None else p2


def _short_syllable(w: str) -> bool:
    """``shortv`` at the end of ``w``."""
    if len(w) >= 3 and w[-1] not in _V_WXY and w[-2] in _V and w[-3] not in _V:
        return True
    return len(w) == 2 and w[0] in _V and w[1] not in _V


def _prelude(word: str) -> tuple[str, bool]:
    chars = list(word[1:] if word.startswith("'") else word)
    y_found = False
    for i, ch in enumerate(chars):
        if ch == "y" and (i == 0 or chars[i - 1] in _V):
            chars[i], y_found = "Y", True
    return "".join(chars), y_found


def _step1a(w: str) -> str:
    for suffix in ("'s'", "'s", "'"):
        if w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    suffix = _longest(w, _STEP1A)
    if suffix == "sses":
        return w[:-2]
    if suffix in ("ied", "ies"):
        return w[:-3] + ("i" if len(w) > 4 else "ie")
    if suffix == "s" and any(ch in _V for ch in w[:-2]):
        return w[:-1]
    return w


def _step1b(w: str, p1: int) -> str:
    suffix = _longest(w, _STEP1B)
    stem = w[: len(w) - len(suffix)]
    if not suffix:
        return w
    if suffix in ("eed", "eedly"):
        return stem + "ee" if len(stem) >= p1 else w
    if not any(ch in _V for ch in stem):
        return w
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if stem.endswith(("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")):
        return stem[:-1]
    if len(stem) == p1 and _short_syllable(stem):
        return stem + "e"
    return stem


def _step1c(w: str) -> str:
    if len(w) >= 3 and w[-1] in "yY" and w[-2] not in _V:
        return w[:-1] + "i"
    return w


def _step2(w: str, p1: int) -> str:
    suffix = _longest(w, _STEP2)
    stem = w[: len(w) - len(suffix)]
    if not suffix or len(stem) < p1:
        return w
    if suffix == "ogi":
        return stem + "og" if stem.endswith("l") else w
    if suffix == "li":
        return stem if stem and stem[-1] in _VALID_LI else w
    return stem + _STEP2[suffix]


def _step3(w: str, p1: int, p2: int) -> str:
    suffix = _longest(w, _STEP3)
    stem = w[: len(w) - len(suffix)]
    if not suffix or len(stem) < p1 or (suffix == "ative" and len(stem) < p2):
        return w
    return stem + _STEP3[suffix]


def _step4(w: str, p2: int) -> str:
    suffix = _longest(w, _STEP4)
    stem = w[: len(w) - len(suffix)]
    if not suffix or len(stem) < p2 or (suffix == "ion" and not stem.endswith(("s", "t"))):
        return w
    return stem


def _step5(w: str, p1: int, p2: int) -> str:
    start = len(w) - 1
    if w.endswith("e") and (start >= p2 or (start >= p1 and not _short_syllable(w[:-1]))):
        return w[:-1]
    if w.endswith("ll") and start >= p2:
        return w[:-1]
    return w


@lru_cache(maxsize=1 << 18)
def snowball_english(word: str) -> str:
    """Stem of ``word`` exactly as Meteor's Java Snowball English stemmer gives it."""
    if word in _EXCEPTION1:
        return _EXCEPTION1[word]
    if len(word) < 3:
        return word
    w, y_found = _prelude(word)
    p1, p2 = _regions(w)
    w = _step1a(w)
    if w not in _EXCEPTION2:
        w = _step1c(_step1b(w, p1))
        w = _step5(_step4(_step3(_step2(w, p1), p1, p2), p2), p1, p2)
    return w.replace("Y", "y") if y_found else w
