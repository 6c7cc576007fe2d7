"""An argument's choices checked once for the CLI and the API: where the CLI's parser refuses
a value outside them (Typer's ``Literal`` options), the library refuses it too, so a Python
caller gets an error naming the choices instead of a default silently taken."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from ulcdb.errors import ChoiceError


def listed(allowed: Sequence[str]) -> str:
    """``a, b or c``."""
    return f"{', '.join(allowed[:-1])} or {allowed[-1]}" if len(allowed) > 1 else allowed[0]


def hint(value: str, allowed: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the closest choice (the same first two letters first), or
    nothing."""
    close = [c for c in allowed if value[:2] == c[:2]] or difflib.get_close_matches(
        value, allowed, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def choice(what: str, value: str, allowed: Sequence[str]) -> str:
    """``value`` when it is one of ``allowed``; else one line naming ``what``, the choices
    and the closest (``--ulc rwa`` suggests ``raw``)."""
    if value in allowed:
        return value
    raise ChoiceError(f"{what} {value!r}: choose {listed(allowed)}{hint(value, allowed)}")
