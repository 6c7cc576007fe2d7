"""`ulcdb serve`: browse the store in Datasette (read-only, through a SQLite mirror)."""

from __future__ import annotations

import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from ulcdb.cli.common import err_console, state
from ulcdb.errors import NotFound, UlcdbError
from ulcdb.outputs import writable_file


def _wait_ready(url: str, proc: subprocess.Popen[bytes], seconds: float = 30.0) -> bool:
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url + "-/versions.json", timeout=2):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def serve(
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.")] = 8001,
    host: Annotated[str, typer.Option(
        "--host", help="Address to bind; the default serves this machine only.")
    ] = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open", help="Open a browser on it.")] = False,
    refresh: Annotated[bool | None, typer.Option(
        "--refresh/--no-refresh",
        help="Rebuild the SQLite mirror whole first (default: rebuild what changed, when the "
             "store changed).")
    ] = None,
    mirror: Annotated[Path | None, typer.Option(
        "--mirror", help="Mirror file (default: next to the store, STORE.sqlite).")] = None,
    compare_time_limit: Annotated[float, typer.Option(
        "--compare-time-limit", min=0.1,
        help="Seconds one comparison on /-/compare may take (a longer one is stopped and "
             "the page says to narrow it or run `ulcdb compare`).")] = 20.0,
    compare_at_once: Annotated[int, typer.Option(
        "--compare-at-once", min=1,
        help="Comparisons /-/compare computes at the same time (the others wait).")] = 2,
) -> None:
    """Browse the store in Datasette: every table and analysis view, canned queries, plots.

    Datasette serves a SQLite mirror of the store, read-only: every table, every view, and
    ULC, QUEEN, KING and meta-evaluation materialised for the stored metric sets and criteria.
    When the store changed since the mirror was made, only the mirror's parts whose sources
    changed are rewritten (--refresh rewrites it whole); the DuckDB store itself is not
    locked while serving.  Ad-hoc SQL in the browser is SQLite's.  The comparison page's work
    is bounded: --compare-time-limit seconds each, --compare-at-once at a time, results reused
    for the same choices, stopped when the browser goes.

    Example: ulcdb --db wmt21.duckdb serve --port 8001 --open
    """
    from ulcdb.serve.bounded import Limits
    from ulcdb.serve.config import datasette_command, write_metadata
    from ulcdb.serve.mirror import build_mirror, mirror_is_fresh, mirror_path

    db = state.db
    if not db.exists():
        raise NotFound(f"no store at {db} (build one with `ulcdb demo` or `ulcdb ingest`)")
    _check_port(host, port)
    warning = host_warning(host, port)
    if warning:
        err_console.print(warning)
    out = writable_file(mirror or mirror_path(db))
    signal.signal(signal.SIGTERM, _terminate)  # also while building: the temp file goes
    if refresh or (refresh is None and not mirror_is_fresh(db, out)):
        with err_console.status("building the SQLite mirror") as status:
            report = build_mirror(db, out, progress=lambda step: status.update(
                f"building the SQLite mirror: {step}"), full=bool(refresh))
        err_console.print(f"mirror {out}: {len(report.tables)} tables, "
                          f"{sum(report.tables.values())} rows, "
                          f"{out.stat().st_size / 1e6:.0f} MB in {report.seconds:.1f} s "
                          f"({report.rewritten} of {report.parts} parts rewritten)")
        for what, why in report.skipped.items():
            err_console.print(f"  skipped {what}: {why}")
    with tempfile.TemporaryDirectory(prefix="ulcdb-serve-") as tmp:
        meta = write_metadata(out, Path(tmp) / "metadata.json",
                              Limits(compare_time_limit, compare_at_once))
        proc = subprocess.Popen(datasette_command(out, meta, host, port))
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        try:
            if _wait_ready(url, proc):
                typer.echo(f"serving {db} at {url}  (Ctrl-C stops)", err=True)
                if open_browser:
                    import webbrowser

                    webbrowser.open(url)
            code = proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    if code not in (0, -signal.SIGINT, -signal.SIGTERM, 130):
        raise UlcdbError(f"datasette stopped with exit status {code}")


LOOPBACK = ("localhost", "::1")


def host_warning(host: str, port: int) -> str | None:
    """What to say when --host makes the store reachable from other machines."""
    if host in LOOPBACK or host.startswith("127."):
        return None
    return (f"warning: --host {host} makes the store readable by anyone who can reach this "
            f"machine on port {port}")


def _check_port(host: str, port: int) -> None:
    """A port already in use is reported before the mirror is built."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UlcdbError(f"cannot serve on {host}:{port}: {exc.strerror} (choose another "
                             "--port, or stop what uses it)") from None


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM ends serve like Ctrl-C, so the child goes too."""
    raise KeyboardInterrupt


def register(app: typer.Typer) -> None:
    app.command()(serve)
