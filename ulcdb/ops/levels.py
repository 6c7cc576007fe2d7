"""The levels commands take (-G / ``level=``), checked once for the CLI and the API."""

from __future__ import annotations

from ulcdb.errors import choice

LEVELS = ("seg", "doc", "sys")
WITH_ALL = (*LEVELS, "all")


def level_choice(value: str, allowed: tuple[str, ...] = WITH_ALL) -> str:
    """``value`` lower-cased when it is one of ``allowed``; else one line naming them and the
    closest (``system`` and ``sytem`` suggest ``sys``)."""
    level = value.lower()
    return level if level in allowed else choice("level", value, allowed)


def levels_of(value: str) -> tuple[str, ...]:
    """The levels ``value`` stands for: one, or all three."""
    level = level_choice(value)
    return LEVELS if level == "all" else (level,)
