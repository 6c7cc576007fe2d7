"""Benchmark: `ulcdb report` on the full WMT21 en-de test bed (20 systems, references A, C
and D, MQM), BLEU, chrF and 1-TER.

Prints the page's size (goal: under 5 MB) and the time headless Chromium needs until every
chart is drawn (the page's own ``data-ready-ms``, from navigation start; goal: under 2 s), as
a ratio against the same Chromium opening a page of the same tables without charts and
scripts (the peer, in the same run); and the time to build the report as a ratio against
`ulcdb compare -f json` of the same systems (its whole-set tests are part of the report).

Run: python benchmarks/bench_report.py [--shared ../shared] [--systems N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.scoring.scorer import Pair, Scorer
from ulcdb.store.database import Store

REFS = ("ref-A", "ref-C", "ref-D")
METRICS = "BLEU,chrF,1-TER"


def build(tb: Path, db: Path, n_systems: int) -> None:
    files = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
    systems = dict(list(files.items())[:n_systems])
    refs = {r: tb / "refs" / f"{r}.de.txt" for r in REFS}
    with Store(db) as store:
        load_testbed(store, read_plain("ende", tb / "source.en.txt", refs, systems,
                                       tb / "docs.tsv", "en", "de"))
        Scorer(store, "ende", jobs=2).run(METRICS.split(","),
                                          [Pair(s, REFS) for s in systems])
    ulcdb(db, "ingest", "assessments", str(tb / "human" / "mqm_seg.tsv"), "--skip-unknown")


def ulcdb(db: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), *args], check=True,
                   capture_output=True, text=True)
    return time.perf_counter() - start


def ready_ms(chromium: str, page: Path) -> float:
    out = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          "--no-first-run", "--disable-dev-shm-usage",
                          "--virtual-time-budget=60000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=300).stdout
    found = re.search(r'data-ready-ms="(\d+)"', out)
    return float(found.group(1)) if found else float("nan")


def wall_ms(chromium: str, page: Path) -> float:
    start = time.perf_counter()
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-dev-shm-usage", "--dump-dom", page.as_uri()],
                   capture_output=True, timeout=300)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    ap.add_argument("--systems", type=int, default=20)
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir() or chromium is None:
        sys.exit("needs ../shared's WMT21 en-de test bed and chromium")
    with tempfile.TemporaryDirectory() as d:
        db, page, plain = Path(d) / "ende.duckdb", Path(d) / "ende.html", Path(d) / "plain.html"
        build(tb, db, args.systems)
        t_compare = ulcdb(db, "compare", "-m", METRICS, "-f", "json")
        t_report = ulcdb(db, "report", str(page), "-m", METRICS, "-c", "MQM")
        text = page.read_text(encoding="utf-8")
        plain.write_text(re.sub(r"<script>.*?</script>", "", text, flags=re.S),
                         encoding="utf-8")
        size = page.stat().st_size / 1e6
        ready = min(ready_ms(chromium, page) for _ in range(3))
        wall = min(wall_ms(chromium, page) for _ in range(3))
        wall_plain = min(wall_ms(chromium, plain) for _ in range(3))
    print(f"systems {args.systems}, references {'+'.join(REFS)}, metrics {METRICS}")
    print(f"report built in {t_report:.1f} s; ulcdb compare -f json {t_compare:.1f} s; "
          f"ratio {t_report / t_compare:.2f}")
    print(f"size {size:.2f} MB (goal < 5)")
    print(f"charts drawn {ready / 1000:.2f} s after navigation (goal < 2); chromium wall "
          f"{wall / 1000:.2f} s vs {wall_plain / 1000:.2f} s without scripts, ratio "
          f"{wall / wall_plain:.2f}")


if __name__ == "__main__":
    main()
