"""The levels commands take (-G / ``level=``), checked once for the CLI and the API."""

from __future__ import annotations

import difflib

from ulcdb.errors import ChoiceError

LEVELS = ("seg", "doc", "sys")
WITH_ALL = (*LEVELS, "all")


def level_choice(value: str, allowed: tuple[str, ...] = WITH_ALL) -> str:
    """``value`` lower-cased when it is one of ``allowed``; else one line naming them and the
    closest (``system`` and ``sytem`` suggest ``sys``)."""
    level = value.lower()
    if level in allowed:
        return level
    close = [c for c in allowed if level[:2] == c[:2]] or difflib.get_close_matches(
        level, allowed, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    names = f"{', '.join(allowed[:-1])} or {allowed[-1]}"
    raise ChoiceError(f"level {value!r}: choose {names}{hint}")


def levels_of(value: str) -> tuple[str, ...]:
    """The levels ``value`` stands for: one, or all three."""
    level = level_choice(value)
    return LEVELS if level == "all" else (level,)
