"""Benchmark: scoring the full WMT21 en-de test bed (20 systems, refs A/C/D, 1002 segments).

1. BLEU, chrF and TER for each system against each single reference and against all three,
   at segment and system level: through ulcdb (stored, both cores) and through plain
   sacrebleu calls (corpus_score + sentence_score per segment) in the same run, on the first
   --systems systems (default 4: sacrebleu's pure-Python TER takes about 15 s per system and
   reference set, so all 20 systems would take over half an hour; the ratio does not depend on
   the number of systems).  Goal: ratio ulcdb/sacrebleu <= 1.0.
2. The whole LEX suite with every pair QARLA needs (`ulcdb score -m LEX`), timed family by
   family, with the peak memory.  Goal: under 60 s on 2 cores.

Run: python benchmarks/bench_score.py [--shared ../shared] [--skip-lex]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from sacrebleu.metrics import BLEU, CHRF, TER

from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.metrics import registry
from ulcdb.scoring.scorer import Pair, Scorer, plan_pairs
from ulcdb.scoring.selection import resolve_metrics
from ulcdb.store.database import Store

REFS = ("ref-A", "ref-C", "ref-D")


def build_store(tb: Path, db: Path) -> Store:
    refs = {r: tb / "refs" / f"{r}.de.txt" for r in REFS}
    systems = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
    store = Store(db)
    load_testbed(store, read_plain("ende", tb / "source.en.txt", refs, systems,
                                   tb / "docs.tsv", "en", "de"))
    return store


def simple_pairs(systems: list[str]) -> list[Pair]:
    return [Pair(s, (r,)) for s in systems for r in REFS] + [Pair(s, REFS) for s in systems]


def sacrebleu_run(store: Store, systems: list[str]) -> float:
    texts = {n: [r[0] for r in store.query(
        "select text from translations where translator = ? order by seg_id", [n])]
        for n in [*systems, *REFS]}
    start = time.perf_counter()
    for metric in (BLEU(effective_order=True), CHRF(), TER()):
        for pair in simple_pairs(systems):
            hyps, refs = texts[pair.target], [texts[r] for r in pair.refs]
            metric.corpus_score(hyps, refs)
            for i, hyp in enumerate(hyps):
                metric.sentence_score(hyp, [r[i] for r in refs])
    return time.perf_counter() - start


def lex_suite(store: Store, systems: list[str]) -> None:
    """The LEX suite with every pair QARLA needs, one family at a time: its time, the total,
    and the peak memory of this process and its workers."""
    metrics = resolve_metrics(store, 1, "LEX")
    index = registry.metric_index()
    families: dict[str, list[str]] = {}
    for m in metrics:
        families.setdefault(index[m][0].name, []).append(m)
    pairs = plan_pairs(systems, list(REFS))
    total = 0.0
    for family, names in families.items():
        start = time.perf_counter()
        Scorer(store, "ende", jobs=2).run(names, pairs)
        took = time.perf_counter() - start
        total += took
        print(f"  {family:10s} {len(names):2d} metrics {took:7.1f} s", flush=True)
    n = store.scalar("select count(*) from seg_score")
    peak = max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    print(f"LEX suite: {len(metrics)} metrics, {len(pairs)} pairs, {n} segment scores "
          f"stored in {total:.0f} s (goal < 60 s on 2 cores); peak memory {peak:.0f} MB "
          f"(largest process); load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--skip-lex", action="store_true")
    parser.add_argument("--systems", type=int, default=4)
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir():
        raise SystemExit(f"test bed not found: {tb}")
    with tempfile.TemporaryDirectory() as tmp:
        store = build_store(tb, Path(tmp) / "b.duckdb")
        systems = list(store.translators(1, "system"))
        subset = systems[:args.systems]
        start = time.perf_counter()
        Scorer(store, "ende", jobs=2).run(["BLEU", "chrF", "1-TER"], simple_pairs(subset))
        ours = time.perf_counter() - start
        peer = sacrebleu_run(store, subset)
        print(f"BLEU+chrF+TER, {len(simple_pairs(subset))} pairs, seg+doc+sys, stored: "
              f"ulcdb {ours:.1f} s (2 processes); sacrebleu {peer:.1f} s (seg+sys only); "
              f"ratio {ours / peer:.2f} (goal <= 1.0)")
        if not args.skip_lex:
            lex_suite(store, systems)
        store.close()


if __name__ == "__main__":
    main()
