"""Benchmark: paired bootstrap resampling (1000 resamples) of the 20 WMT21 en-de systems
against a baseline for BLEU, chrF and TER, against reference A (1002 segments).

ulcdb: `ulcdb compare -b BASELINE -m BLEU,chrF,1-TER -r ref-A`, reusing the statistics the
store already holds (scored once before timing); peer, in the same run: sacrebleu 2.6.0's own
`sacrebleu REF -i SYSTEMS... -m bleu chrf ter --paired-bs` on the same files (which extracts
its statistics itself, TER's shift search in pure Python included).  Both as command lines.
Also checks that both print the same p-values.  Goal: ratio ulcdb/sacrebleu <= 1.0.

Run: python benchmarks/bench_compare.py [--shared ../shared] [--systems N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.scoring.scorer import Pair, Scorer
from ulcdb.store.database import Store

BASELINE = "Facebook-AI"


def build(tb: Path, db: Path, systems: dict[str, Path]) -> None:
    with Store(db) as store:
        load_testbed(store, read_plain("ende", tb / "source.en.txt",
                                       {"ref-A": tb / "refs" / "ref-A.de.txt"}, systems,
                                       tb / "docs.tsv", "en", "de"))
        Scorer(store, "ende", jobs=2).run(["BLEU", "chrF", "1-TER"],
                                          [Pair(s, ("ref-A",)) for s in systems])


def timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    return time.perf_counter() - start, out.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    ap.add_argument("--systems", type=int, default=20)
    args = ap.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    files = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
    names = [BASELINE] + [n for n in files if n != BASELINE][: args.systems - 1]
    systems = {n: files[n] for n in names}
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.duckdb"
        build(tb, db, systems)
        ours, out = timed([sys.executable, "-m", "ulcdb", "--db", str(db), "compare", "-b",
                           BASELINE, "-s", ",".join(names[1:]), "-m", "BLEU,chrF,1-TER",
                           "-r", "ref-A", "-f", "json"])
    peer, text = timed(["sacrebleu", str(tb / "refs" / "ref-A.de.txt"), "-i",
                        *map(str, systems.values()), "-m", "bleu", "chrf", "ter",
                        "--paired-bs", "-f", "text"])
    p_ours = sorted(round(r["p_value"], 4) for r in json.loads(out) if r["p_value"] is not None)
    p_peer = sorted(float(p) for p in re.findall(r"p = (\d\.\d+)", text))
    print(f"WMT21 en-de, {len(names)} systems ({BASELINE} the baseline), ref-A, 1000 resamples")
    print(f"ulcdb compare (stored statistics): {ours:7.2f} s")
    print(f"sacrebleu --paired-bs:             {peer:7.2f} s")
    print(f"ratio ulcdb/sacrebleu {ours / peer:5.2f} (goal <= 1.0); "
          f"p-values {'equal' if p_ours == p_peer else 'DIFFER'} ({len(p_ours)})")


if __name__ == "__main__":
    main()
