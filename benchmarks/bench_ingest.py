"""Benchmark: ingest the full WMT21 en-de test bed (24 translators x 1002 segments + MQM).

Peer, measured in the same run: DuckDB loading the same test bed's long TSV
(segments_long.tsv: one row per segment and translator, with MQM) straight into a table,
i.e. the cost of the bytes alone with no checking.  Goal: ulcdb under 3 s.

Run: python benchmarks/bench_ingest.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb

from ulcdb.formats.plain import read_plain
from ulcdb.formats.wmt.mqm import read_wmt_mqm
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.store.database import Store

REFS = ("A", "C", "D")


def ulcdb_ingest(tb: Path, db: Path) -> float:
    start = time.perf_counter()
    refs = {f"ref-{r}": tb / "refs" / f"ref-{r}.de.txt" for r in REFS}
    systems = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
    data = read_plain("ende", tb / "source.en.txt", refs, systems, tb / "docs.tsv", "en", "de")
    with Store(db) as store:
        load_testbed(store, data)
        mqm = read_wmt_mqm(tb / "human" / "mqm_seg.tsv")
        load_assessments(store, "ende", mqm, tb / "human" / "mqm_seg.tsv", skip_unknown=True)
        n = store.scalar("select count(*) from translation")
    elapsed = time.perf_counter() - start
    print(f"ulcdb ingest: {n} translations + MQM in {elapsed:.2f} s")
    return elapsed


def duckdb_peer(tb: Path, db: Path) -> float:
    start = time.perf_counter()
    con = duckdb.connect(str(db))
    con.execute("create table long as select * from read_csv(?, delim='\t', header=true, "
                "quote='', escape='')", [str(tb / "segments_long.tsv")])
    n = con.execute("select count(*) from long").fetchone()[0]
    con.close()
    elapsed = time.perf_counter() - start
    print(f"peer (duckdb read_csv of segments_long.tsv): {n} rows in {elapsed:.2f} s")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir():
        raise SystemExit(f"test bed not found: {tb}")
    with tempfile.TemporaryDirectory() as tmp:
        ours = ulcdb_ingest(tb, Path(tmp) / "u.duckdb")
        peer = duckdb_peer(tb, Path(tmp) / "p.duckdb")
    print(f"ratio ulcdb/peer: {ours / peer:.2f}  (goal: ulcdb under 3 s: "
          f"{'met' if ours < 3 else 'NOT met'})")


if __name__ == "__main__":
    main()
