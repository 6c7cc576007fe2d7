"""The browser is read-only: Datasette answers every request that would write (POST, PUT,
PATCH, DELETE to its insert/upsert/delete/drop URLs or anywhere else) with 405, before any
handler runs, instead of an internal error."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # datasette ships no types: its hookimpl named as the pluggy marker it is
    from pluggy import HookimplMarker

    hookimpl = HookimplMarker("datasette")
else:
    from datasette import hookimpl

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# ASGI 3 as its specification defines it: the scope and the messages are dicts of plain values.
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def read_only(app: App) -> App:
    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in READ_METHODS:
            body = b"ulcdb serve is read-only: only GET and HEAD requests are answered\n"
            await send({"type": "http.response.start", "status": 405, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"allow", b"GET, HEAD, OPTIONS")]})
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)
    return guarded


@hookimpl
def asgi_wrapper() -> Callable[[App], App]:
    return read_only
