"""Ray overhead: the linguistic suite (annotation, then SP, DP, CP, NE and SR at every level)
on the full WMT21 ru-en test bed, once on local processes and once on a local Ray cluster of
the same cores, in one run.  Goal: Ray time / local time <= 1.15 on one machine (Ray pays
for task shipping and result transfer; it wins once a cluster has more cores than one machine).

Run: python benchmarks/bench_ray.py [--jobs 2] [--limit N] [--address ADDR]
With --address the Ray run joins that cluster (``ray start --head`` on the head node,
``ray start --address HEAD:6379`` on each worker node, every node with ulcdb and its spaCy
model installed) and the ratio shows the speed-up the cluster gives over this machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(os.environ.get("ULCDB_SHARED", Path(__file__).resolve().parents[2] / "shared"))
TB = SHARED / "testbeds" / "wmt21_newstest2021_ruen"
METRICS = "SP,DP,CP,NE,SR"


def _cut(src: Path, out: Path, limit: int | None) -> Path:
    lines = src.read_text(encoding="utf-8").splitlines()[:limit]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def ingest(db: Path, tmp: Path, limit: int | None) -> None:
    args = ["--source", str(_cut(TB / "source.ru.txt", tmp / "source.ru.txt", limit))]
    for kind, folder, pattern in (("--ref", "refs", "ref-*.en.txt"),
                                  ("--sys", "systems", "*.en.txt")):
        for f in sorted((TB / folder).glob(pattern)):
            args += [kind, f"{f.name.split('.')[0]}={_cut(f, tmp / f.name, limit)}"]
    run(db, ["ingest", "testbed", "--name", "ruen", "--src-lang", "ru", "--tgt-lang", "en",
             *args])


def run(db: Path, args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def suite(db: Path, jobs: int, engine: list[str]) -> tuple[float, float]:
    annotate = run(db, ["annotate", "-j", str(jobs), *engine])
    score = run(db, ["score", "-m", METRICS, "-G", "all", "-j", str(jobs), "-f", "csv",
                     *engine])
    return annotate, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="first N segments only")
    parser.add_argument("--address", default=None, help="a Ray cluster to run on")
    args = parser.parse_args()
    if not TB.is_dir():
        print(f"skipped: no {TB}")
        return
    ray = ["--engine", "ray", *(["--address", args.address] if args.address else [])]
    with tempfile.TemporaryDirectory() as tmp:
        times = {}
        for name, engine in (("local", []), ("ray", ray)):
            db = Path(tmp) / f"{name}.duckdb"
            ingest(db, Path(tmp), args.limit)
            times[name] = suite(db, args.jobs, engine)
    for name, (annotate, score) in times.items():
        print(f"{name:5}: annotate {annotate:6.1f} s, score {score:6.1f} s, "
              f"total {annotate + score:6.1f} s")
    local, on_ray = sum(times["local"]), sum(times["ray"])
    print(f"ratio ray/local: {on_ray / local:.2f} (goal <= 1.15 on {args.jobs} local cores)")


if __name__ == "__main__":
    main()
