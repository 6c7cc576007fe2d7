"""The standing hostile suite (issue 31): what a hostile user throws at every reader and
command, grouped by class -- devices, sizes, numbers, refusals, concurrent writers -- each
case answered in one line without a traceback, the store unchanged (row count and content
hash of every table) when refused, and within a time bound.

The malformed files of every reader (bad encodings, shapes, FIFOs, folders) are in
test_bad_input.py, bad names in test_robustness*.py, kill -9 and SIGTERM in
test_processes.py, hostile names on the served pages in test_serve*.py and the bounded
comparison page in test_serve_bounded.py; this module adds the classes those leave out."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from cli_helpers import sample_store, ulcdb
from conftest import REPO
from serve_helpers import build_sample_store
from test_bad_input import READERS

from ulcdb.ingest import textio

SAMPLE = REPO / "sample"
BOUND = 20.0  # seconds any one case may take


def digest(path: Path) -> dict[str, tuple[int, str]]:
    """Each table's row count and a hash of its sorted rows."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() order by 1").fetchall()]
        out = {}
        for t in tables:
            rows = sorted(map(repr, con.execute(f'select * from "{t}"').fetchall()))
            out[t] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
        return out
    finally:
        con.close()


def _alarm(*_: object) -> None:
    raise TimeoutError(f"the case took more than {BOUND} s")


def _unblock(fifo: Path) -> None:
    """Open the FIFO for writing and close it: a reader blocked on it (in C, where SIGALRM
    cannot reach) reads end of file and the case fails on its time instead of hanging."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass  # no reader: nothing blocked


@contextmanager
def bounded(memory_gb: float = 3.0, fifo: Path | None = None) -> Iterator[None]:
    """At most BOUND seconds and ``memory_gb`` more address space for what runs inside (a
    reader that reads a device whole fails the test instead of the machine)."""
    watchdog = threading.Timer(BOUND, _unblock, (fifo,)) if fifo else None
    if watchdog:
        watchdog.start()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = size + int(memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(BOUND))
    try:
        yield
    finally:
        if watchdog:
            watchdog.cancel()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def refused(store: Path, *args: object, needles: tuple[str, ...] = (),
            fifo: Path | None = None) -> str:
    """Run ``ulcdb --db store ARGS``: exit 1, one line, no traceback, each needle in it, the
    store as it was, within the bound; returns the line."""
    before = digest(store)
    start = time.monotonic()
    with bounded(fifo=fifo):
        res = ulcdb(store, *args)
    took = time.monotonic() - start
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert not isinstance(res.exception, TimeoutError | MemoryError | RecursionError), (
        repr(res.exception))
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output and len(lines) == 1, res.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert digest(store) == before, "a refusal wrote to the store"
    assert took < BOUND
    return lines[0]


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample test bed, no scores."""
    return sample_store(tmp_path_factory.mktemp("hostile") / "bare.duckdb")


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample store as `ulcdb serve`'s tests build it: adequacy and 7 metrics."""
    return build_sample_store(tmp_path_factory.mktemp("hostile") / "scored.duckdb")


# -- devices: FIFOs, /dev/zero, also behind a symlink with a data file's name --------------

NEW_READERS: dict[str, Callable[[Path], list[object]]] = {
    "assessments-auto": lambda p: ["ingest", "assessments", p, "-c", "X", "-t", "sample"],
    "scores-table-map": lambda p: ["ingest", "scores", p, "-f", "table", "-t", "sample",
                                   "--map", "target=system", "--map", "value=score",
                                   "--metric", "X", "--ref", "ref-A"],
    "resource-lin": lambda p: ["ingest", "resource", "lin-thesaurus", p],
    "resource-verbocean": lambda p: ["ingest", "resource", "verbocean", p],
}
EVERY_READER = {**READERS, **NEW_READERS}


def _device(tmp: Path, kind: str, suffix: str) -> Path:
    path = tmp / f"{kind}{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("suffix", [".csv", ".json"])
@pytest.mark.parametrize("reader", list(NEW_READERS))
def test_a_fifo_is_refused_by_the_readers_that_hung(bare, tmp_path, monkeypatch, reader,
                                                    suffix):
    monkeypatch.setenv("ULCDB_RESOURCES", str(tmp_path / "resources"))
    path = _device(tmp_path, "fifo", suffix)
    refused(bare, *NEW_READERS[reader](path), needles=(path.name, "not a regular file"),
            fifo=path)
    assert not (tmp_path / "resources").exists()


