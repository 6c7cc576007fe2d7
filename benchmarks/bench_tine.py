"""Benchmark: TINE (TINE, TINE-B, TINE-L, TINE-A) on the full WMT21 ru-en test bed (10
systems, references A and B, 1000 segments), the annotation already stored, with every pair
ULC and QARLA need.  Goal: under 2 minutes on 2 cores.

Peer, measured in the same run: SR (the shallow-semantic family reading the same semantic
roles); the ratio says what VerbNet alignment and the thesaurus expansion cost on top.

Run: ULCDB_VERBNET=../shared/resources/verbnet3.zip python benchmarks/bench_tine.py
     [--jobs 2] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_dr import SHARED, build_store, timed_score  # noqa: E402

from ulcdb.annotation.annotate import annotate_testbed  # noqa: E402

GOAL = 120.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="segments per file")
    args = ap.parse_args()
    os.environ.setdefault("ULCDB_VERBNET", str(SHARED / "resources" / "verbnet3.zip"))
    with tempfile.TemporaryDirectory() as d:
        store = build_store(Path(d) / "bench.duckdb", args.limit)
        annotate_testbed(store, "ruen", jobs=args.jobs)  # stored first, as the goal says
        tine = timed_score(store, ["TINE"], args.jobs)
        sr = timed_score(store, ["SR-Or-*"], args.jobs)
        store.close()
    cut = "" if args.limit is None else f", {args.limit} segments"
    print(f"WMT21 ru-en, {args.jobs} processes{cut}, annotation stored")
    print(f"TINE (4 metrics, all pairs): {tine:7.2f} s  ratio TINE/SR {tine / sr:5.2f}")
    print(f"SR   (peer, same roles):     {sr:7.2f} s")
    print(f"goal {GOAL:.0f} s: {'met' if tine <= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
