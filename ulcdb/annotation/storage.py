"""Analyses in the store: annotation runs, per-text status, tokens and spans.

A run is one (annotator, model, version) configuration: annotating again with the same
configuration reuses its row, so an interrupted run resumes where it stopped.  Each batch of
texts is written in its own transaction, so a crash loses nothing already stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ulcdb.annotation.derive import DERIVED_LAYERS
from ulcdb.annotation.model import ENTITY, OK, Analysis, Span, Token
from ulcdb.store.database import Store, named_query

FULL_LAYERS = frozenset(DERIVED_LAYERS | {ENTITY})
TOOL_LAYERS = {"spacy": FULL_LAYERS, "stanza": FULL_LAYERS}


def text_hash(text: str) -> str:
    """md5 hex of the text, as ``translation.text_hash``."""
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def doc_hash(texts: list[str]) -> str:
    """The key of a document's analysis (an imported document DRS): md5 of its segments'
    texts, marked so that it never equals a segment's ``text_hash``."""
    return text_hash("\x1edocument\x1e" + "\n".join(texts))


def find_run(store: Store, annotator: str, model: str | None = None,
             version: str | None = None) -> int | None:
    """The newest run of this configuration (version None: any version)."""
    sql = ("select max(run_id) from annotation_run where annotator = ? and "
           "model is not distinct from ?")
    params: list[str | None] = [annotator, model]
    if version is not None:
        sql += " and version = ?"
        params.append(version)
    rid = store.scalar(sql, params)
    return None if rid is None else int(rid)


def ensure_run(store: Store, annotator: str, model: str | None, version: str | None,
               lang: str | None = None) -> int:
    """The run of this configuration, created (with its language) when missing."""
    rid = find_run(store, annotator, model, version)
    if rid is None:
        rid = int(store.scalar("insert into annotation_run (annotator, model, version, lang) "
                               "values (?, ?, ?, ?) returning run_id",
                               [annotator, model, version, lang]))
    return rid


Cell = int | str | None  # one value of a column inserted by ``save``


def save(store: Store, run_id: int, analyses: Iterable[tuple[str, Analysis]],
         replace: bool = False) -> int:
    """Store (text_hash, analysis) pairs of one run in one transaction; returns how many."""
    with store.transaction():
        return _write(store, run_id, analyses, replace)


def save_import(store: Store, run_id: int | None, annotator: str, lang: str | None,
                analyses: Iterable[tuple[str, Analysis]]) -> int:
    """Store an imported file's analyses, replacing the run's analyses of their texts, in one
    transaction with the run itself when it is new (``run_id`` None): an import stopped
    half-way (Ctrl-C) left an empty run behind.  Returns the run's id."""
    with store.transaction():
        rid = run_id if run_id is not None else ensure_run(store, annotator, None, None, lang)
        _write(store, rid, analyses, replace=True)
    return rid


def _write(store: Store, run_id: int, analyses: Iterable[tuple[str, Analysis]],
           replace: bool) -> int:
    """``save`` inside a transaction the caller holds."""
    status: dict[str, list[Cell]] = {k: [] for k in ("run_id", "text_hash", "status", "message",
                                               "drs")}
    tok: dict[str, list[Cell]] = {k: [] for k in ("run_id", "text_hash", "tok", "sent", "form",
                                            "lemma", "tag", "pos", "head", "deprel")}
    spn: dict[str, list[Cell]] = {k: [] for k in ("run_id", "text_hash", "layer", "span_id",
                                            "start_tok", "end_tok", "label", "parent")}
    seen: set[str] = set()
    for h, a in analyses:
        if h in seen:
            continue
        seen.add(h)
        status["run_id"].append(run_id)
        status["text_hash"].append(h)
        status["status"].append(a.status)
        status["message"].append(a.message)
        status["drs"].append(a.drs)
        n = len(a.tokens)
        tok["run_id"] += [run_id] * n
        tok["text_hash"] += [h] * n
        tok["tok"] += range(n)
        for t in a.tokens:
            tok["sent"].append(t.sent)
            tok["form"].append(t.form)
            tok["lemma"].append(t.lemma)
            tok["tag"].append(t.tag)
            tok["pos"].append(t.pos)
            tok["head"].append(t.head)
            tok["deprel"].append(t.deprel)
        m = len(a.spans)
        spn["run_id"] += [run_id] * m
        spn["text_hash"] += [h] * m
        for s in a.spans:
            spn["layer"].append(s.layer)
            spn["span_id"].append(s.span_id)
            spn["start_tok"].append(s.start)
            spn["end_tok"].append(s.end)
            spn["label"].append(s.label)
            spn["parent"].append(s.parent)
    if not seen:
        return 0
    if replace:
        _delete(store, run_id, sorted(seen))
    store.insert_columns("annotated_text", status)
    store.insert_columns("ann_token", tok)
    store.insert_columns("ann_span", spn)
    return len(seen)


