"""`ulcdb compare` on a metric stored at document level only (an imported document-level
score file): segments refuse with a hint at --unit doc, documents compare the values the
store holds, on the documents every system has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ulcdb
from ulcdb.compare.data import CompareError, load_units, metric_variant
from ulcdb.compare.run import CompareTask, run
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
                      "(900, 'DocOnly', 'imported', 'document', true, 'test', 'imported'), "
                      "(901, 'DocLow', 'imported', 'document', false, 'test', 'imported')")
    store.con.execute("insert into score_batch (batch_id, family, signature, origin) values "
                      "(900, 'imported', 'doc-only', 'doc.tsv')")
    for metric in (900, 901):
        for (system, doc), value in VALUES.items():
            store.con.execute("insert into doc_score values (?, ?, ?, 'case:mixed', ?, ?, 900)",
                              [metric, ids[system], rid, doc, value])
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


def test_the_ranking_follows_the_catalogues_direction(db: ulcdb.api.Database) -> None:
    """Two documents are too few for a test: the systems are ranked by their mean document
    score, best first: higher for DocOnly, lower for DocLow (the catalogue says which)."""
    task = CompareTask("sample", ("DocOnly", "DocLow"), tuple(SYSTEMS), "ref-A", "case:mixed",
                       unit="doc")
    report = run(db.store, task)
    means = {s: (VALUES[s, "madrid-metro"] + VALUES[s, "prado-goya"]) / 2 for s in SYSTEMS}
    assert means["sysB"] > means["sysA"]
    ranked = {m: [r.system for r in sorted(report.results, key=lambda r: r.rank)
                  if r.metric == m] for m in task.metrics}
    assert ranked == {"DocOnly": ["sysB", "sysA"], "DocLow": ["sysA", "sysB"]}
    for r in report.results:
        assert r.score == pytest.approx(means[r.system], abs=1e-12) and r.p_value is None
