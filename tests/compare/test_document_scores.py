"""`ulcdb compare` on a metric stored at document level only (an imported document-level
score file): segments refuse with a hint at --unit doc, documents compare the values the
store holds, on the documents every system has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ulcdb
from ulcdb.compare.data import CompareError, load_units, metric_variant
from ulcdb.scoring.scorer import ensure_refset

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
SYSTEMS = ["sysA", "sysB"]
# sysB lacks a score for "granada-beetle": that document is left out of both.
VALUES = {("sysA", "madrid-metro"): 0.25, ("sysA", "granada-beetle"): 0.5,
          ("sysB", "madrid-metro"): 0.75, ("sysB", "prado-goya"): 1.0,
          ("sysA", "prado-goya"): 0.125}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> ulcdb.api.Database:
    database = ulcdb.open(tmp_path_factory.mktemp("docs") / "d.duckdb")
    database.ingest_testbed(
        name="sample", source=PLAIN / "source.es.txt", docs=PLAIN / "docs.tsv",
        refs={"ref-A": PLAIN / "refs" / "ref-A.en.txt"},
        systems={s: PLAIN / "systems" / f"{s}.en.txt" for s in SYSTEMS},
        src_lang="es", tgt_lang="en")
    store = database.store
    ids = store.translators(store.testbed_id("sample"))
    rid = ensure_refset(store, store.testbed_id("sample"), ("ref-A",), ids)
    store.con.execute("insert into metric (metric_id, name, family, linguistic_level, "
                      "higher_is_better, description, origin) values "
                      "(900, 'DocOnly', 'imported', 'document', true, 'test', 'imported')")
    store.con.execute("insert into score_batch (batch_id, family, signature, origin) values "
                      "(900, 'imported', 'doc-only', 'doc.tsv')")
    for (system, doc), value in VALUES.items():
        store.con.execute("insert into doc_score values (900, ?, ?, 'case:mixed', ?, ?, 900)",
                          [ids[system], rid, doc, value])
    yield database
    database.close()


def test_segments_refuse_with_a_hint(db: ulcdb.api.Database) -> None:
    assert metric_variant(db.store, "sample", "DocOnly", "ref-A", None, "case:lc") == \
        "case:mixed"
    with pytest.raises(CompareError) as err:
        load_units(db.store, "sample", "DocOnly", SYSTEMS, "ref-A", "case:mixed", "seg")
    assert str(err.value) == ("DocOnly has no segment scores against 'ref-A' for sysA, sysB: "
                              "try --unit doc")


def test_documents_compare_the_stored_values(db: ulcdb.api.Database) -> None:
    data = load_units(db.store, "sample", "DocOnly", SYSTEMS, "ref-A", "case:mixed", "doc")
    assert data.units == ["madrid-metro", "prado-goya"] and data.dropped == 1
    for system in SYSTEMS:
        want = [[VALUES[system, d], 1.0] for d in data.units]
        assert np.array_equal(data.stats[system], np.array(want))