def _delete(store: Store, run_id: int, hashes: list[str]) -> None:
    for table in ("annotated_text", "ann_token", "ann_span"):
        store.con.execute(f"delete from {table} where run_id = ? and list_contains(?, "
                          "text_hash)", [run_id, hashes])


def run_layers(store: Store, run_id: int) -> frozenset[str]:
    annotator = store.scalar("select annotator from annotation_run where run_id = ?", [run_id])
    if annotator in TOOL_LAYERS:
        return TOOL_LAYERS[annotator]
    return frozenset(r[0] for r in store.query(
        "select distinct layer from ann_span where run_id = ?", [run_id]))


def annotated(store: Store, run_id: int, hashes: list[str]) -> set[str]:
    """The hashes among ``hashes`` that this run already holds."""
    store.con.execute("create or replace temp table _ann_want (text_hash varchar)")
    store.insert_columns("_ann_want", {"text_hash": list(hashes)})
    rows = store.query("select w.text_hash from _ann_want w join annotated_text a on "
                       "a.text_hash = w.text_hash and a.run_id = ?", [run_id])
    store.con.execute("drop table _ann_want")
    return {r[0] for r in rows}


def load(store: Store, run_id: int, hashes: list[str]) -> dict[str, Analysis]:
    """Stored analyses of these texts (texts this run lacks are absent from the result)."""
    hashes = list(dict.fromkeys(hashes))
    if not hashes:
        return {}
    layers = run_layers(store, run_id)
    store.con.execute("create or replace temp table _ann_want (text_hash varchar)")
    store.insert_columns("_ann_want", {"text_hash": hashes})
    try:
        status = store.query(named_query("annotation_status"), [run_id])
        toks = store.query(named_query("annotation_tokens"), [run_id])
        spans = store.query(named_query("annotation_spans"), [run_id])
    finally:
        store.con.execute("drop table if exists _ann_want")
    by_tok: dict[str, list[Token]] = {}
    for h, form, lemma, tag, pos, head, deprel, sent in toks:
        by_tok.setdefault(h, []).append(Token(form, lemma, tag, pos, head, deprel, sent))
    by_span: dict[str, list[Span]] = {}
    for h, layer, sid, start, end, label, parent in spans:
        by_span.setdefault(h, []).append(Span(layer, sid, start, end, label, parent))
    out: dict[str, Analysis] = {}
    for h, st, msg, drs in status:
        ordered = sorted(by_span.get(h, ()), key=_span_order)
        out[h] = Analysis(tuple(by_tok.get(h, ())), tuple(ordered), st, msg,
                          layers if st == OK else frozenset(), drs)
    return out


_LAYER_ORDER = {"entity": 0, "chunk": 1, "constituent": 2, "predicate": 3, "role": 3}


def _span_order(s: Span) -> tuple[int, int]:
    return (_LAYER_ORDER.get(s.layer, 9), s.span_id)
