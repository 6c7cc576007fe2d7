"""`ulcdb serve` guards: writes answered 405 before Datasette runs a handler, a non-loopback
--host warned about, a busy port reported before the mirror is built."""

from __future__ import annotations

import asyncio
import socket

from cli_helpers import ulcdb
from conftest import REPO

from ulcdb.cli.serve import host_warning
from ulcdb.serve.readonly import read_only


def _call(method: str, path: str) -> tuple[int, list[str]]:
    called = []

    async def app(scope, receive, send):
        called.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"{}"}

    scope = {"type": "http", "method": method, "path": path}
    asyncio.run(read_only(app)(scope, receive, send))
    return sent[0]["status"], called


def test_writes_get_405_and_never_reach_datasette():
    for method, path in (("POST", "/db/scores/-/insert"), ("POST", "/db/scores/-/delete"),
                         ("POST", "/db/-/create"), ("PUT", "/db/scores"),
                         ("DELETE", "/db/scores/1")):
        assert _call(method, path) == (405, [])
    assert _call("GET", "/db/scores") == (200, ["/db/scores"])


def test_non_loopback_host_is_warned_about():
    assert host_warning("127.0.0.1", 8001) is None and host_warning("localhost", 1) is None
    assert "readable by anyone" in host_warning("0.0.0.0", 8001)
    assert "on port 9000" in host_warning("::", 9000)


def test_busy_port_is_reported_before_the_mirror(tmp_path):
    db = tmp_path / "s.duckdb"
    assert ulcdb(db, "ingest", "testbed", REPO / "sample" / "ULC.config").exit_code == 0
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = ulcdb(db, "serve", "--port", port)
    assert res.exit_code != 0 and f"cannot serve on 127.0.0.1:{port}" in res.output
    assert not db.with_suffix(".sqlite").exists()


def test_a_killed_build_leaves_no_temporary_mirror_behind(tmp_path) -> None:
    """A build killed mid-way (kill -9) leaves .NAME.PID.tmp; the next build removes the
    files of processes that are gone and keeps those of running ones."""
    import os
    import subprocess
    import sys

    from ulcdb.serve.mirror import remove_stale_temps

    out = tmp_path / "store.mirror.db"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".{out.name}.{dead}.tmp"
    live = tmp_path / f".{out.name}.{os.getpid()}.tmp"
    for path in (stale, live):
        path.write_bytes(b"partial")
    assert remove_stale_temps(out) == [stale]
    assert not stale.exists() and live.exists()
