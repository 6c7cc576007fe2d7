"""`ingest scores` shows progress on a terminal and is quiet when piped (issues 29 §3, 30):
the library tells its display the number of steps (files, then the loader's stages) and each
step as it ends; the CLI draws it with the scoring bar's widget."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ulcdb.interchange.importer import ScoreImport, import_scores
from ulcdb.interchange.load import STAGES
from ulcdb.store.database import Store

ROOT = Path(__file__).resolve().parents[2]


def _files(tmp_path: Path) -> tuple[Path, list[Path]]:
    details = tmp_path / "de-en.txt"
    details.write_text("1 t de-en d1 1\n2 t de-en d1 2\n3 t de-en d2 1\n", encoding="utf-8")
    seg = tmp_path / "M.seg.tsv"
    seg.write_text("".join(f"M\tde-en\tt\tref\t{s}\td{d}\t{k}\t0.{d}{k}\n"
                           for s in ("S1", "S2") for d, k in ((1, 1), (1, 2), (2, 1))),
                   encoding="utf-8")
    sys_file = tmp_path / "M.sys.tsv"
    sys_file.write_text("M\tde-en\tt\tref\tS1\t0.5\nM\tde-en\tt\tref\tS2\t0.25\n",
                        encoding="utf-8")
    return details, [seg, sys_file]


def test_progress_counts_files_then_stages(tmp_path: Path) -> None:
    details, files = _files(tmp_path)
    totals: list[int] = []
    seen: list[tuple[str, int]] = []

    @contextmanager
    def display(total: int) -> Iterator[Callable[[str, int], None]]:
        totals.append(total)
        yield lambda label, n: seen.append((label, n))

    with Store(tmp_path / "s.duckdb") as store:
        report = import_scores(store, ScoreImport(
            files, fmt="wmt", create_testbed=True, details=[details],
            refset_map={"ref": ("ref",)}, progress=display))
    assert report.stored == {"seg": 6, "doc": 0, "sys": 2}
    assert totals == [2 + len(STAGES)]
    assert seen == [("2 files", 2), *[(stage, 1) for stage in STAGES]]


def _ulcdb(db: Path, args: list[str], stderr: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "TERM": "xterm"}
    return subprocess.Popen([sys.executable, "-m", "ulcdb", "--db", str(db), "ingest",
                             "scores", *args], stdout=subprocess.PIPE, stderr=stderr, env=env)


def test_bar_on_a_terminal_nothing_when_piped(tmp_path: Path) -> None:
    details, files = _files(tmp_path)
    args = ["--format", "wmt", "--create-testbed", "--details", str(details),
            "--refset-map", "ref=ref", *map(str, files)]
    piped = _ulcdb(tmp_path / "a.duckdb", args, subprocess.PIPE)
    out, err = piped.communicate(timeout=120)
    assert piped.returncode == 0 and b"stored scores seg 6" in out
    assert err == b""
    master, slave = pty.openpty()
    proc = _ulcdb(tmp_path / "b.duckdb", args, slave)
    os.close(slave)
    drawn = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        drawn += chunk
    os.close(master)
    assert proc.wait(timeout=120) == 0
    assert b"importing" in drawn
