"""WMT score rows in memory (issue 30): a release repeats a few hundred names over millions of
rows, so the reader keeps names dictionary-encoded: a row read with names like WMT20's costs
48 bytes (121 with the names as plain strings)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from ulcdb.formats.wmt.metrics_task import read_wmt_raw

SYSTEMS = ("Online-B.1590", "OPPO.1535", "Tohoku-AIP-NTT.890", "Human-A.0", "eTranslation.737")


def test_a_row_read_costs_at_most_64_bytes(tmp_path: Path) -> None:
    path = tmp_path / "BLEURT-extended.seg.tsv"
    lines = [f"BLEURT-extended\tde-en\tnewstest2020\tnewstestB2020\t{system}\t"
             f"rt.com.{91842 + doc}\t{seg}\t0.{(doc * 31 + seg) % 1000:03d}417\n"
             for system in SYSTEMS for doc in range(100) for seg in range(1, 41)]
    path.write_text("".join(lines), encoding="utf-8")
    raw = read_wmt_raw([path])
    table = raw.table
    assert table.num_rows == len(lines) == 20000
    assert pa.types.is_dictionary(table.schema.field("system").type)
    assert table.column("system").to_pylist()[:1] == ["Online-B.1590"]
    assert table.column("doc_id").to_pylist()[-1] == "rt.com.91941"
    assert table.nbytes / table.num_rows <= 64
