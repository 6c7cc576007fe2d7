"""Names users give to test beds, translators, metrics and sets: checked in one place."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from ulcdb.errors import InputError

MAX_NAME = 200


def check_name(what: str, name: str, origin: object = "input", line: int | None = None) -> str:
    """``name`` when it can name a ``what``: not empty, printable (no tab, line break or other
    control character), without surrounding spaces, at most MAX_NAME characters (but a
    document's id, which the data gives)."""
    problem = None
    if not name:
        problem = "is empty"
    elif not name.isprintable():
        problem = "holds a tab, line break or other control character"
    elif name != name.strip():
        problem = "starts or ends with white space"
    elif len(name) > MAX_NAME and what != "document":  # documents: ids of the data's own
        problem = f"is longer than {MAX_NAME} characters"
    else:
        problem = _separator(what, name)
    if problem:
        raise InputError(origin, line, f"the {what} name {name!r} {problem}")
    return name


# Names no option takes as a comma-separated list.
_UNLISTED = ("criterion", "annotation run", "document")


def _separator(what: str, name: str) -> str | None:
    """Why ``name`` could not be given on the command line as one name, or None: commas
    separate names (``-s a,b``) except inside a tuned metric's brackets, ``+`` joins
    references into a reference set (``-r ref-A+ref-B``, a reference set's stored name) and
    ``=`` ends a translator's name in ``--sys NAME=FILE``."""
    if what not in _UNLISTED and "," in re.sub(r"\[[^\]]*\]", "", name):
        return "holds a comma, which separates names on the command line (-s a,b)"
    if what == "reference" and "+" in name:
        return "holds '+', which joins references into a reference set (-r ref-A+ref-B)"
    if what in ("system", "reference") and "=" in name:
        return "holds '=', which ends the name in --sys NAME=FILE and --rename OLD=NAME"
    return None


def fold(name: str) -> str:
    """``name`` with case and Unicode normalisation (NFC against NFD, ...) left out: two
    names that fold alike look alike, and one of them is a mistake."""
    return unicodedata.normalize("NFKC", name).casefold()


def lookalike(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that differs from ``name`` only by case or Unicode
    normalisation (an NFD 'café' against a stored NFC one), or None."""
    key = fold(name)
    return next((n for n in names if n != name and fold(n) == key), None)


def refuse_lookalike(origin: object, what: str, name: str, names: Iterable[str],
                     where: str = "", line: int | None = None) -> None:
    """An ``InputError`` when ``name`` differs from one of ``names`` only by case or Unicode
    normalisation: two names that look alike would be told apart by no one reading a table
    (names that differ only in their Unicode form are shown with escapes)."""
    other = lookalike(name, names)
    if other is not None:
        nfc = unicodedata.normalize
        show = ascii if nfc("NFC", name) == nfc("NFC", other) else repr  # they look the same
        raise InputError(origin, line, f"the {what} name {show(name)} differs from "
                         f"{show(other)}{where} only by case or Unicode normalisation: use "
                         "one spelling")


# The manuals' abbreviations of the names users type in full.
_ABBREVIATIONS = (("rouge", "rg"), ("meteor", "mtr"))


def suggest(name: str, known: Iterable[str], n: int = 3) -> str:
    """' (did you mean a, b?)' for the known names closest to ``name``, or ''.  Case is
    ignored for the comparison, never for matching: names stay exact."""
    by_lower: dict[str, list[str]] = {}
    for k in known:
        by_lower.setdefault(k.lower(), []).append(k)
    wanted = name.lower()
    for long, short in _ABBREVIATIONS:
        wanted = wanted.replace(long, short)
    close = difflib.get_close_matches(wanted, list(by_lower), n=n, cutoff=0.7)
    exact_case = by_lower.get(name.lower(), [])
    names = list(dict.fromkeys([*exact_case, *(k for c in close for k in by_lower[c])]))[:n]
    return f" (did you mean {', '.join(names)}?)" if names else ""
