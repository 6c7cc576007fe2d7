"""Serving while the mirror is prepared: `ulcdb serve` starts Datasette at once and builds
the mirror in the background, replacing the file when a stage is done (tables first, then
the analyses).  This plugin

- reopens the mirror when its file was replaced (``ReloadingDatabase``: each SQL thread's
  connection is made anew when the file's inode changed; Datasette's own keeps the old file);
- while the build runs (the status file named by ``ULCDB_SERVE_STATUS`` says so), answers a
  page that fails because its table is not there yet (404, "no such table") with 503 and
  "preparing: N of M parts", shows that line atop every page, and serves the status at
  ``/-/preparing.json``;
- gives the canned queries expanded for the mirror as it is now (their pivot columns are the
  systems, unknown while the first stage is written).
"""

from __future__ import annotations

import html
import json
import os
import threading
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from datasette.database import Database
from datasette.utils.asgi import Response

from ulcdb.serve.readonly import App, Message, Receive, Scope, Send
from ulcdb.serve.status import read_status, status_line

if TYPE_CHECKING:  # datasette ships no types: its hookimpl named as the pluggy marker it is
    from pluggy import HookimplMarker

    hookimpl = HookimplMarker("datasette")
else:
    from datasette import hookimpl

_local = threading.local()


class ReloadingDatabase(Database):  # type: ignore[misc]  # datasette is untyped
    """An immutable file database whose connections follow the file when it is replaced."""

    def _fresh(self) -> None:
        try:
            inode = os.stat(self.path).st_ino
        except OSError:
            return
        if getattr(self, "_inode", inode) != inode:
            self.cached_hash = self.cached_size = self._cached_table_counts = None
        self._inode = inode

    async def execute_fn(self, fn: Callable[[Any], Any]) -> Any:
        import asyncio

        self._fresh()
        inode = self._inode

        def in_thread() -> Any:
            held = getattr(_local, self.name, None)
            if held is None or held[0] != inode:
                if held is not None:
                    held[1].close()
                conn = self.connect()
                self.ds._prepare_connection(conn, self.name)
                held = (inode, conn)
                setattr(_local, self.name, held)
            return fn(held[1])

        return await asyncio.get_event_loop().run_in_executor(self.ds.executor, in_thread)


@hookimpl
def startup(datasette: Any) -> None:
    """Serve the immutable files (the mirror) as ``ReloadingDatabase``."""
    dbs = dict(datasette.databases)
    for name, db in datasette.databases.items():
        if db.path and not db.is_mutable and not db.is_memory and datasette.executor:
            new = ReloadingDatabase(datasette, path=db.path, is_mutable=False)
            new.name, new.route = db.name, db.route
            dbs[name] = new
    datasette.databases = dbs


PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh"
content="3"><title>ulcdb: preparing</title></head><body><h1>Not ready yet</h1>
<p class="ulcdb-preparing">{line}</p><p>This page needs what is still being prepared; it
reloads by itself.</p><p><a href="/">Home</a></p></body></html>"""


def _needs_more(status: int, body: bytes) -> bool:
    return status == 404 or b"no such table" in body


def preparing_wrapper(app: App) -> App:
    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        state = read_status()
        if scope["type"] != "http" or not state.get("preparing"):
            await app(scope, receive, send)
            return
        held: list[Message] = []

        async def hold(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                await send(message)
                return
            if not held and message["type"] == "http.response.body":
                await send(message)  # a page that worked
                return
            held.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                body = b"".join(m.get("body", b"") for m in held[1:])
                if _needs_more(held[0]["status"], body):
                    page = PAGE.format(line=html.escape(status_line(state))).encode()
                    held[:] = [{"type": "http.response.start", "status": 503, "headers": [
                        (b"content-type", b"text/html; charset=utf-8"),
                        (b"retry-after", b"3")]},
                        {"type": "http.response.body", "body": page}]
                for m in held:
                    await send(m)

        await app(scope, receive, hold)
    return wrapped


@hookimpl
def asgi_wrapper() -> Callable[[App], App]:
    return preparing_wrapper


@hookimpl
def extra_body_script() -> str:
    """The status line atop every page while the mirror is prepared."""
    state = read_status()
    if not state.get("preparing"):
        return ""
    line = json.dumps(f'<p class="ulcdb-preparing" style="background:#fff3cd;padding:4px">'
                      f'{html.escape(status_line(state))}</p>')
    return f"document.body.insertAdjacentHTML('afterbegin', {line});"


async def preparing_json() -> Response:
    return Response.json(read_status())


@hookimpl
def register_routes() -> list[tuple[str, Callable[[], Awaitable[Response]]]]:
    return [(r"^/-/preparing\.json$", preparing_json)]


@hookimpl
def canned_queries(datasette: Any, database: str) -> dict[str, Any]:
    """The canned queries expanded for the mirror as it is now."""
    db = datasette.databases.get(database)
    if not isinstance(db, ReloadingDatabase):
        return {}
    try:
        inode = os.stat(db.path).st_ino
    except OSError:
        return {}
    return _queries(db.path, inode)


@lru_cache(maxsize=4)
def _queries(path: str, inode: int) -> dict[str, Any]:
    """The canned queries of the mirror file ``path`` while it is the file ``inode``."""
    from ulcdb.serve.config import expand_pivot, load_queries

    return {q.name: {"sql": expand_pivot(q, Path(path)), "title": q.title,
                     "hide_sql": True, "description": q.description,
                     **({"params": list(q.params)} if q.params else {})}
            for q in load_queries()}
