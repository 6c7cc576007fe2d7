"""Specific exceptions; the CLI turns every one of them into one clean message.  A value
outside an argument's choices is refused here, by ``choice``, in one wording for every command
and API call (meta's too)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence


class UlcdbError(Exception):
    """Base class of every error ulcdb reports to users."""


class InputError(UlcdbError):
    """Bad input: names the file and, where known, the line; always one line (a parser's
    message with line breaks, such as libxml2's, is joined; an odd file name is quoted)."""

    def __init__(self, path: object, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = " ".join(part.strip() for part in message.splitlines() if part.strip())
        # a file name with a line break or another control character is shown quoted
        shown = self.path if self.path.isprintable() else repr(self.path)
        where = f"{shown}:{line}" if line is not None else shown
        super().__init__(f"{where}: {self.message}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, int | None, str]]:
        """Pickled by its arguments (it crosses from worker processes to the driver)."""
        return (InputError, (self.path, self.line, self.message))


class StoreError(UlcdbError):
    """The store cannot be used as asked (version, missing test bed, conflict...)."""


class NotFound(StoreError):
    """A named test bed, translator, metric or set does not exist."""


class Conflict(StoreError):
    """Different content under an existing name (use --replace)."""


class MetaError(UlcdbError):
    """A meta-evaluation that cannot be run as asked."""


class OutputError(UlcdbError):
    """A file or folder the command was asked to write cannot be written."""


class ChoiceError(UlcdbError):
    """A value outside an argument's choices (a level, a format...): a usage error, which the
    CLI exits with as its parser does (2)."""


class MetaChoiceError(ChoiceError, MetaError):
    """A meta-evaluation's value outside its choices (level, grouping, coefficient...): caught
    by ``except ChoiceError`` as every command's, and by ``except MetaError`` as before."""


class QueryError(StoreError):
    """SQL the store cannot run (`ulcdb sql`, ``Database.sql``): DuckDB's message."""


class ReadOnly(StoreError):
    """The command must write to a store opened read-only."""


class UlcdbNote(UserWarning):
    """A note the command prints on stderr, given to Python callers (``ulcdb.api``) as a
    warning: systems or metrics left out, imported scores used as they are, a measure that
    could not be computed.  ``warnings.simplefilter("error", UlcdbNote)`` turns them into
    errors, ``"ignore"`` silences them; the returned table carries them either way."""


def listed(allowed: Sequence[str]) -> str:
    """``a, b or c``."""
    return f"{', '.join(allowed[:-1])} or {allowed[-1]}" if len(allowed) > 1 else allowed[0]


def hint(value: str, allowed: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the closest choice (the same first two letters first), or
    nothing."""
    close = [c for c in allowed if value[:2] == c[:2]] or difflib.get_close_matches(
        value, allowed, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def choice(what: str, value: str, allowed: Sequence[str],
           error: type[ChoiceError] = ChoiceError) -> str:
    """``value`` when it is one of ``allowed``; else ``error``, one line naming ``what``, the
    choices and the closest (``--ulc rwa`` suggests ``raw``): the one refusal of a bad choice,
    from the command line (``ulcdb.cli.common.one_of``) and from Python alike."""
    if value in allowed:
        return value
    raise error(f"{what} {value!r}: choose {listed(allowed)}{hint(value.lower(), allowed)}")
