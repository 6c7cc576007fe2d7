"""The status file of a mirror being built in the background: written by `ulcdb serve`
(ulcdb.serve.background), read by the server's pages (ulcdb.serve.preparing)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

STATUS_ENV = "ULCDB_SERVE_STATUS"


def read_status() -> dict[str, Any]:
    """The build's status: {"preparing": bool, "done": N, "total": M, "step": ..., "error":
    ...}; not preparing when no status file is named or it is gone."""
    path = os.environ.get(STATUS_ENV)
    if not path:
        return {"preparing": False}
    try:
        status: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"preparing": False}
    return status


def write_status(path: Path, **status: Any) -> None:
    """Replace the status file in one step (the server never reads half of it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(status), encoding="utf-8")
    os.replace(tmp, path)


def status_line(status: dict[str, Any]) -> str:
    if status.get("error"):
        return f"the mirror could not be prepared: {status['error']}"
    done, total = status.get("done", 0), status.get("total", 0)
    counts = f": {done} of {total} parts" if total else ""
    step = f" ({status['step']})" if status.get("step") else ""
    return f"preparing{counts}{step}; tables that are done can be browsed and queried"


def mirror_path(store_path: Path) -> Path:
    """Where the mirror of a store lives: next to it, ``ulcdb.duckdb`` -> ``ulcdb.sqlite``."""
    return store_path.with_suffix(".sqlite")


def mirror_is_fresh(store_path: Path, out: Path | None = None) -> bool:
    """True when the mirror exists and was built from the store as it is now."""
    out = out or mirror_path(store_path)
    if not out.exists():
        return False
    try:
        lite = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
        try:
            row = lite.execute(
                "select value from ulcdb_mirror where key = 'store_mtime'").fetchone()
        finally:
            lite.close()
    except sqlite3.Error:
        return False
    return bool(row) and row[0] == str(store_path.stat().st_mtime)
