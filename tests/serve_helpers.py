"""Shared by the serve tests: a scored sample store, a free port, a server started and stopped
by its PID."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from typer.testing import CliRunner

from ulcdb.cli.main import app

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample"
METRICS = "BLEU,NIST,chrF,GTM-1,GTM-2,1-PER,1-WER"


_BUILT: list[Path] = []  # the pristine scored sample store, built once per test process


def build_sample_store(path: Path) -> Path:
    """The bundled sample ingested with its adequacy judgments and scored by METRICS at every
    level, as ``path``: built once per test process, then copied (each caller gets its own
    file, so a test that changes its store changes only its copy)."""
    if not _BUILT:
        folder = Path(tempfile.mkdtemp(prefix="ulcdb-sample-"))
        atexit.register(shutil.rmtree, folder, True)
        _BUILT.append(_build(folder / "sample.duckdb"))
    shutil.copyfile(_BUILT[0], path)
    return path


def _build(path: Path) -> Path:
    runner = CliRunner()
    steps = [["ingest", "testbed", str(SAMPLE / "ULC.config"), "--name", "sample"],
             ["ingest", "assessments", str(SAMPLE / "human" / "adequacy.csv"), "-c",
              "adequacy"],
             ["score", "-m", METRICS, "-G", "all", "--jobs", "1", "-f", "csv"]]
    for step in steps:
        result = runner.invoke(app, ["--db", str(path), *step])
        if result.exit_code != 0:
            raise RuntimeError(f"{step}: {result.output}")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(db: Path, port: int, log: Path, timeout: float = 90.0,
                extra: tuple[str, ...] = (), prepared: bool = True) -> subprocess.Popen:
    """`ulcdb serve` (with ``extra`` options) in a subprocess; returns once /-/versions.json
    answers and (when ``prepared``) the mirror built in the background is complete."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from ulcdb.cli.main import app; app()", "--db", str(db),
         "serve", "--port", str(port), *extra],
        stdout=log.open("w"), stderr=subprocess.STDOUT, cwd=REPO,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"ulcdb serve exited: {log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/-/preparing.json"
                                        if prepared else
                                        f"http://127.0.0.1:{port}/-/versions.json",
                                        timeout=2) as resp:
                if not prepared or not json.loads(resp.read())["preparing"]:
                    return proc
                time.sleep(0.25)
        except OSError:
            time.sleep(0.25)
    stop(proc)
    raise RuntimeError(f"ulcdb serve not ready after {timeout} s: {log.read_text()}")


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM by PID, wait, SIGKILL as the fallback."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


# A system name that would break out of an inline <script> if a page did not escape it.
EVIL = 'sysD</script><script>document.title="pwned"</script>'


def serving_evil_sample(tmp: Path) -> Iterator[tuple[str, Path]]:
    """``ulcdb serve`` on the sample store with sysD renamed to EVIL: yields (base URL,
    store) and stops the server afterwards."""
    import duckdb

    store = build_sample_store(tmp / "sample.duckdb")
    con = duckdb.connect(str(store))
    con.execute("update translator set name = ? where name = 'sysD'", [EVIL])
    con.close()
    proc = start_serve(store, port := free_port(), tmp / "serve.log")
    try:
        yield f"http://127.0.0.1:{port}", store
    finally:
        stop(proc)
        assert proc.poll() is not None
