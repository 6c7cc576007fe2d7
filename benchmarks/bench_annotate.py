"""Annotation throughput: ulcdb's annotate_testbed (parse + derived layers + storage) against
plain ``nlp.pipe`` over the same distinct texts, same model, batch size and processes.

Run: python benchmarks/bench_annotate.py [--limit N] [--jobs 2]
Data: the English side of ../shared/testbeds/wmt21_newstest2021_ruen (systems and refs).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ulcdb.annotation import spacy_adapter
from ulcdb.annotation.annotate import annotate_testbed, testbed_texts
from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.store.database import Store

SHARED = Path(os.environ.get("ULCDB_SHARED", Path(__file__).resolve().parents[2] / "shared"))
TB = SHARED / "testbeds" / "wmt21_newstest2021_ruen"


def build_store(path: Path, limit: int | None) -> Store:
    tmp = path.parent
    def cut(f: Path) -> Path:
        out = tmp / f.name
        lines = f.read_text(encoding="utf-8").splitlines()[:limit]
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return out
    refs = {f.name.split(".")[0]: cut(f) for f in sorted((TB / "refs").glob("ref-*.en.txt"))}
    systems = {f.name.split(".")[0]: cut(f) for f in sorted((TB / "systems").glob("*.en.txt"))}
    store = Store(path)
    load_testbed(store, read_plain("ruen", cut(TB / "source.ru.txt"), refs, systems))
    return store


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=None, help="segments per file")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        store = build_store(Path(d) / "bench.duckdb", args.limit)
        texts = [t for t in testbed_texts(store, "ruen") if t.strip()]
        nlp = spacy_adapter.load()
        ntok = 0
        t0 = time.perf_counter()
        for doc in nlp.pipe(texts, batch_size=spacy_adapter.BATCH_SIZE, n_process=args.jobs):
            ntok += len(doc)
        plain = time.perf_counter() - t0
        t0 = time.perf_counter()
        report = annotate_testbed(store, "ruen", jobs=args.jobs)
        ours = time.perf_counter() - t0
        store.close()
    print(f"{len(texts)} distinct texts, {ntok} tokens, {args.jobs} processes")
    print(f"plain nlp.pipe:        {plain:7.2f} s  {len(texts) / plain:8.1f} texts/s")
    print(f"ulcdb annotate_testbed: {ours:7.2f} s  {report.annotated / ours:8.1f} texts/s "
          "(derived layers and storage included)")
    print(f"throughput ratio ulcdb / plain: {plain / ours:.2f}")


if __name__ == "__main__":
    main()
