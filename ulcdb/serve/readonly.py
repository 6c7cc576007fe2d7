"""The browser is read-only: Datasette answers every request that would write (POST, PUT,
PATCH, DELETE to its insert/upsert/delete/drop URLs or anywhere else) with 405, before any
handler runs, instead of an internal error."""

from __future__ import annotations

from datasette import hookimpl  # type: ignore[attr-defined]

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def read_only(app):
    async def guarded(scope, receive, send):
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
def asgi_wrapper():
    return read_only
