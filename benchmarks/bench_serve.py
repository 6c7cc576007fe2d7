"""Benchmark: `ulcdb serve` over the full WMT21 en-de store; every main page and every canned
query (with parameters) fetched N times.  Goal: every page under 1 s on 2 cores.

Peer, measured in the same run: the same canned-query SQL run directly in sqlite3 on the
mirror (so page time / peer time is what Datasette adds: HTML, facets, counts).

Time to first answer (--first-answer, on a copy of --db without its mirror): `ulcdb serve`
from a cold start until /-/versions.json answers (goal: under 5 s; the mirror is built
behind the server) and until the mirror is complete, against peers in the same run:
`datasette serve -i` on the finished mirror and `python -c "import duckdb"`.

Run: python benchmarks/bench_serve.py [--shared ../shared] [--db wmt21.duckdb] [-n 5]
     [--first-answer]
(without --db it builds the store: ingest, MQM, BLEU, chrF, GTM-1..3 at every level).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from serve_helpers import free_port, start_serve, stop  # noqa: E402

from ulcdb.serve.config import expand_pivot, load_queries  # noqa: E402
from ulcdb.serve.mirror import build_mirror, mirror_is_fresh, mirror_path  # noqa: E402

METRICS = "BLEU,chrF,GTM-1,GTM-2,GTM-3"
FULL = "ref-A+ref-C+ref-D"
QUERY_PARAMS = {
    "system_ranking": {"metric_set": "all", "refset": FULL},
    "segment_analysis": {"seg_id": "500", "metric": "chrF", "refset": FULL},
    "score_matrix": {"refset": "ref-A"},
    "metric_human_correlation": {"criterion": "MQM", "level": "seg", "refset": FULL},
    "king_per_metric": {"metric_set": "all", "level": "sys"},
    "metric_human_disagreement": {"metric": "BLEU", "criterion": "MQM", "refset": "ref-A"},
    "documents_ranked": {"metric": "chrF", "refset": FULL},
}


def build_store(tb: Path, db: Path, metrics: str = METRICS, tgt_lang: str | None = None
                ) -> None:
    ulcdb = [sys.executable, "-c", "from ulcdb.cli.main import app; app()", "--db", str(db)]
    refs = [a for r in ("A", "C", "D") for a in ("--ref", f"ref-{r}={tb}/refs/ref-{r}.de.txt")]
    systems = [a for p in sorted((tb / "systems").glob("*.de.txt"))
               for a in ("--sys", f"{p.name.split('.')[0]}={p}")]
    for step in (["ingest", "testbed", "--name", "ende", "--source", str(tb / "source.en.txt"),
                  "--docs", str(tb / "docs.tsv"), *refs, *systems,
                  *(["--tgt-lang", tgt_lang] if tgt_lang else [])],
                 ["ingest", "assessments", str(tb / "human" / "mqm_seg.tsv"), "--skip-unknown"],
                 ["score", "-m", metrics, "-G", "all", "--jobs", "2", "-f", "csv"]):
        subprocess.run(ulcdb + step, check=True, stdout=subprocess.DEVNULL)


def pages(db: str) -> dict[str, tuple[str, str | None, dict]]:
    """name -> (url path, canned query name or None, params)."""
    out: dict[str, tuple[str, str | None, dict]] = {
        "home": ("/", None, {}),
        "database": (f"/{db}", None, {}),
        "table scores (level, metric facets)": (f"/{db}/scores", None, {}),
        "table scores, all 5 facets": (f"/{db}/scores?_facet=testbed&_facet=translator"
                                       "&_facet=refset", None, {}),
        "table scores seg, 5 facets": (f"/{db}/scores?_facet=testbed&_facet=translator"
                                       "&_facet=refset&level=seg&metric=chrF", None, {}),
        "table scores sys filtered": (f"/{db}/scores", None, {"level": "sys", "refset": FULL}),
        "table translations": (f"/{db}/translations", None, {}),
        "table ulc": (f"/{db}/ulc", None, {"level": "sys"}),
        "table queen": (f"/{db}/queen", None, {}),
        "table meta_corr": (f"/{db}/meta_corr", None, {"criterion": "MQM"}),
        "plot system-scores": ("/-/plots/system-scores", None, {"metric": "chrF"}),
        "plot metric-human seg": ("/-/plots/metric-human",
                                  None, {"metric": "chrF", "level": "seg", "refset": FULL}),
        "plot metric-correlation seg": ("/-/plots/metric-correlation", None,
                                        {"level": "seg", "refset": FULL}),
        "ad-hoc sql": (f"/{db}", None, {"sql": "select metric, translator, value from scores "
                                               "where level = 'sys' and refset = "
                                               f"'{FULL}' order by value desc"}),
    }
    for q, params in QUERY_PARAMS.items():
        out[f"query {q}"] = (f"/{db}/{q}", q, {k: v for k, v in params.items()})
    return out


def fetch(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as resp:
        resp.read()
        if resp.status != 200:
            raise RuntimeError(f"{url}: {resp.status}")
    return time.perf_counter() - start


def peer_time(mirror: Path, name: str | None, params: dict, n: int) -> float | None:
    if name is None:
        return None
    query = next(q for q in load_queries() if q.name == name)
    sql = expand_pivot(query, mirror)
    args = {p: params.get(p, "") for p in query.params}
    con = sqlite3.connect(f"file:{mirror}?mode=ro", uri=True)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        con.execute(sql, args).fetchall()
        times.append(time.perf_counter() - start)
    con.close()
    return statistics.median(times)


def _answers(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return str(resp.read().decode("utf-8"))
    except OSError:
        return None


def _until_answer(cmd: list[str], port: int, complete: bool = False
                  ) -> tuple[float, float | None]:
    """Seconds from start until /-/versions.json answers (and until the mirror is complete)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        while _answers(base + "/-/versions.json") is None:
            if proc.poll() is not None:
                raise RuntimeError(f"{cmd[:4]} exited with {proc.returncode}")
            time.sleep(0.05)
        first = time.perf_counter() - start
        done = None
        while complete:
            status = _answers(base + "/-/preparing.json")
            if status and not json.loads(status)["preparing"]:
                done = time.perf_counter() - start
                break
            time.sleep(0.1)
        return first, done
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def first_answer(db: Path, tmp: Path) -> None:
    """`ulcdb serve` from a cold start against datasette on the finished mirror."""
    cold = tmp / "cold.duckdb"
    shutil.copy(db, cold)
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    first, done = _until_answer([sys.executable, "-m", "ulcdb", "--db", str(cold), "serve",
                                 "--port", str(port := free_port())], port, complete=True)
    peer, _ = _until_answer([sys.executable, "-m", "datasette", "serve", "-i",
                             str(mirror_path(cold)), "--port", str(port := free_port())], port)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import duckdb"], check=True)
    duck = time.perf_counter() - start
    print(f"load average {' '.join(load)}; store {db.name}")
    print(f"ulcdb serve, cold: first answer {first:.1f} s (goal < 5 s: "
          f"{'met' if first < 5 else 'NOT met'}), mirror complete {done:.1f} s")
    print(f"peer datasette -i on the finished mirror: first answer {peer:.1f} s; "
          f"ratio {first / peer:.2f}")
    print(f"peer python -c 'import duckdb': {duck:.2f} s; ratio {first / duck:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--db", type=Path, help="an existing WMT21 en-de store")
    parser.add_argument("-n", type=int, default=5, help="fetches per page")
    parser.add_argument("--first-answer", action="store_true",
                        help="only time `ulcdb serve` from a cold start on a copy of --db")
    args = parser.parse_args()
    if args.first_answer:
        if args.db is None:
            raise SystemExit("--first-answer needs --db")
        with tempfile.TemporaryDirectory() as tmp:
            first_answer(args.db, Path(tmp))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
            if not tb.is_dir():
                raise SystemExit(f"test bed not found: {tb}")
            db = Path(tmp) / "wmt21.duckdb"
            start = time.perf_counter()
            build_store(tb, db)
            print(f"store built in {time.perf_counter() - start:.1f} s")
        if mirror_is_fresh(db):
            print(f"mirror {mirror_path(db)} is fresh: not rebuilt")
        else:
            report = build_mirror(db)
            print(f"mirror {mirror_path(db)}: {sum(report.tables.values())} rows, "
                  f"{mirror_path(db).stat().st_size / 1e6:.0f} MB in {report.seconds:.1f} s")
        port = free_port()
        start = time.perf_counter()
        proc = start_serve(db, port, Path(tmp) / "serve.log")
        print(f"serve ready in {time.perf_counter() - start:.1f} s (mirror fresh, not rebuilt)")
        base = f"http://127.0.0.1:{port}"
        worst = 0.0
        try:
            print(f"{'page':36} {'median s':>9} {'max s':>7} {'sqlite3 s':>9} {'ratio':>6}")
            for name, (path, query, params) in pages(mirror_path(db).stem).items():
                sep = "&" if "?" in path else "?"
                url = base + path + (sep + urllib.parse.urlencode(params) if params else "")
                fetch(url)  # warm
                times = [fetch(url) for _ in range(args.n)]
                peer = peer_time(mirror_path(db), query, params, args.n)
                med, top = statistics.median(times), max(times)
                worst = max(worst, top)
                ratio = f"{med / peer:6.1f}" if peer else "     -"
                peer_s = f"{peer:9.3f}" if peer is not None else "        -"
                print(f"{name:36} {med:9.3f} {top:7.3f} {peer_s} {ratio}")
        finally:
            stop(proc)
    print(f"slowest page {worst:.3f} s: goal (every page under 1 s) "
          f"{'met' if worst < 1 else 'NOT met'}")


if __name__ == "__main__":
    main()