@pytest.mark.parametrize("reader", list(EVERY_READER))
def test_dev_zero_behind_a_csv_name_is_refused_by_every_reader(bare, tmp_path, monkeypatch,
                                                                reader):
    monkeypatch.setenv("ULCDB_RESOURCES", str(tmp_path / "resources"))
    path = _device(tmp_path, "zero", ".csv")
    refused(bare, *EVERY_READER[reader](path), needles=(path.name,))


def test_dev_zero_itself_is_refused(bare):
    refused(bare, "ingest", "assessments", "/dev/zero", "-c", "X",
            needles=("/dev/zero: is not a regular file",))


# -- sizes ----------------------------------------------------------------------------------

def test_a_line_longer_than_the_bound_is_refused_naming_it(bare, tmp_path, monkeypatch):
    monkeypatch.setattr(textio, "MAX_LINE", 1000)
    path = tmp_path / "long.csv"
    path.write_text("sysA,1,1,0.5\nsysA,1,2," + "9" * 2000 + "\n")
    refused(bare, "ingest", "assessments", path, "-c", "adequacy",
            needles=(f"{path.name}:2: line longer than",))


def test_a_header_sniff_reads_no_further_than_the_bound(bare, tmp_path, monkeypatch):
    monkeypatch.setattr(textio, "MAX_LINE", 1000)
    path = tmp_path / "noline.tsv"
    path.write_bytes(b"x" * 5000)
    refused(bare, "ingest", "assessments", path, "-c", "adequacy",
            needles=(f"{path.name}:1: line longer than",))


