"""Benchmark: scoring the full WMT21 en-de test bed (20 systems, refs A/C/D, 1002 segments).

1. BLEU, chrF and TER, family by family, for each system against each single reference and
   against all three, at segment and system level: through ulcdb (stored, both cores) and
   through plain sacrebleu calls (corpus_score + sentence_score per segment) in the same run,
   on the first --systems systems (default 4: sacrebleu's pure-Python TER takes about 15 s per
   system and reference set, so all 20 systems would take over half an hour; the ratio does
   not depend on the number of systems).  Goal: ratio ulcdb/sacrebleu <= 1.0 for each.
2. The whole LEX suite with every pair QARLA needs (`ulcdb score -m LEX`) in one run: its
   wall time; per family the CPU time of its tasks in the workers and the driver's time
   writing its rows; the CPU time of this process and its workers (the time it would take on
   two idle cores is at least half of it, whatever else runs); the peak memory (resident set
   of this process plus its workers, sampled every 50 ms), and the load average it ran
   under, and the size of the store file it wrote.  Goal: under 60 s on 2 cores.

Run: python benchmarks/bench_score.py [--shared ../shared] [--skip-lex | --lex-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.metrics.base import Metric

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


# Each family and the sacrebleu metric it is compared with.
PEERS: dict[str, Metric] = {"BLEU": BLEU(effective_order=True), "chrF": CHRF(), "1-TER": TER()}


def sacrebleu_run(store: Store, systems: list[str], metric: Metric) -> float:
    texts = {n: [r[0] for r in store.query(
        "select text from translations where translator = ? order by seg_id", [n])]
        for n in [*systems, *REFS]}
    start = time.perf_counter()
    for pair in simple_pairs(systems):
        hyps, refs = texts[pair.target], [texts[r] for r in pair.refs]
        metric.corpus_score(hyps, refs)
        for i, hyp in enumerate(hyps):
            metric.sentence_score(hyp, [r[i] for r in refs])
    return time.perf_counter() - start


def _rss_mb(pid: int) -> float:
    """Resident set of ``pid`` (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(c) for c in fh.read().split()]
    except OSError:
        return []


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its workers that have ended."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


@contextmanager
def peak_memory() -> Iterator[list[float]]:
    """The largest resident set of this process plus its workers while the block runs
    (sampled every 50 ms; Linux /proc), in MB, as the one item of the yielded list."""
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        me = os.getpid()
        while not done.is_set():
            peak[0] = max(peak[0], _rss_mb(me) + sum(map(_rss_mb, _children(me))))
            done.wait(0.05)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        done.set()
        thread.join()


def lex_suite(store: Store, systems: list[str]) -> None:
    """The LEX suite with every pair QARLA needs in one run, as ``ulcdb score -m LEX`` does
    it (the workers go on with the next families while the driver writes one): the wall
    time, per family the CPU its tasks took in the workers and the driver's time writing
    its rows, the CPU time of this process and its workers, how busy the two cores were,
    the peak memory of this process and its workers."""
    metrics = resolve_metrics(store, 1, "LEX")
    index = registry.metric_index()
    families: dict[str, list[str]] = {}
    for m in metrics:
        families.setdefault(index[m][0].name, []).append(m)
    pairs = plan_pairs(systems, list(REFS))
    loads = [os.getloadavg()[0]]
    with peak_memory() as peak:
        start, used = time.perf_counter(), cpu_seconds()
        report = Scorer(store, "ende", jobs=2).run(metrics, pairs)  # workers end with the run
        took, used = time.perf_counter() - start, cpu_seconds() - used
    loads.append(os.getloadavg()[0])
    for family, names in families.items():
        print(f"  {family:10s} {len(names):2d} metrics  cpu {report.compute_cpu[family]:6.1f} s "
              f"(workers)  write {report.write_seconds[family]:5.1f} s (driver)", flush=True)
    n = store.scalar("select count(*) from seg_score")
    store.con.execute("checkpoint")
    size = store.path.stat().st_size / 1e6
    verdict = "met" if took < 60 else "NOT met"
    print(f"LEX suite: {len(metrics)} metrics, {len(pairs)} pairs, {n} segment scores "
          f"stored in {took:.1f} s (goal < 60 s on 2 cores: {verdict}); CPU time {used:.1f} s "
          f"(this process and its workers: {used / 2:.1f} s on 2 idle cores at best; the two "
          f"cores {100 * used / (2 * took):.0f}% busy with it); peak memory {peak[0]:.0f} MB "
          f"(this process and its workers); store file {size:.0f} MB; load average "
          f"{min(loads):.1f}-{max(loads):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--skip-lex", action="store_true")
    parser.add_argument("--lex-only", action="store_true", help="only the LEX suite")
    parser.add_argument("--systems", type=int, default=4)
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir():
        raise SystemExit(f"test bed not found: {tb}")
    with tempfile.TemporaryDirectory() as tmp:
        store = build_store(tb, Path(tmp) / "b.duckdb")
        systems = list(store.translators(1, "system"))
        subset = systems[:args.systems]
        peers = {} if args.lex_only else PEERS
        for name, metric in peers.items():
            start = time.perf_counter()
            Scorer(store, "ende", jobs=2).run([name], simple_pairs(subset))
            ours = time.perf_counter() - start
            peer = sacrebleu_run(store, subset, metric)
            print(f"{name}, {len(simple_pairs(subset))} pairs, seg+doc+sys, stored: "
                  f"ulcdb {ours:.1f} s (2 processes); sacrebleu {peer:.1f} s (seg+sys only); "
                  f"ratio {ours / peer:.2f} (goal <= 1.0); load {os.getloadavg()[0]:.1f}",
                  flush=True)
        store.close()
        if not args.skip_lex:  # a fresh store: the suite computes every pair
            with build_store(tb, Path(tmp) / "lex.duckdb") as lex:
                lex_suite(lex, systems)

if __name__ == "__main__":
    main()
