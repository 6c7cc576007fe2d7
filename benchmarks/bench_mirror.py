"""Benchmark: the SQLite mirror `ulcdb serve` builds, on the full WMT21 en-de store with the
LEX suite scored (the 32 lexical metrics that score German, every level; 5.1M scores).
Goals: under 20 s and 300 MB.  It also prints the mirror's bytes and build time per stored
score (issue 30: the mirror keeps document and segment rows within budgets, so these fall as
a store grows).

Peer, measured in the same run: copying every row of the store's `scores` view into SQLite
(what the mirror did before it kept only what browsing shows), with the same copy routine;
the ratio says what keeping less saves.

Incremental case: the mirror of the store without one metric's scores (chrF deleted from a
copy), then rebuilt for the full store, as `ulcdb serve` does after `ulcdb score -m chrF`:
only the parts reading chrF are rewritten.  Time against the full build; the two mirrors
must hold the same rows per table.

Run: python benchmarks/bench_mirror.py [--shared ../shared] [--db ende-lex.duckdb]
(without --db, or with one that does not exist yet, it builds the store: ingest with
--tgt-lang de, MQM, `score -m LEX -G all`, about 3 minutes).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import build_store  # noqa: E402

from ulcdb.serve.mirror import build_mirror  # noqa: E402
from ulcdb.serve.mirror_copy import copy_into  # noqa: E402
from ulcdb.store.database import Store  # noqa: E402


def peer(db: Path, out: Path) -> float:
    """Every row of `scores` into SQLite, as the old mirror copied it."""
    start = time.perf_counter()
    with Store(db, read_only=True) as store:
        lite = sqlite3.connect(out)
        lite.execute("pragma journal_mode = off")
        lite.execute("pragma synchronous = off")
        copy_into(store.con, lite, "scores", "select * from scores")
        lite.commit()
        lite.close()
    return time.perf_counter() - start


ADDED = "chrF"


def incremental(db: Path, tmp: Path) -> tuple[float, float, int, int, dict[str, int]]:
    """(full build of the store without ADDED, incremental rebuild with it, parts rewritten,
    parts, rows per table)."""
    before = tmp / "before.duckdb"
    shutil.copy(db, before)
    subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(before), "delete", "scores",
                    "-m", ADDED, "--yes"], check=True, stdout=subprocess.DEVNULL)
    out = tmp / "incremental.sqlite"
    first = build_mirror(before, out)
    again = build_mirror(db, out)
    return first.seconds, again.seconds, again.rewritten, again.parts, again.tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2]
                        / "shared")
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if args.db is None and not tb.is_dir():
        print(f"skipped: no {tb}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "ende-lex.duckdb"
        if not db.exists():
            build_store(tb, db, "LEX", tgt_lang="de")
        cpu = time.process_time()
        report = build_mirror(db, Path(tmp) / "mirror.sqlite")
        cpu = time.process_time() - cpu
        size = report.path.stat().st_size / 1e6
        rows = sum(report.tables.values())
        with Store(db, read_only=True) as store:
            stored = int(store.scalar("select count(*) from stored_scores"))
        naive = peer(db, Path(tmp) / "peer.sqlite")
        naive_size = (Path(tmp) / "peer.sqlite").stat().st_size / 1e6
        before, again, rewritten, parts, tables = incremental(db, Path(tmp))
    print(f"mirror: {report.seconds:.1f} s, {size:.0f} MB, {rows} rows in "
          f"{len(report.tables)} tables (goals: < 20 s, < 300 MB); CPU time {cpu:.1f} s "
          "(every thread: what a loaded machine does not stretch)")
    print(f"per stored score ({stored / 1e6:.2f}M): {size * 1e6 / stored:.1f} bytes, "
          f"{report.seconds * 1e6 / stored:.2f} us; load average {os.getloadavg()[0]:.1f}")
    print(f"peer (every score row, no index, no analysis): {naive:.1f} s, {naive_size:.0f} MB")
    print(f"ratio mirror/peer: time {report.seconds / naive:.2f}, size {size / naive_size:.2f}")
    print(f"incremental: mirror without {ADDED} {before:.1f} s; rebuilt after adding {ADDED}: "
          f"{again:.1f} s, {rewritten} of {parts} parts rewritten; ratio to the full build "
          f"{again / report.seconds:.2f}; rows per table as the full build's: "
          f"{tables == report.tables}")


if __name__ == "__main__":
    main()
