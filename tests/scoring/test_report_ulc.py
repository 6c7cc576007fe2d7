"""ULC as `ulcdb score` shows it (``scoring.report.ulc_values``) against a computation in
Python from the stored metric scores: 'raw' is the mean of the metrics' values, 'asiya'
divides each by the systems' maximum (every score here is >= 0), 'seg-mean' averages a
system's segment ULC."""

from __future__ import annotations

from pathlib import Path
from statistics import mean

import pytest

import ulcdb
from ulcdb.metrics.base import Params
from ulcdb.scoring.report import score_matrix, ulc_values
from ulcdb.scoring.scorer import variant_of

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
SYSTEMS = ["sysA", "sysB", "sysC", "sysD"]
REFS = ("ref-A", "ref-B", "ref-C")
METRICS = ["BLEU", "chrF"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> ulcdb.api.Database:
    database = ulcdb.open(tmp_path_factory.mktemp("ulc") / "ulc.duckdb")
    database.ingest_testbed(
        name="sample", source=PLAIN / "source.es.txt", docs=PLAIN / "docs.tsv",
        refs={r: PLAIN / "refs" / f"{r}.en.txt" for r in REFS},
        systems={s: PLAIN / "systems" / f"{s}.en.txt" for s in SYSTEMS},
        src_lang="es", tgt_lang="en")
    database.score(",".join(METRICS), level="sys")
    yield database
    database.close()


def _values(db: ulcdb.api.Database, level: str) -> dict[tuple[str, str], list[float]]:
    matrix = score_matrix(db.store, "sample", level, METRICS, SYSTEMS, "+".join(REFS),
                          variant_of(Params()), ulc=None)
    return {(t, u): [float(v) for v in vals if v is not None] for t, u, vals in matrix.rows}


def _ulc(db: ulcdb.api.Database, level: str, method: str) -> dict[tuple[str, str], float]:
    return ulc_values(db.store, "sample", level, METRICS, SYSTEMS, "+".join(REFS),
                      variant_of(Params()), method)


@pytest.mark.parametrize("level", ["seg", "doc", "sys"])
def test_raw_and_asiya_ulc_from_the_metric_scores(db: ulcdb.api.Database, level: str) -> None:
    values = _values(db, level)
    assert values and all(len(v) == 2 and min(v) >= 0 for v in values.values())
    tops = [max(v[j] for v in values.values()) for j in range(2)]
    raw, asiya = _ulc(db, level, "raw"), _ulc(db, level, "asiya")
    assert raw.keys() == asiya.keys() == values.keys()
    for key, v in values.items():
        assert raw[key] == pytest.approx(mean(v), abs=1e-12)
        assert asiya[key] == pytest.approx(mean(x / t for x, t in zip(v, tops, strict=True)),
                                            abs=1e-12)


@pytest.mark.parametrize("level", ["doc", "sys"])
def test_seg_mean_averages_segment_ulc(db: ulcdb.api.Database, level: str) -> None:
    seg = _ulc(db, "seg", "asiya")
    docs = {str(seg_id): doc for doc, seg_id in db.store.query(
        "select doc_id, seg_id from segment order by seg_id")}
    want: dict[tuple[str, str], list[float]] = {}
    for (system, unit), value in seg.items():
        want.setdefault((system, docs[unit] if level == "doc" else ""), []).append(value)
    got = _ulc(db, level, "seg-mean")
    assert got.keys() == want.keys()
    for key, values in want.items():
        assert got[key] == pytest.approx(mean(values), abs=1e-12)