def _peak_rss(*args: str) -> tuple[int, int]:
    """Peak resident MB of ``ulcdb ARGS`` in a fresh interpreter (stdout to a file) and the
    lines it wrote."""
    # VmHWM is this process image's own peak (ru_maxrss would carry the forking pytest's)
    code = ("import re, sys; from ulcdb.cli.main import app\n"
            "try:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n    code = e.code\n"
            "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())\n"
            "print(int(hwm.group(1)) // 1024, code, file=sys.stderr)")
    with open(os.devnull, "w") as sink, subprocess.Popen(
            [sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=REPO) as proc:
        lines = sum(1 for _ in proc.stdout)  # type: ignore[union-attr]
        err = proc.stderr.read().decode()  # type: ignore[union-attr]
        del sink
    rss, code = err.split()[-2:]
    assert code in ("0", "None"), err
    return int(rss), lines


def test_sql_streams_csv_in_batches(bare):
    """60 MB of rows: fetched whole (before) the peak was over 400 MB; in batches ~150."""
    query = "select range, repeat('x', 2000) as pad from range(30000)"
    rss, lines = _peak_rss("--db", str(bare), "sql", query, "-f", "csv")
    assert lines == 30001
    assert rss < 260, f"peak {rss} MB: the result was held whole"


def test_streamed_formats_equal_the_whole_result(bare):
    """csv, tsv and json of `ulcdb sql` written in batches read back as the rows."""
    import csv
    import io
    import json

    query = ("select range as n, 'a,\"b\"\tc' as s, null as z from range(25001) "
             "order by n")
    want = [(n, 'a,"b"\tc', None) for n in range(25001)]
    for fmt in ("csv", "tsv", "json"):
        res = ulcdb(bare, "sql", query, "-f", fmt)
        assert res.exit_code == 0, res.output[:200]
        if fmt == "json":
            got = [(r["n"], r["s"], r["z"]) for r in json.loads(res.stdout)]
        else:
            rows = list(csv.reader(io.StringIO(res.stdout),
                                   delimiter="," if fmt == "csv" else "\t"))
            assert rows[0] == ["n", "s", "z"]
            got = [(int(n), s, None if z == "" else z) for n, s, z in rows[1:]]
        assert got == want, fmt


# -- numbers a reader must not pass to the store --------------------------------------------

@pytest.mark.parametrize("fmt", ["nist", "table"])
def test_a_segment_id_past_32_bits_is_one_line(bare, tmp_path, fmt):
    path = tmp_path / "big.csv"
    if fmt == "nist":
        path.write_text("sysA,doc1,99999999999999999999,j1,0.5\n")
        args: tuple[str, ...] = ("-c", "adequacy")
    else:
        path.write_text("system,seg_id,score\nsysA,99999999999999999999,0.5\n")
        args = ("-c", "adequacy")
    line = refused(bare, "ingest", "assessments", path, *args)
    assert f"{path.name}:" in line and "99999999999999999999 is too large" in line


@pytest.mark.parametrize("score", ["1.2.3", "e"])
def test_a_lin_thesaurus_score_that_is_no_number(bare, tmp_path, monkeypatch, score):
    monkeypatch.setenv("ULCDB_RESOURCES", str(tmp_path / "resources"))
    path = tmp_path / "simN.lsp"
    path.write_text(f"(dog (desc 1.0)\ncat\t{score}\n))\n")
    refused(bare, "ingest", "resource", "lin-thesaurus", path,
            needles=(f"{path.name}:2: similarity {score!r} is not a number",))
    assert not (tmp_path / "resources").exists()


# -- refusals never write --------------------------------------------------------------------

REFUSALS = {
    "word-freq without -r": (["compare", "--analysis", "word-freq", "-s", "sysA,sysB"],
                             "one reference"),
    "category not scored": (["compare", "--analysis", "category", "-s", "sysA,sysB"],
                            "no stored per-category scores"),
    "unknown baseline": (["compare", "-b", "nobody", "-m", "1-TER"], "no system named"),
    "bad --where": (["compare", "-s", "sysA,sysB", "-m", "1-TER", "--where", "nope > 1"], ""),
    "bad --by": (["compare", "-s", "sysA,sysB", "-m", "1-TER", "--by", "nope"], ""),
    "unknown metric": (["score", "-m", "NoSuchMetric"], "NoSuchMetric"),
    "sql that writes": (["sql", "delete from metric"], ""),
    "delete unknown": (["delete", "system", "nobody", "--yes"], "nobody"),
    "meta unknown criterion": (["meta", "-c", "nothing", "-m", "1-TER"], ""),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refusal_never_writes(scored, tmp_path, case):
    store = tmp_path / "store.duckdb"  # each case on its own copy: none sees another's writes
    shutil.copyfile(scored, store)
    args, needle = REFUSALS[case]
    refused(store, *args, needles=(needle,) if needle else ())


# -- concurrent writers ----------------------------------------------------------------------

def test_the_store_in_use_names_the_ulcdb_command_holding_it(bare, tmp_path):
    """A process started as the `ulcdb` script (/proc/PID/cmdline: python .../ulcdb --db X
    score ...) holds the store; the refusal names that command, not the interpreter."""
    script = tmp_path / "bin" / "ulcdb"
    script.parent.mkdir()
    script.write_text("import sys, time, duckdb\nc = duckdb.connect(sys.argv[2])\n"
                      "print('ready', flush=True)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, str(script), "--db", str(bare), "score", "-m",
                             "BLEU"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"  # type: ignore[union-attr]
        res = ulcdb(bare, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c",
                    "adequacy")
        line = res.output.strip()
        assert res.exit_code == 1 and len(line.splitlines()) == 1, res.output
        assert f"(ulcdb --db {bare} score -m BLEU, PID {proc.pid})" in line, line
    finally:
        proc.kill()
        proc.wait()


# -- deleting gives the space back -----------------------------------------------------------

def test_delete_makes_the_store_smaller_and_says_what_it_freed(tmp_path):
    store = build_sample_store(tmp_path / "s.duckdb")
    before = store.stat().st_size
    res = ulcdb(store, "delete", "testbed", "sample", "--yes")
    assert res.exit_code == 0, res.output
    after = store.stat().st_size
    assert after < before, (before, after)
    freed = f"store file {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB"
    assert freed in res.output and "MB freed" in res.output
    counts = digest(store)
    assert counts["testbed"][0] == 0 and counts["seg_score"][0] == 0
    assert counts["metric"][0] > 0  # the catalogue stays
    res = ulcdb(store, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "again")
    assert res.exit_code == 0, res.output  # the compacted store takes new data
