"""`ulcdb serve`: browse the store in Datasette (read-only, through a SQLite mirror)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ulcdb.cli.common import err_console, state
from ulcdb.cli.outputs import writable_file
from ulcdb.errors import NotFound, UlcdbError

if TYPE_CHECKING:  # the library is imported when the command runs, not for --help
    from ulcdb.serve.bounded import Limits


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


# The comparison page's options in a panel of their own: beside --refresh/--no-refresh, the
# 80-column help cut --compare-time-limit to '--compare-time-li…'.
COMPARE_PAGE = "The comparison page (/-/compare)"


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
        "--compare-time-limit", min=0.1, rich_help_panel=COMPARE_PAGE,
        help="Seconds one comparison on /-/compare may take (a longer one is stopped and "
             "the page says to narrow it or run `ulcdb compare`).")] = 20.0,
    compare_at_once: Annotated[int, typer.Option(
        "--compare-at-once", min=1, rich_help_panel=COMPARE_PAGE,
        help="Comparisons /-/compare computes at the same time (the others wait).")] = 2,
) -> None:
    """Browse the store in Datasette: every table and analysis view, canned queries, plots.

    Datasette serves a SQLite mirror of the store, read-only: every table, every view, and
    ULC, QUEEN, KING and meta-evaluation materialised for the stored metric sets and criteria.
    When the store changed since the mirror was made, only the mirror's parts whose sources
    changed are rewritten (--refresh rewrites it whole); the DuckDB store itself is not
    locked while serving.  Ad-hoc SQL in the browser is SQLite's.  The server answers at
    once: while the mirror is built in the background (tables first, then the analyses),
    pages say "preparing: N of M parts" and what is done can be browsed.  The comparison
    page's work is bounded: --compare-time-limit seconds each, --compare-at-once at a time,
    results reused for the same choices, stopped when the browser goes.

    Example: ulcdb --db wmt21.duckdb serve --port 8001 --open
    """
    from ulcdb.serve.bounded import Limits
    from ulcdb.serve.status import mirror_is_fresh, mirror_path

    db = state.db
    if not db.exists():
        raise NotFound(f"no store at {db} (build one with `ulcdb demo` or `ulcdb ingest`)")
    _check_port(host, port)
    warning = host_warning(host, port)
    if warning:
        err_console.print(warning)
    out = writable_file(mirror or mirror_path(db))
    signal.signal(signal.SIGTERM, _terminate)
    builder: list[threading.Thread] = []
    build = bool(refresh) or (refresh is None and not mirror_is_fresh(db, out))
    if build:
        from ulcdb.serve.background import begin

        begin(out)
        err_console.print(f"building the SQLite mirror {out} in the background")

    def started() -> None:  # once the server answers: the mirror is built behind it
        if build:
            builder.append(_build_in_background(db, out, bool(refresh)))

    try:
        code = _run_datasette(out, host, port, open_browser, db, started,
                              Limits(compare_time_limit, compare_at_once))
    finally:
        _clean_up(out, builder)
    if code not in (0, -signal.SIGINT, -signal.SIGTERM, 130):
        raise UlcdbError(f"datasette stopped with exit status {code}")


def _build_in_background(db: Path, out: Path, full: bool) -> threading.Thread:
    from ulcdb.serve.background import prepare
    from ulcdb.serve.mirror import MirrorReport

    def done(report: MirrorReport) -> None:
        err_console.print(f"mirror {out}: {len(report.tables)} tables, "
                          f"{sum(report.tables.values())} rows, "
                          f"{out.stat().st_size / 1e6:.0f} MB in {report.seconds:.1f} s "
                          f"({report.rewritten} of {report.parts} parts rewritten)")
        for what, why in report.skipped.items():
            err_console.print(f"  skipped {what}: {why}")

    def failed(exc: BaseException) -> None:
        err_console.print(f"error: the mirror could not be built: {exc}")

    return prepare(db, out, full, done, failed)


def _run_datasette(out: Path, host: str, port: int, open_browser: bool, db: Path,
                   started: Callable[[], None], limits: Limits) -> int:
    """Datasette on the mirror until it stops or Ctrl-C; its exit status."""
    from ulcdb.serve.background import status_path
    from ulcdb.serve.config import datasette_command, write_metadata
    from ulcdb.serve.status import STATUS_ENV

    with tempfile.TemporaryDirectory(prefix="ulcdb-serve-") as tmp:
        meta = write_metadata(out, Path(tmp) / "metadata.json", limits)
        proc = subprocess.Popen(datasette_command(out, meta, host, port),
                                env={**os.environ, STATUS_ENV: str(status_path(out))})
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        try:
            ready = _wait_ready(url, proc)
            started()  # after: the build would slow the server's start on two cores
            if ready:
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
    return code


def _clean_up(out: Path, builder: list[threading.Thread]) -> None:
    """The status file goes; a build still running leaves no temporary file behind (its
    thread dies with the process)."""
    from ulcdb.serve.background import status_path

    status_path(out).unlink(missing_ok=True)
    if any(b.is_alive() for b in builder):
        out.with_name(f".{out.name}.{os.getpid()}.tmp").unlink(missing_ok=True)


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
