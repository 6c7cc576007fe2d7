"""Ray overhead: the linguistic suite (annotation, then SP, DP, CP, NE and SR at every level)
on the full WMT21 ru-en test bed, once on local processes and once on a local Ray cluster of
the same cores, in one run.  Goal: Ray time / local time <= 1.15 on one machine (Ray pays
for task shipping and result transfer; it wins once a cluster has more cores than one machine).

The steps alternate (local annotation, Ray annotation, local scoring, Ray scoring) so that a
change in the machine's load during the run weighs on both engines alike; the load average
is printed before and after.

With --scaling it times the Ray suite alone on local clusters of 1, 2, ... --jobs CPUs and
prints the speed-up over one CPU (without --address: a cluster's size is its own).

Run: python benchmarks/bench_ray.py [--jobs 2] [--limit N] [--address ADDR] [--scaling]
(the full test bed, 1000 segments x 12 translators, by default; --limit N: the first N)
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


def steps(jobs: int) -> list[list[str]]:
    return [["annotate", "-j", str(jobs)],
            ["score", "-m", METRICS, "-G", "all", "-j", str(jobs), "-f", "csv"]]


def same_scores(local: Path, ray: Path) -> bool:
    """Whether the two stores hold the same scores (values, keys, signatures)."""
    import duckdb

    sql = ("select m.name, t.name, r.name, s.variant, s.seg_id, s.value, b.signature "
           "from seg_score s join metric m using (metric_id) join translator t "
           "using (translator_id) join refset r using (refset_id) join score_batch b "
           "using (batch_id) order by all")
    rows = []
    for db in (local, ray):
        con = duckdb.connect(str(db), read_only=True)
        rows.append(con.execute(sql).fetchall())
        con.close()
    return len(rows[0]) > 0 and rows[0] == rows[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="first N segments only")
    parser.add_argument("--address", default=None, help="a Ray cluster to run on")
    parser.add_argument("--scaling", action="store_true",
                        help="Ray alone on 1..--jobs CPUs: the speed-up over one")
    args = parser.parse_args()
    if not TB.is_dir():
        print(f"skipped: no {TB}")
        return
    if args.scaling and args.address:
        parser.error("--scaling times local clusters; it takes no --address")
    ray = ["--engine", "ray", *(["--address", args.address] if args.address else [])]
    runs = ({f"ray x{j}": (ray, j) for j in range(1, args.jobs + 1)} if args.scaling else
            {"local": ([], args.jobs), "ray": (ray, args.jobs)})
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        dbs = {name: Path(tmp) / f"{name.replace(' ', '')}.duckdb" for name in runs}
        for db in dbs.values():
            ingest(db, Path(tmp), args.limit)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for i in range(2):  # annotation, then scoring
            for name, (engine, jobs) in runs.items():
                times[name].append(run(dbs[name], [*steps(jobs)[i], *engine]))
        first, last = list(dbs.values())[0], list(dbs.values())[-1]
        same = same_scores(first, last)
    segments = f"first {args.limit}" if args.limit else "all"
    now = os.getloadavg()
    print(f"WMT21 ru-en, {segments} segments; load average before {load[0]:.1f}/{load[1]:.1f}, "
          f"after {now[0]:.1f}/{now[1]:.1f} (1/5 min)")
    for name, (annotate, score) in times.items():
        print(f"{name:7}: annotate {annotate:6.1f} s, score {score:6.1f} s, "
              f"total {annotate + score:6.1f} s")
    totals = {name: sum(t) for name, t in times.items()}
    if args.scaling:
        one = totals["ray x1"]
        print("speed-up over one CPU: " + ", ".join(
            f"{name[5:]} CPUs {one / t:.2f}" for name, t in totals.items()) +
            f"; segment scores equal: {same}")
        return
    print(f"ratio ray/local: {totals['ray'] / totals['local']:.2f} (goal <= 1.15 on "
          f"{args.jobs} local cores); segment scores equal: {same}")


if __name__ == "__main__":
    main()
