"""Output folders and files given as options and arguments, checked at parse time by the
library's checks (``ulcdb.ops.outputs``)."""

from __future__ import annotations

from pathlib import Path

from ulcdb.ops.outputs import writable_file, writable_folder

__all__ = ["file_option", "folder_option", "writable_file"]


def folder_option(value: Path | None) -> Path | None:
    """Typer callback for options and arguments naming an output folder."""
    return None if value is None else writable_folder(value)


def file_option(value: Path | None) -> Path | None:
    """Typer callback for options and arguments naming an output file."""
    return None if value is None else writable_file(value)
