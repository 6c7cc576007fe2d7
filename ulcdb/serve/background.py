"""The mirror built while `ulcdb serve` already answers: an empty placeholder when there is
no mirror yet, then the tables and views (a first stage, replaced in one step), then the
analyses (ULC, QUEEN, KING, meta-evaluation, intervals), each stage reported in a status
file the server's pages read (ulcdb.serve.preparing)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ulcdb.serve.status import write_status

if TYPE_CHECKING:  # imported by the thread: the server starts before duckdb is loaded
    from ulcdb.serve.mirror import MirrorReport


def status_path(out: Path) -> Path:
    """The status file of a mirror being prepared: next to it, hidden."""
    return out.with_name(f".{out.name}.status.json")


def write_placeholder(out: Path) -> None:
    """An empty mirror Datasette can open until the first stage replaces it."""
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    lite = sqlite3.connect(tmp)
    try:
        lite.execute("create table ulcdb_mirror (key text primary key, value text)")
        lite.execute("insert into ulcdb_mirror values ('preparing', 'the first stage')")
        lite.commit()
    finally:
        lite.close()
    os.replace(tmp, out)


def stages(out: Path, full: bool) -> list[bool]:
    """The builds to run, by their ``analyses`` flag: tables first when the mirror has none
    of this version's parts (a new or whole rebuild), else the incremental build alone."""
    from ulcdb.serve.mirror import has_manifest

    return [True] if not full and has_manifest(out) else [False, True]


def begin(out: Path) -> None:
    """Before the server starts: a placeholder when there is no mirror, and the status
    saying it is being prepared."""
    if not out.exists():
        write_placeholder(out)
    write_status(status_path(out), preparing=True, step="starting")


def prepare(db: Path, out: Path, full: bool, done: Callable[[MirrorReport], None],
            failed: Callable[[BaseException], None]) -> threading.Thread:
    """Build the mirror in a daemon thread, stage by stage (after ``begin``); ``done`` gets
    the last report, ``failed`` what stopped it.  The status file says how far it got."""
    status = status_path(out)

    def run() -> None:
        from ulcdb.serve.mirror import build_mirror

        try:
            report = None
            for i, analyses in enumerate(stages(out, full)):
                step = "analyses" if analyses else "tables"

                def counted(n: int, total: int, step: str = step) -> None:
                    write_status(status, preparing=True, done=n, total=total, step=step)

                report = build_mirror(db, out, full=full and i == 0, analyses=analyses,
                                      on_parts=counted)
            write_status(status, preparing=False)
            if report is not None:
                done(report)
        except BaseException as exc:  # reported on the pages and the terminal
            write_status(status, preparing=True, error=str(exc).splitlines()[0])
            failed(exc)

    thread = threading.Thread(target=run, name="ulcdb-mirror", daemon=True)
    thread.start()
    return thread
