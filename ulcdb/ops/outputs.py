"""Where commands write: checked before anything is computed or written, so an unwritable
path is one line naming it, not a traceback halfway through (``ulcdb.cli.outputs`` checks
options with these at parse time, ``ulcdb.ops.export`` before it writes)."""

from __future__ import annotations

import os
from pathlib import Path

from ulcdb.errors import OutputError


def writable_folder(path: Path) -> Path:
    """``path`` as a folder to write into (created later by the writer): it is a folder, or
    its nearest existing ancestor is a folder this process may write in."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: exists and is not a folder")
    _check_ancestor(path, path, "created")
    return path


def writable_file(path: Path) -> Path:
    """``path`` as a file to (over)write: not a folder, its folder writable."""
    if path.is_dir():
        raise OutputError(f"{path}: is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{path}: no permission to write it")
    _check_ancestor(path, path.parent, "written")
    return path


def _check_ancestor(path: Path, start: Path, what: str) -> None:
    probe = start
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise OutputError(f"{path}: cannot be {what} ({probe} is a file, not a folder)")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot be {what} (no permission to write in {probe})")
