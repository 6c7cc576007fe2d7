"""Benchmark: `ulcdb meta -G seg --bootstrap 1000` on the full WMT21 en-de test bed with MQM.

Setup (not timed): ingest WMT21 en-de (20 systems, 3 references, 1002 segments, MQM for 527
segments of 8 systems) as bench_ingest.py does, and score every system against the full
reference set with cheap built-in metrics (BLEU and chrF families: 10 metrics).
Timed: the in-process command `ulcdb meta -G seg -c MQM --bootstrap 1000` (every default
coefficient: Pearson, Spearman, Kendall tau-b and tau-c, DARR tau, accuracy; 95% and 99%
percentile intervals from 1000 resamples of segments, seed 1234), from store to printed table.
Peer, measured in the same run: scipy.stats computing Pearson, Spearman, Kendall tau-b and
tau-c on the same item vectors, once, without resampling.  Goal: ulcdb under 30 s (2 cores).

Run: python benchmarks/bench_meta.py [--shared ../shared] [--db kept.duckdb] [--resamples N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.stats
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.formats.plain import read_plain
from ulcdb.formats.wmt.mqm import read_wmt_mqm
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.meta import MetaTask, fetch_items
from ulcdb.metrics.base import Params
from ulcdb.scoring.scorer import Pair, Scorer
from ulcdb.store.database import Store

REFS = ("ref-A", "ref-C", "ref-D")
METRICS = ["BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3", "BLEUi-4", "chrF",
           "chrF++"]


def load_ende(store: Store, tb: Path) -> tuple[list[str], set[str]]:
    """Ingest WMT21 en-de (references A, C, D) with its MQM; the systems and those judged."""
    refs = {r: tb / "refs" / f"{r}.de.txt" for r in REFS}
    systems = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
    load_testbed(store, read_plain("ende", tb / "source.en.txt", refs, systems,
                                   tb / "docs.tsv", "en", "de"))
    mqm = read_wmt_mqm(tb / "human" / "mqm_seg.tsv")
    load_assessments(store, "ende", mqm, tb / "human" / "mqm_seg.tsv", skip_unknown=True)
    return list(systems), {a.translator for a in mqm} & set(systems)


def build(tb: Path, db: Path) -> None:
    """Ingest WMT21 en-de with MQM and score every system against the full reference set."""
    with Store(db) as store:
        if store.scalar("select count(*) from testbed where name = 'ende'"):
            return
        start = time.perf_counter()
        systems, _ = load_ende(store, tb)
        scorer = Scorer(store, "ende", Params(), jobs=2)
        report = scorer.run(METRICS, [Pair(s, REFS) for s in systems])
        print(f"setup (not timed): ingest + scoring in {time.perf_counter() - start:.1f} s; "
              f"{report.summary()}")


def ulcdb_meta(db: Path, level: str, resamples: int) -> tuple[float, str]:
    args = ["--db", str(db), "meta", "-t", "ende", "-G", level, "-c", "MQM",
            "--bootstrap", str(resamples)]
    start = time.perf_counter()
    result = CliRunner().invoke(app, args)
    elapsed = time.perf_counter() - start
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return elapsed, result.output


def scipy_peer(db: Path) -> tuple[float, int, int]:
    """scipy.stats on the same seg-level vectors (fetched before the clock starts)."""
    task = MetaTask("ende", "seg", "MQM", "+".join(REFS), n_resamples=0)
    with Store(db) as store:
        items, _ = fetch_items(store, task)
    vectors = [(it.human, it.score) for it in items.values()]
    start = time.perf_counter()
    for h, m in vectors:
        scipy.stats.pearsonr(h, m)
        scipy.stats.spearmanr(h, m)
        scipy.stats.kendalltau(h, m)
        scipy.stats.kendalltau(h, m, variant="c")
    return time.perf_counter() - start, len(vectors), int(np.mean([len(h) for h, _ in vectors]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--db", type=Path, help="store to build or reuse (default: temporary)")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--show", action="store_true", help="print the meta tables")
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir():
        raise SystemExit(f"test bed not found: {tb}")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "meta.duckdb"
        build(tb, db)
        ulcdb_meta(db, "sys", 0)  # warm-up: imports, schema, page cache
        ours, table = ulcdb_meta(db, "seg", args.resamples)
        if args.show:
            print(table)
        peer, n_metrics, n_items = scipy_peer(db)
        print(f"ulcdb meta -G seg --bootstrap {args.resamples}: {n_metrics} metrics x 6 "
              f"coefficients, ~{n_items} items each, in {ours:.2f} s")
        print(f"peer (scipy.stats pearson, spearman, kendall tau-b and tau-c, no resampling): "
              f"{peer:.3f} s")
        print(f"ratio ulcdb/peer: {ours / peer:.1f}  (goal: ulcdb under 30 s: "
              f"{'met' if ours < 30 else 'NOT met'})")
        for level in ("doc", "sys"):
            t, out = ulcdb_meta(db, level, args.resamples)
            if args.show:
                print(out)
            print(f"ulcdb meta -G {level} --bootstrap {args.resamples}: {t:.2f} s")


if __name__ == "__main__":
    main()
