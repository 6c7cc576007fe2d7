"""Every reader against the same malformed inputs: each gives one line naming the file, no
traceback, never hangs (a FIFO is refused before it is read), and leaves the store exactly as
it was.  Readers: test beds in every format, assessments in every format, annotations in
every format, scores in every format."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import dump, sample_store, ulcdb
from conftest import REPO

SAMPLE = REPO / "sample"
GOOD_SOURCE = SAMPLE / "plain" / "source.es.txt"

MALFORMED: dict[str, bytes | None] = {
    "invalid-utf8": b"a good line\n\xff\xfe not UTF-8\n",
    "nul-bytes": b"a line\n\x00\x00\x00\n",
    "cr-only": b"first\rsecond\rthird\r",
    "empty": b"",
    "deep-json": b"[" * 100_000 + b"]" * 100_000,
    "deep-xml": b"<a>" * 50_000 + b"</a>" * 50_000,
    "huge-line": b"x " * 2_000_000 + b"\n",
    "directory": None,
    "fifo": None,
}

Args = Callable[[Path], list[object]]
READERS: dict[str, Args] = {
    # test beds: the malformed file stands for one input of each format
    "testbed-plain": lambda p: ["ingest", "testbed", "--name", "bad", "--source", GOOD_SOURCE,
                                "--ref", f"r={GOOD_SOURCE}", "--sys", f"s={p}"],
    "testbed-plain-source": lambda p: ["ingest", "testbed", "--name", "bad", "--source", p,
                                       "--ref", f"r={GOOD_SOURCE}"],
    "testbed-sgml": lambda p: ["ingest", "testbed", "--format", "sgml", "--name", "bad",
                               "--source", p, "--ref", p, "--sys", p],
    "testbed-wmt": lambda p: ["ingest", "testbed", p, "--format", "wmt", "--name", "bad"],
    "testbed-long": lambda p: ["ingest", "testbed", p, "--format", "long", "--name", "bad"],
    "testbed-config": lambda p: ["ingest", "testbed", p, "--format", "config", "--name", "bad"],
    "testbed-mtme": lambda p: ["ingest", "testbed", p, "--format", "mtme", "--lp", "es-en",
                               "--name", "bad"],
    "assessments-nist": lambda p: ["ingest", "assessments", p, "--format", "nist",
                                   "-c", "adequacy", "-t", "sample"],
    "assessments-mtme": lambda p: ["ingest", "assessments", p, "--format", "mtme",
                                   "-c", "DA", "-t", "sample"],
    "assessments-table": lambda p: ["ingest", "assessments", p, "--format", "table",
                                    "-c", "DA", "-t", "sample", "--map", "system=system",
                                    "--map", "seg_id=seg_id", "--map", "score=score"],
    "assessments-mqm": lambda p: ["ingest", "assessments", p, "--format", "mqm", "-t", "sample"],
    **{f"annotations-{f}": lambda p, f=f: [
        "ingest", "annotations", p, "--format", f, "--translator", "sysA", "-t", "sample"]
       for f in ("conllu", "ptb", "conll05", "iob")},
    **{f"scores-{f}": lambda p, f=f: [
        "ingest", "scores", p, "--format", f, "-t", "sample", "--metric", "X",
        "--target", "sysA", "--ref", "ref-A", "--lp", "es-en"]
       for f in ("iqxml", "mtme", "wmt", "wmt20", "nist", "sacrebleu", "comet", "table",
                 "lines")},
}


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    return sample_store(tmp_path_factory.mktemp("bad") / "s.duckdb")


@pytest.fixture(scope="module")
def pristine(store: Path) -> dict[str, list]:
    """Every table of the store before any reader ran: each test must leave it so."""
    return dump(store)


def _malformed(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.input"
    content = MALFORMED[kind]
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(content)
    return path


def _alarm(*_: object) -> None:
    raise TimeoutError("the reader hung")


@pytest.mark.parametrize("kind", list(MALFORMED))
@pytest.mark.parametrize("reader", list(READERS))
def test_reader_refuses_malformed_input(store, pristine, tmp_path, reader, kind):
    path = _malformed(tmp_path, kind)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        res = ulcdb(store, *READERS[reader](path))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code != 0, res.output
    assert not isinstance(res.exception, TimeoutError | RecursionError | MemoryError)
    assert "Traceback" not in res.output
    assert len(lines) == 1, res.output
    assert path.name in lines[0], lines[0]
    assert dump(store) == pristine
