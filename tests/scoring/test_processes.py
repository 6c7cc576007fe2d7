"""Processes (issue 19): workers end with their parent, SIGTERM ends a command in one line
with nothing half-written, and commands with nothing to compute run beside another reader."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ulcdb.store.database import Store

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample" / "plain"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")


def ulcdb(db: Path, *args: object, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, **kw)


def start(db: Path, *args: object) -> subprocess.Popen:
    """``ulcdb`` running in the background, its numba kernels run as plain Python (numba's
    NUMBA_DISABLE_JIT): compiled, GTM scores the big test bed before a signal can reach it."""
    return subprocess.Popen([sys.executable, "-m", "ulcdb", "--db", str(db), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, start_new_session=True,
                            env={**os.environ, "NUMBA_DISABLE_JIT": "1"})


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaps counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def wait_for(test, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.1)
    return test()


@pytest.fixture()
def big(tmp_path: Path) -> Path:
    """A test bed long enough that scoring GTM takes a while over two workers."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(400)]
    files = {}
    for name in ("src", "ref", "s1", "s2", "s3", "s4"):
        lines = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(4000)]
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n")
    db = tmp_path / "big.duckdb"
    done = ulcdb(db, "ingest", "testbed", "--name", "big", "--source", files["src"],
                 "--tgt-lang", "en", "--ref", f"ref-A={files['ref']}",
                 *[a for s in ("s1", "s2", "s3", "s4") for a in ("--sys", f"{s}={files[s]}")])
    assert done.returncode == 0, done.stderr
    return db


def _workers(proc: subprocess.Popen) -> list[int]:
    found: list[int] = []
    assert wait_for(lambda: bool(found.extend(children(proc.pid)) or found), 120), \
        proc.stderr.read() if proc.poll() is not None else "no workers started"
    return found


def test_workers_end_when_the_parent_is_killed(big: Path) -> None:
    proc = start(big, "score", "-m", "GTM-3", "-j", "2")
    workers = _workers(proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert wait_for(lambda: not any(alive(w) for w in workers), 10), \
        f"workers {workers} outlived their parent"


def test_sigterm_ends_in_one_line_with_nothing_half_written(big: Path) -> None:
    proc = start(big, "score", "-m", "GTM-3", "-j", "2")
    workers = _workers(proc)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert err.strip().splitlines() == [err.strip()] and "terminated" in err
    assert wait_for(lambda: not any(alive(w) for w in workers), 10)
    with Store(big, read_only=True) as store:
        assert store.scalar("select count(*) from sys_score") == 0
        assert store.scalar("select count(*) from score_batch") == 0


def test_commands_with_nothing_to_compute_run_beside_a_reader(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    args = ["ingest", "testbed", "--name", "sample", "--source", SAMPLE / "source.es.txt",
            "--docs", SAMPLE / "docs.tsv"]
    args += [a for r in "ABC" for a in ("--ref", f"ref-{r}={SAMPLE / 'refs' / f'ref-{r}.en.txt'}")]
    args += [a for s in "ABCD"
             for a in ("--sys", f"sys{s}={SAMPLE / 'systems' / f'sys{s}.en.txt'}")]
    assert ulcdb(db, *args).returncode == 0
    assert ulcdb(db, "score", "-m", "BLEU,NIST", "-j", "1").returncode == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1], "
         "read_only=True); print('ready', flush=True); time.sleep(120)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        for command in (["score", "-m", "BLEU,NIST", "-j", "1"],
                        ["queen", "-m", "BLEU,NIST", "-j", "1"],
                        ["king", "-m", "BLEU,NIST", "-j", "1"],
                        ["list", "metrics"], ["info"], ["sql", "select 1"]):
            done = ulcdb(db, *command)
            assert done.returncode == 0, (command, done.stderr)
        refused = ulcdb(db, "score", "-m", "GTM-2", "-j", "1")  # needs to write
        assert refused.returncode == 1
        assert refused.stderr.count("\n") == 1 and "in use by another process" in refused.stderr
    finally:
        holder.kill()
        holder.wait()
