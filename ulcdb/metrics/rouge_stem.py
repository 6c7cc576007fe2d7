"""ROUGE-1.5.5's Porter stemmer (kept apart: importing nltk takes seconds)."""

from __future__ import annotations

import re

from nltk.stem.porter import PorterStemmer

_STEP4_SUFFIX = re.compile(r"(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")


class RougePorterStemmer(PorterStemmer):
    """The Porter stemmer inside ROUGE-1.5.5.

    It is Martin Porter's own Perl version (NLTK's ``MARTIN_EXTENSIONS``: ``bli`` -> ``ble``,
    ``logi`` -> ``log``) with C.-Y. Lin's change of 2004 to step 4: the suffixes other than
    ``ment``, ``ent`` and ``ion`` are tried first, then ``ment``, then ``ent`` or else
    ``(s|t)ion``, each on the result of the one before ("fundamental" -> "fundam", "element"
    -> "elem", "professional" -> "profess", where Porter gives "fundament", "element",
    "profession").
    """

    def __init__(self) -> None:
        super().__init__(PorterStemmer.MARTIN_EXTENSIONS)

    def _strip(self, word: str, start: int) -> str:
        return word[:start] if self._measure(word[:start]) > 1 else word

    def _step4(self, word: str) -> str:
        match = _STEP4_SUFFIX.search(word)
        if match:
            word = self._strip(word, match.start())
        if word.endswith("ment"):
            word = self._strip(word, len(word) - 4)
        if word.endswith("ent"):
            word = self._strip(word, len(word) - 3)
        elif word.endswith(("sion", "tion")):
            word = self._strip(word, len(word) - 3)
        return word
