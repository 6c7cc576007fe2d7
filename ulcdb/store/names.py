"""Names users give to test beds, translators, metrics and sets: checked in one place."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from ulcdb.errors import InputError

MAX_NAME = 200


def check_name(what: str, name: str, origin: object = "input", line: int | None = None) -> str:
    """``name`` when it can name a ``what``: not empty, printable (no tab, line break or other
    control character), without surrounding spaces, at most MAX_NAME characters."""
    problem = None
    if not name:
        problem = "is empty"
    elif not name.isprintable():
        problem = "holds a tab, line break or other control character"
    elif name != name.strip():
        problem = "starts or ends with white space"
    elif len(name) > MAX_NAME:
        problem = f"is longer than {MAX_NAME} characters"
    if problem:
        raise InputError(origin, line, f"the {what} name {name!r} {problem}")
    return name


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
