"""Benchmark: the DR family (DR and DR_doc) on the full WMT21 ru-en test bed (10 systems, refs
A and B, 1000 segments, 107 documents), annotation included, with every pair ULC and QARLA
need (each system against each reference and both, each reference against the other).

Timed in one run: spaCy annotation of the test bed (once, shared by every linguistic family),
then DR, DR_doc and, as the peer, SR (the shallow-semantic family reading the same
annotation), each scored and stored by ``Scorer``.  Printed: the times, the ratio of DR (and
DR_doc) to SR, and the total of annotation + DR + DR_doc against the issue's goal (under 3
minutes on 2 cores).

Run: python benchmarks/bench_dr.py [--jobs 2] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ulcdb.annotation.annotate import annotate_testbed
from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.metrics.base import Params
from ulcdb.scoring.scorer import Scorer, plan_pairs
from ulcdb.store.database import Store

SHARED = Path(os.environ.get("ULCDB_SHARED", Path(__file__).resolve().parents[2] / "shared"))
TB = SHARED / "testbeds" / "wmt21_newstest2021_ruen"
GOAL = 180.0


def build_store(path: Path, limit: int | None) -> Store:
    def cut(f: Path) -> Path:
        if limit is None:
            return f
        out = path.parent / f.name
        out.write_text("\n".join(f.read_text(encoding="utf-8").splitlines()[:limit]) + "\n",
                       encoding="utf-8")
        return out

    refs = {f.name.split(".")[0]: cut(f) for f in sorted((TB / "refs").glob("ref-*.en.txt"))}
    systems = {f.name.split(".")[0]: cut(f) for f in sorted((TB / "systems").glob("*.en.txt"))}
    docs = None if limit is not None else TB / "docs.tsv"
    store = Store(path)
    load_testbed(store, read_plain("ruen", cut(TB / "source.ru.txt"), refs, systems, docs,
                                   "ru", "en"))
    return store


def timed_score(store: Store, metrics: list[str], jobs: int) -> float:
    scorer = Scorer(store, "ruen", Params(lang="en"), jobs=jobs)
    systems = [r[0] for r in store.query(
        "select name from translator where role = 'system' order by name")]
    refs = [r[0] for r in store.query(
        "select name from translator where role = 'reference' order by name")]
    start = time.perf_counter()
    scorer.run(metrics, plan_pairs(systems, refs))
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="segments per file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        store = build_store(Path(d) / "bench.duckdb", args.limit)
        t0 = time.perf_counter()
        annotate_testbed(store, "ruen", jobs=args.jobs)
        annotation = time.perf_counter() - t0
        dr = timed_score(store, ["DR-STM-4"], args.jobs)
        drdoc = timed_score(store, ["DRdoc-STM-4"], args.jobs)
        sr = timed_score(store, ["SR-Or-*"], args.jobs)
        store.close()
    total = annotation + dr + drdoc
    cut = "" if args.limit is None else f", {args.limit} segments"
    print(f"WMT21 ru-en, {args.jobs} processes{cut}")
    print(f"spaCy annotation (shared): {annotation:7.2f} s")
    print(f"DR     (all metrics, all pairs): {dr:7.2f} s  ratio DR/SR     {dr / sr:5.2f}")
    print(f"DR_doc (all metrics, all pairs): {drdoc:7.2f} s  ratio DR_doc/SR {drdoc / sr:5.2f}")
    print(f"SR     (peer, same annotation):  {sr:7.2f} s")
    print(f"annotation + DR + DR_doc: {total:7.2f} s (goal {GOAL:.0f} s: "
          f"{'met' if total <= GOAL else 'NOT met'})")


if __name__ == "__main__":
    main()
