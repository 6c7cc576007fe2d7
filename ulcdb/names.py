"""Names users give to test beds, translators, metrics and sets: checked in one place."""

from __future__ import annotations

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
