"""ulcdb: evaluate machine translation and MT metrics in a DuckDB store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ulcdb.errors import UlcdbNote as UlcdbNote  # warned with the notes of a command

if TYPE_CHECKING:
    from ulcdb.api import Database

__version__ = "0.1.0"


def open(path: str | Path = "ulcdb.duckdb", read_only: bool = False) -> Database:  # noqa: A001
    """The store at ``path`` as a ``ulcdb.api.Database`` (see that module)."""
    from ulcdb.api import open as open_database  # the CLI does not pay for this import

    return open_database(path, read_only)
