"""Stores holding Asiya's own similarity scores on the en-de sample (QARLA tests only).

The sample test bed is ingested as it is; its scores are not computed but taken from the
golden files: ``asiya_similarities.tsv`` (references A, C, D) or the IQ-XML files of the
4-reference run (``ende_sample_4refs_draftB``).  Every score goes in with variant
'case:mixed', as the 8-decimal value Asiya compared.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
from lxml import etree

from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.scoring.scorer import ensure_refset
from ulcdb.store.database import Store

VARIANT = "case:mixed"
METRICS = ("BLEU", "NIST", "-PER", "GTM-2", "Ol")
SETS = {"two": ["BLEU", "NIST"], "five": list(METRICS)}
THREE_REFS = ("ref-A", "ref-C", "ref-D")
FOUR_REFS = ("ref-A", "ref-Bdraft", "ref-C", "ref-D")

def sample_store(shared: Path, refs: tuple[str, ...], path: str = ":memory:") -> Store:
    """A fresh store with the en-de sample test bed 'ende' and Asiya's scores."""
    store = Store(path)
    base = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    files = {"ref-Bdraft": base / "refs" / "ref-B.draft-cd9d313.de.txt"}
    ref_files = {r: files.get(r, base / "refs" / f"{r}.de.txt") for r in refs}
    systems = {p.name.split(".")[0]: p for p in sorted((base / "systems").glob("*.de.txt"))}
    data = read_plain("ende", base / "source.en.txt", ref_files, systems, base / "docs.tsv",
                      "en", "de")
    load_testbed(store, data)
    golden = shared / "golden"
    if refs == THREE_REFS:
        store.con.execute(
            "create temp table golden_scores as select metric, system, refset, level, doc_id, "
            "seg_id::integer as seg_id, value::double as value from read_csv(?, delim = '\t', "
            "header = true, quote = '', escape = '', all_varchar = true)",
            [str(golden / "ende_sample" / "asiya_similarities.tsv")])
    else:
        columns = _iqxml_columns(golden / "ende_sample_4refs_draftB" / "iqxml" / "scores")
        store.con.register("_golden", pa.table(columns))
        store.con.execute("create temp table golden_scores as select * from _golden")
        store.con.unregister("_golden")
    insert_scores(store, "ende")
    return store


def insert_scores(store: Store, testbed: str) -> None:
    """Metric rows, refsets, one batch, then the scores of temp table golden_scores
    (metric, system, refset, level, doc_id, seg_id, value) at every level."""
    tid = store.testbed_id(testbed)
    ids = store.translators(tid)
    with store.transaction():
        store.con.execute(
            "insert into metric (name, family, linguistic_level, higher_is_better, description, "
            "origin) select distinct metric, 'asiya', 'lexical', true, 'Asiya 3.0', 'imported' "
            "from golden_scores on conflict (name) do nothing")
        batch = store.scalar("insert into score_batch (family, signature, origin) values "
                             "('asiya', 'asiya-3.0', 'golden') returning batch_id")
        for (name,) in store.query("select distinct refset from golden_scores"):
            ensure_refset(store, tid, tuple(name.split("+")), ids)
        for level, table, unit in (("seg", "seg_score", ["seg_id"]),
                                   ("doc", "doc_score", ["doc_id"]), ("sys", "sys_score", [])):
            names = ", ".join(["metric_id", "translator_id", "refset_id", "variant", *unit,
                               "value", "batch_id"])
            picked = ", ".join(["m.metric_id", "t.translator_id", "r.refset_id", "?",
                                *[f"g.{u}" for u in unit], "g.value", "?"])
            store.con.execute(
                f"insert into {table} ({names}) select {picked} from golden_scores g "
                "join metric m on m.name = g.metric "
                "join translator t on t.testbed_id = ? and t.name = g.system "
                "join refset r on r.testbed_id = ? and r.name = g.refset where g.level = ?",
                [VARIANT, batch, tid, tid, level])


def _iqxml_columns(scores: Path) -> dict[str, list]:
    """scores/<hyp>/<ref1_ref2...>/<METRIC>.xml, for the metrics of METRICS, as columns."""
    cols: dict[str, list] = {k: [] for k in ("metric", "system", "refset", "level", "doc_id",
                                              "seg_id", "value")}

    def add(*row: object) -> None:
        for key, value in zip(cols, row, strict=True):
            cols[key].append(value)

    for path in sorted(scores.glob("*/*/*.xml")):
        metric = path.stem
        if metric not in METRICS:
            continue
        hyp, refset = path.parent.parent.name, path.parent.name.replace("_ref-", "+ref-")
        root = etree.parse(str(path)).getroot()
        add(metric, hyp, refset, "sys", None, None, float(root.get("score")))
        for doc in root.iter("DOC"):
            add(metric, hyp, refset, "doc", doc.get("id"), None, float(doc.get("score")))
            for seg in doc.iter("S"):
                add(metric, hyp, refset, "seg", doc.get("id"), int(seg.get("n")),
                    float(seg.text))
    return cols


def metric_set(options: str) -> list[str]:
    """The metric set of a golden row, from its options ('... metric set {BLEU,NIST}')."""
    found = re.search(r"metric set \{([^}]*)\}", options)
    if not found:
        raise ValueError(f"no metric set in {options!r}")
    return found.group(1).split(",")
