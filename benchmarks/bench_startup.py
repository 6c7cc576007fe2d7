"""Benchmark: how fast the command line starts (issues 15, 28).  Goals: `ulcdb --help`,
`--version`, `CMD --help`, `list ...`, `info` and `sql` each under 0.4 s on a quiet machine,
and at most 3x the peer below in the same run (the ratio holds on a busy machine too).

Peer, measured in the same run: `python -c 'import duckdb'`, the least any command that reads
the store pays (so each ratio says what ulcdb adds to opening DuckDB).  Every command runs as a
fresh `python -m ulcdb` process of this checkout; the rounds are interleaved (one run of every
command per round) so that a busy machine slows them alike, and the best of N is kept.

Run: python benchmarks/bench_startup.py [-n 7] [--db STORE] [--all]
(without --db it ingests the sample test bed shipped with ulcdb into a temporary store;
--all adds `--help` of every command and group, and every `list` subcommand).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ulcdb.store.database import data_dir  # noqa: E402

GOAL = 0.4  # seconds
RATIO_GOAL = 3.0  # x the peer
PEER = "python -c 'import duckdb'"

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",),
    ("--version",),
    ("score", "--help"),
    ("compare", "--help"),
    ("meta", "--help"),
    ("export", "mtme", "--help"),
    ("list", "testbeds"),
    ("list", "sets"),
    ("list", "metrics", "BLEU*"),
    ("list", "metrics"),  # all 1,735, in plain columns (a rich table of them took 1 s to draw)
    ("list", "metrics", "-f", "csv"),
    ("info",),
    ("sql", "select count(*) from segment"),
)


def _env() -> dict[str, str]:
    """This checkout first on the path, whatever is installed; bytecode caches written and
    read as an installed package has them (PYTHONDONTWRITEBYTECODE set in a shell would have
    every run compile ulcdb's modules from source while duckdb's come compiled)."""
    path = os.environ.get("PYTHONPATH")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": f"{REPO}{os.pathsep}{path}" if path else str(REPO)}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def seconds(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU time (user + system) of one process running ``argv`` (which must
    succeed): the CPU time depends much less on what else the machine runs."""
    cpu, start = _child_cpu(), time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=_env())
    return time.perf_counter() - start, _child_cpu() - cpu


def sample_store(folder: Path) -> Path:
    """The sample test bed (no scores) in a fresh store: what `list`, `info`, `sql` read."""
    db = folder / "startup.duckdb"
    subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), "ingest", "testbed",
                    str(data_dir("sample") / "ULC.config"), "--name", "sample"],
                   check=True, stdout=subprocess.DEVNULL, env=_env())
    return db


def every_command() -> list[tuple[str, ...]]:
    """`--help` of every command and group, and every `list` subcommand (--all)."""
    import typer

    from ulcdb.cli.main import app

    out: list[tuple[str, ...]] = []

    def walk(cmd: object, path: tuple[str, ...]) -> None:
        if path:
            out.append((*path, "--help"))
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            walk(sub, (*path, name))
            if path == ("list",):
                out.append((*path, name))

    walk(typer.main.get_command(app), ())
    return out


def measure(db: Path, rounds: int, commands: Sequence[tuple[str, ...]]
            ) -> dict[str, tuple[float, float]]:
    """Best of ``rounds`` (wall, and CPU apart) for the peer and every command, rounds
    interleaved."""
    runs: dict[str, list[str]] = {PEER: [sys.executable, "-c", "import duckdb"]}
    for args in commands:
        runs["ulcdb " + " ".join(args)] = [sys.executable, "-m", "ulcdb", "--db", str(db),
                                           *args]
    best = dict.fromkeys(runs, (float("inf"), float("inf")))
    for _ in range(rounds):
        for name, argv in runs.items():
            wall, cpu = seconds(argv)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=7, help="Runs of each (best kept).")
    parser.add_argument("--db", type=Path, help="A store to read (default: the sample).")
    parser.add_argument("--all", action="store_true",
                        help="Also every command's --help and every list subcommand.")
    args = parser.parse_args()
    commands = list(dict.fromkeys([*COMMANDS, *(every_command() if args.all else [])]))
    with tempfile.TemporaryDirectory(prefix="ulcdb-startup-") as tmp:
        db = args.db or sample_store(Path(tmp))
        best = measure(db, args.rounds, commands)
    peer, peer_cpu = best.pop(PEER)
    print(f"best of {args.rounds}; peer {PEER}: {peer:.3f} s ({peer_cpu:.3f} s CPU); goals: "
          f"under {GOAL} s, at most {RATIO_GOAL}x the peer; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'command':<40} {'seconds':>8} {'x duckdb':>9} {'CPU s':>7} {'x CPU':>6}  goal")
    for name, (value, cpu) in best.items():
        print(f"{name:<40} {value:8.3f} {value / peer:9.2f} {cpu:7.3f} {cpu / peer_cpu:6.2f}  "
              f"{'met' if value < GOAL else 'NOT met'}, "
              f"{'met' if value / peer <= RATIO_GOAL else 'NOT met'}")
    met = sum(v < GOAL for v, _ in best.values())
    ratio_met = sum(v / peer <= RATIO_GOAL for v, _ in best.values())
    cpu_met = sum(c / peer_cpu <= RATIO_GOAL for _, c in best.values())
    print(f"{met} of {len(best)} commands start in under {GOAL} s; {ratio_met} of {len(best)} "
          f"within {RATIO_GOAL}x the peer ({cpu_met} in CPU time)")


if __name__ == "__main__":
    main()
