"""How a command reaches the store: reading it, and writing only when it must.

The CLI opens the store file read-only first and writably only for what is missing, so a
command with nothing to compute runs beside other readers; the Python API holds one open
store, writable or not.  Both are an ``Access``; a store that may not be written refuses
with one ``ReadOnly`` message, whichever way it was opened.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ulcdb.errors import ReadOnly

if TYPE_CHECKING:
    from ulcdb.store.database import Store


class Access(Protocol):
    """A store to read, and to write when a command must."""

    def read(self) -> AbstractContextManager[Store]:
        """The store for reading (read-only where it can be)."""

    def write(self, what: str) -> AbstractContextManager[Store]:
        """The store for writing ``what`` (e.g. "the missing scores of chrF"); ReadOnly when
        it may not be written."""


STORES = "what this command stores"  # what an ingest writes, in its ReadOnly refusal


def read_only(path: Path, what: str) -> ReadOnly:
    """The one refusal of a write to a read-only store."""
    return ReadOnly(f"cannot write {what}: the store {path} is open read-only")


class Opened:
    """An open store (the Python API's): reads and writes go to it, not closed here."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def read(self) -> Iterator[Store]:
        yield self.store

    @contextmanager
    def write(self, what: str) -> Iterator[Store]:
        if self.store.read_only:
            raise read_only(self.store.path, what)
        yield self.store
