"""Benchmark: the whole WMT20 metrics-task release into one fresh store.

ulcdb: `ingest_wmt20` (what `ulcdb ingest scores wmt20_metrics --format wmt20` runs): four
scores-only test beds, DA at three levels, outlier and human system sets, and every metric
file (about 2 million scores), all checked against the test beds, in one transaction.

Peer, measured in the same run: DuckDB's read_csv of the same metric and DA files straight
into raw tables of a fresh database file, i.e. the cost of the bytes with no checking.
Goal: ulcdb under 20 s on 2 cores.

Run: python benchmarks/bench_interchange.py [--shared ../shared] [--lp de-en ...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb

from ulcdb.formats.wmt.wmt20 import ingest_wmt20
from ulcdb.store.database import Store

GOAL_S = 20.0
TABLES = ("testbed", "document", "segment", "translator", "translation", "assessment",
          "named_set", "named_set_member", "metric", "refset", "refset_member", "score_batch",
          "seg_score", "doc_score", "sys_score")
RAW = "delim='\t', header=false, quote='', escape='', strict_mode=false, auto_detect=false"
KEYS = "'metric': 'varchar', 'lp': 'varchar', 'testset': 'varchar', 'refset': 'varchar', " \
       "'system': 'varchar'"
PEER_TABLES = {
    "raw_seg": f"metrics/seg/*.seg.tsv.gz', columns={{{KEYS}, 'doc_id': 'varchar', "
               f"'seg': 'integer', 'score': 'double'}}, {RAW}",
    "raw_doc": f"metrics/doc/*.doc.tsv.gz', columns={{{KEYS}, 'doc_id': 'varchar', "
               f"'score': 'double'}}, {RAW}",
    "raw_sys": f"metrics/sys/*.sys.tsv', columns={{{KEYS}, 'score': 'double'}}, {RAW}",
    "raw_da_seg": "human/da_seg.*.tsv', delim='\t', header=true",
    "raw_da_doc": "human/da_doc.*.tsv', delim='\t', header=true",
    "raw_da_sys": "human/da_sys.*.tsv', delim='\t', header=true",
}


def ulcdb_ingest(root: Path, db: Path, lps: list[str] | None) -> float:
    start = time.perf_counter()
    with Store(db) as store:
        report = ingest_wmt20(store, root, lps=lps)
    elapsed = time.perf_counter() - start
    print(f"ulcdb ingest of {root.name}: {elapsed:.2f} s")
    print(f"  {report.summary()}")
    with Store(db, read_only=True) as store:
        print("  rows per table: " + ", ".join(
            f"{t} {store.scalar(f'select count(*) from {t}')}" for t in TABLES))
    for name, counts in report.testbeds.items():
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return elapsed


def duckdb_peer(root: Path, db: Path) -> float:
    start = time.perf_counter()
    con = duckdb.connect(str(db))
    con.execute("set enable_progress_bar = false")
    counts = {}
    for table, args in PEER_TABLES.items():
        con.execute(f"create table {table} as select * from read_csv('{root}/{args})")
        counts[table] = con.execute(f"select count(*) from {table}").fetchone()[0]
    con.close()
    elapsed = time.perf_counter() - start
    print(f"peer (duckdb read_csv, raw tables, no checks): {elapsed:.2f} s")
    print("  " + ", ".join(f"{t} {n}" for t, n in counts.items()))
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--lp", action="append", help="only this language pair (repeat)")
    args = parser.parse_args()
    root = args.shared / "testbeds" / "wmt20_metrics"
    if not (root / "input_details").is_dir():
        raise SystemExit(f"WMT20 release not found: {root}")
    with tempfile.TemporaryDirectory() as tmp:
        ours = ulcdb_ingest(root, Path(tmp) / "ulcdb.duckdb", args.lp)
        peer = duckdb_peer(root, Path(tmp) / "peer.duckdb")
    verdict = "met" if ours < GOAL_S else "NOT met"
    print(f"ratio ulcdb/peer: {ours / peer:.2f}  (goal: ulcdb under {GOAL_S:.0f} s: {verdict})")


if __name__ == "__main__":
    main()
