"""What a stored segment score costs on disk (issue 30: at most 16 bytes).

A WMT-format import of 160,000 segment scores (8 metrics x 10 systems x 2,000 segments, seeded
random values with 6 decimals, as metric submissions print them) and 8,000 document scores
into a store that already holds the test bed: the growth of the DuckDB file's used blocks
divided by the segment scores.  With a primary key on the score tables it was 23 bytes a
segment score (the index on the document table's text key alone costs about 100 bytes a
document score)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ulcdb.interchange.importer import ScoreImport, import_scores
from ulcdb.store.database import Store

SEGS, DOCS, SYSTEMS, METRICS = 2000, 100, 10, 8


def _files(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    per_doc = SEGS // DOCS
    details = tmp_path / "de-en.txt"
    details.write_text("".join(f"{i + 1} t de-en d{i // per_doc} {i % per_doc + 1}\n"
                               for i in range(SEGS)), encoding="utf-8")
    rng = np.random.default_rng(30)
    systems = [f"S{k}" for k in range(SYSTEMS)]
    sys_file = tmp_path / "M0.sys.tsv"
    sys_file.write_text("".join(f"M0\tde-en\tt\tref\t{s}\t0.5\n" for s in systems),
                        encoding="utf-8")
    seg, doc = [], []
    for m in range(1, METRICS + 1):
        for s in systems:
            values = rng.random(SEGS).round(6)
            seg += [f"M{m}\tde-en\tt\tref\t{s}\td{i // per_doc}\t{i % per_doc + 1}\t{v!r}\n"
                    for i, v in enumerate(values.tolist())]
            doc += [f"M{m}\tde-en\tt\tref\t{s}\td{d}\t{v!r}\n"
                    for d, v in enumerate(rng.random(DOCS).round(6).tolist())]
    seg_file, doc_file = tmp_path / "M.seg.tsv", tmp_path / "M.doc.tsv"
    seg_file.write_text("".join(seg), encoding="utf-8")
    doc_file.write_text("".join(doc), encoding="utf-8")
    return details, sys_file, seg_file, doc_file


def _used_bytes(store: Store) -> int:
    """Bytes of the file's blocks in use after a checkpoint (the file keeps freed blocks for
    reuse, so its length overstates what a write cost)."""
    store.con.execute("checkpoint")
    return int(store.scalar("select (total_blocks - free_blocks) * block_size "
                            "from pragma_database_size()"))


def test_segment_score_costs_at_most_16_bytes(tmp_path: Path) -> None:
    details, sys_file, seg_file, doc_file = _files(tmp_path)
    db = tmp_path / "s.duckdb"
    store = Store(db)
    import_scores(store, ScoreImport([sys_file], fmt="wmt", create_testbed=True,
                                     details=[details], refset_map={"ref": ("ref",)}))
    before = _used_bytes(store)
    report = import_scores(store, ScoreImport([seg_file, doc_file], fmt="wmt",
                                              refset_map={"ref": ("ref",)}))
    after = _used_bytes(store)
    store.close()
    seg_scores = SEGS * SYSTEMS * METRICS
    assert report.stored == {"seg": seg_scores, "doc": DOCS * SYSTEMS * METRICS, "sys": 0}
    assert (after - before) / seg_scores <= 16
