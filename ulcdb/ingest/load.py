"""Put a TestbedData into the store: one transaction, no-op on identical content."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ulcdb.errors import Conflict, InputError, NotFound
from ulcdb.ingest.load_assessments import store_assessments
from ulcdb.ingest.model import NamedSet, TestbedData, TranslatorText
from ulcdb.metrics.languages import set_language
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import check_name, lookalike, refuse_lookalike


@dataclass
class LoadReport:
    testbed: str
    created: bool = False
    segments: int = 0
    documents: int = 0
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    sets: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"test bed {self.testbed!r}: {self.segments} segments, {self.documents} documents"]
        if self.created:
            parts.append("created")
        for label, names in (("added", self.added), ("replaced", self.replaced),
                             ("unchanged", self.unchanged), ("sets", self.sets)):
            if names:
                parts.append(f"{label}: {', '.join(names)}")
        return "; ".join(parts + self.notes)


def text_hash(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def validate(data: TestbedData) -> None:
    """Checks every reader's output must pass, whatever the format; its languages become
    ISO 639-1 codes (readers normalise them already, naming file and line; this catches any
    other caller, e.g. a WMT --details layout or TestbedData built in Python)."""
    origin = data.origin or data.name
    check_name("test bed", data.name, origin)
    for side in ("src_lang", "tgt_lang"):
        set_language(data, side, getattr(data, side), origin)
    if not data.segments:
        raise InputError(origin, None, "no segments found")
    doc_ids = {check_name("document", d.doc_id, origin) for d in data.documents}
    if len(doc_ids) != len(data.documents):
        raise InputError(origin, None, "duplicate document ids")
    _refuse_line_breaks(origin, "the source", [seg.source for seg in data.segments])
    for i, seg in enumerate(data.segments, start=1):
        if seg.seg_id != i:
            raise InputError(origin, None, f"segment ids must run 1..n, found {seg.seg_id} at {i}")
        if seg.doc_id not in doc_ids:
            raise InputError(origin, None, f"segment {i} names unknown document {seg.doc_id!r}")
    seen: set[str] = set()
    for tr in data.translators:
        check_name(tr.role, tr.name, tr.origin or origin)
        if tr.name in seen:
            raise InputError(tr.origin or origin, None, f"duplicate translator name {tr.name!r}")
        refuse_lookalike(tr.origin or origin, tr.role, tr.name, seen, "")
        seen.add(tr.name)
        _refuse_line_breaks(tr.origin or origin, tr.name, tr.texts)
        if tr.role not in ("system", "reference"):
            raise InputError(tr.origin or origin, None,
                             f"role must be system or reference: {tr.role}")
        if len(tr.texts) != len(data.segments):
            raise InputError(
                tr.origin or origin, None,
                f"{tr.name} has {len(tr.texts)} segments, the source has {len(data.segments)}",
            )


def load_testbed(store: Store, data: TestbedData, replace: bool = False) -> LoadReport:
    """Create or extend test bed ``data.name``; refuse changed content unless ``replace``."""
    validate(data)
    if not data.translators:
        raise InputError(data.origin or data.name, None,
                         "no systems or references: a test bed needs at least one of them")
    report = LoadReport(data.name, segments=len(data.segments), documents=len(data.documents),
                        notes=list(data.notes))
    with store.transaction():
        tid = store.scalar("select testbed_id from testbed where name = ?", [data.name])
        if tid is not None:
            tid = _match_existing(store, tid, data, replace, report)
        if tid is not None and data.dashless_names:
            _restore_names(store, tid, data, report)
        if tid is None:
            refuse_lookalike(data.origin or data.name, "test bed", data.name,
                              [r[0] for r in store.query(named_query("testbed_names"))],
                              " in the store")
            tid = _create_testbed(store, data)
            report.created = True
        for tr in data.translators:
            _load_translator(store, tid, tr, replace, report)
        for nset in data.sets:
            _check_metric_set(store, data, nset)
            if save_set(store, tid, nset, origin=data.origin, replace=replace).changed:
                report.sets.append(nset.name)
        if data.assessments:
            _load_human_scores(store, data, replace, report)
        _language_hint(store, tid, report)
        store.drop_orphan_batches()  # provenance of scores --replace dropped
    return report


def _language_hint(store: Store, tid: int, report: LoadReport) -> None:
    """Say how to give the languages a test bed still lacks (metrics check the target's)."""
    src, tgt = store.query("select src_lang, tgt_lang from testbed where testbed_id = ?",
                           [tid])[0]
    missing = [option for option, lang in (("--src-lang", src), ("--tgt-lang", tgt))
               if not lang]
    if missing:
        report.notes.append(f"no {' or '.join(o[2:5] + ' language' for o in missing)} known: "
                            f"give {' and '.join(missing)} (e.g. --tgt-lang de) so that "
                            "metrics can check they score the target language")


def _load_human_scores(store: Store, data: TestbedData, replace: bool,
                       report: LoadReport) -> None:
    """Human scores the test-bed file carries, stored in the ingest's transaction."""
    stored = store_assessments(store, data.name, data.assessments, Path(data.origin), replace)
    report.notes.append(f"human scores: {stored.summary()}")  # the summary names criteria


def _check_metric_set(store: Store, data: TestbedData, nset: NamedSet) -> None:
    """Members of a metric set must be metrics or metric sets ulcdb or the store knows; its
    name no metric's, nor one's but for case or Unicode form (``-m NAME`` would choose the
    metric, never the set)."""
    if nset.kind != "metric":
        return
    from ulcdb.metrics import registry
    from ulcdb.scoring.selection import stored_metrics

    metrics = set(registry.metric_index()) | stored_metrics(store)
    clash = nset.name if nset.name in metrics else lookalike(nset.name, sorted(metrics))
    if clash is not None:
        how = (f"is a metric's name: -m {clash} would choose the metric, never the set"
               if clash == nset.name else f"differs from the metric {clash!r} only by case or "
               f"Unicode normalisation: -m {nset.name} and -m {clash} would differ by that "
               "alone")
        raise InputError(data.origin or data.name, nset.line, f"the metric set name "
                         f"{nset.name!r} {how}; name the set otherwise")
    known = set(registry.metric_index()) | set(registry.BUILTIN_SETS)
    known |= {r[0] for r in store.query("select name from metric union all "
                                        "select name from named_set where kind = 'metric'")}
    known |= {s.name for s in data.sets if s.kind == "metric"}
    for member in nset.members:
        if member not in known:
            raise InputError(data.origin or data.name, nset.line,
                             f"set {nset.name!r}: no metric or metric set named {member!r} "
                             "(see `ulcdb list metrics` and `ulcdb list sets`)")


def _restore_names(store: Store, tid: int, data: TestbedData, report: LoadReport) -> None:
    """mt-metrics-eval names (``refA``) back to the stored ones (``ref-A``) of the same role."""
    stored = dict(store.query("select name, role from translator where testbed_id = ?", [tid]))
    by_dashless = {n.replace("-", ""): n for n in stored}
    renamed: dict[str, str] = {}
    for tr in data.translators:
        original = by_dashless.get(tr.name)
        if tr.name not in stored and original is not None and stored[original] == tr.role:
            report.notes.append(f"{tr.name} is the stored {original} (mt-metrics-eval drops "
                                "dashes from reference names)")
            renamed[tr.name] = original
            tr.name = original
    for judged in data.assessments:  # the folder's human scores name them too
        judged.translator = renamed.get(judged.translator, judged.translator)


def _match_existing(store: Store, tid: int, data: TestbedData, replace: bool,
                    report: LoadReport) -> int | None:
    """``tid`` when ``data`` fits the stored test bed; None once ``replace`` has dropped it.

    Without document information in ``data`` only the source segments must match, and the
    stored documents stay.
    """
    difference = _segment_difference(store, tid, data)
    if difference is None:
        if not data.has_documents:
            report.documents = store.scalar(
                "select count(*) from document where testbed_id = ?", [tid])
        _update_languages(store, tid, data, report)
        return tid
    lost = contents(store, tid)
    if not replace:
        raise Conflict(f"{_where(data.origin)}test bed {data.name!r} already exists with "
                       f"{difference}; --replace replaces the whole test bed, dropping its {lost}")
    drop_testbed(store, tid)
    report.notes.append(f"replaced the whole test bed ({difference}): dropped its {lost}")
    return None


def _segment_difference(store: Store, tid: int, data: TestbedData) -> str | None:
    """How the stored segments differ from ``data``'s (sources, then documents), or None."""
    stored = store.query(
        "select seg_id, doc_id, seg_in_doc, source from segment where testbed_id = ? "
        "order by seg_id", [tid])
    if len(stored) != len(data.segments):
        return f"{len(stored)} segments (the input has {len(data.segments)})"
    for (seg_id, doc_id, seg_in_doc, source), new in zip(stored, data.segments, strict=True):
        if source != new.source:
            return f"another source text of segment {seg_id}"
        if data.has_documents and (doc_id, seg_in_doc) != (new.doc_id, new.seg_in_doc):
            return (f"other documents (segment {seg_id} is number {seg_in_doc} of {doc_id!r} "
                    f"in the store, number {new.seg_in_doc} of {new.doc_id!r} in the input; "
                    "give no documents to keep the stored ones)")
    return None


def contents(store: Store, tid: int) -> str:
    """What dropping test bed ``tid`` loses, e.g. ``4 systems, 3 references, 0 scores, ...``."""
    row = store.query(
        "select systems, refs, seg_scores + doc_scores + sys_scores, assessments, documents, "
        "named_sets from testbed_contents where testbed_id = ?", [tid])[0]
    counts = dict(zip(("systems", "references", "scores", "human assessments", "documents",
                       "named sets"), row, strict=True))
    parts = [f"{n} {what}" for what, n in counts.items()]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _update_languages(store: Store, tid: int, data: TestbedData, report: LoadReport) -> None:
    """Fill empty languages of a stored test bed; a different stored language is a Conflict."""
    row = store.query("select src_lang, tgt_lang from testbed where testbed_id = ?", [tid])[0]
    for side, old in zip(("src_lang", "tgt_lang"), row, strict=True):
        new = getattr(data, side)
        if not new or new == old:
            continue
        if not old:
            store.con.execute(f"update testbed set {side} = ? where testbed_id = ?", [new, tid])
            report.notes.append(f"{side} set to {new}")
        elif side not in data.guessed_languages:
            raise Conflict(f"test bed {data.name!r} has {side} {old!r}, the input says {new!r}")


def _create_testbed(store: Store, data: TestbedData) -> int:
    tid = store.scalar(
        "insert into testbed (name, src_lang, tgt_lang, origin, options) values (?, ?, ?, ?, ?) "
        "returning testbed_id",
        [data.name, data.src_lang, data.tgt_lang, data.origin, json.dumps(data.options)])
    docs = data.documents
    store.insert_columns("document", {
        "testbed_id": [tid] * len(docs),
        "doc_id": [d.doc_id for d in docs],
        "doc_index": list(range(1, len(docs) + 1)),
        "genre": [d.genre for d in docs],
        "domain": [d.domain for d in docs],
        "origlang": [d.origlang for d in docs],
    })
    segs = data.segments
    store.insert_columns("segment", {
        "testbed_id": [tid] * len(segs),
        "seg_id": [s.seg_id for s in segs],
        "doc_id": [s.doc_id for s in segs],
        "seg_in_doc": [s.seg_in_doc for s in segs],
        "source": [s.source for s in segs],
    })
    return int(tid)


def drop_testbed(store: Store, tid: int) -> None:
    ids = "select translator_id from translator where testbed_id = ?"
    for table in ("seg_score", "doc_score", "sys_score", "translation"):
        store.con.execute(f"delete from {table} where translator_id in ({ids})", [tid])
    store.con.execute(
        "delete from refset_member where refset_id in "
        "(select refset_id from refset where testbed_id = ?)", [tid])
    sets = "select set_id from named_set where testbed_id = ?"
    store.con.execute(f"delete from named_set_member where set_id in ({sets})", [tid])
    for table in ("assessment", "criterion", "refset", "named_set", "translator", "segment",
                  "document", "testbed"):
        store.con.execute(f"delete from {table} where testbed_id = ?", [tid])


def _load_translator(
    store: Store, tid: int, tr: TranslatorText, replace: bool, report: LoadReport
) -> None:
    row = store.query(
        "select translator_id, role from translator where testbed_id = ? and name = ?",
        [tid, tr.name])
    if row:
        trid, role = row[0]
        problem = _translator_difference(store, trid, role, tr, report.testbed)
        if problem is None:
            report.unchanged.append(tr.name)
            return
        if not replace:
            action = "replace it" if role == tr.role else f"make it a {tr.role}"
            raise Conflict(f"{_where(tr.origin)}{problem}; use --replace to {action} (its "
                           "scores and human assessments are dropped)")
        report.replaced.append(_clear_translator(store, trid, tr))
    else:
        refuse_lookalike(tr.origin or report.testbed, tr.role, tr.name,
                          list(store.translators(tid)), f" in test bed {report.testbed!r}")
        trid = store.scalar(
            "insert into translator (testbed_id, name, role, origin) values (?, ?, ?, ?) "
            "returning translator_id", [tid, tr.name, tr.role, tr.origin])
        report.added.append(tr.name)
    n = len(tr.texts)
    store.insert_columns("translation", {
        "translator_id": [trid] * n,
        "seg_id": list(range(1, n + 1)),
        "text": tr.texts,
        "text_hash": [text_hash(t) for t in tr.texts],
    })


def _refuse_line_breaks(origin: str, whose: str, texts: list[str]) -> None:
    """An ``InputError`` naming the first segment of ``texts`` holding a line break (an XML
    or SGML segment written over two lines, or with &#10;): a segment is one line of a plain
    file, of sacrebleu's input and of every export, which would split it."""
    first = next((i for i, text in enumerate(texts, 1) if "\n" in text or "\r" in text), None)
    if first is None:
        return
    raise InputError(origin, None, f"segment {first} of {whose} holds a line break: a segment "
                     "is one line (of plain files, sacrebleu's input and every export)")


def _where(origin: str | None) -> str:
    """``FILE: `` to begin a message about content read from ``origin`` (none: nothing)."""
    return f"{origin}: " if origin else ""


def _translator_difference(store: Store, trid: int, role: str, tr: TranslatorText,
                           testbed: str) -> str | None:
    """Why ``tr`` is not what is stored under its name, or None when it is."""
    if role != tr.role:
        return f"the name {tr.name!r} is already used by a {role} of test bed {testbed!r}"
    texts = [r[0] for r in store.query(
        "select text from translation where translator_id = ? order by seg_id", [trid])]
    if texts == tr.texts:
        return None
    if not texts:
        return f"{role} {tr.name!r} of test bed {testbed!r} has scores but no text"
    first = next(i for i, (a, b) in enumerate(zip(texts, tr.texts, strict=True), 1) if a != b)
    return (f"{role} {tr.name!r} already exists in test bed {testbed!r} with another text "
            f"(first difference at segment {first})")


def _clear_translator(store: Store, trid: int, tr: TranslatorText) -> str:
    """Drop a translator's texts, scores and human assessments before new texts go in.

    The assessments judged the old text, so they go too.  Returns the report entry.
    """
    scores = drop_translator_scores(store, trid)
    assessments = store.scalar("delete from assessment where translator_id = ?", [trid])
    store.con.execute("delete from translation where translator_id = ?", [trid])
    store.con.execute(
        "update translator set role = ?, origin = ? where translator_id = ?",
        [tr.role, tr.origin, trid])
    return f"{tr.name} ({scores} scores and {assessments} human assessments dropped)"


def drop_translator_scores(store: Store, trid: int) -> int:
    """Delete the scores of a translator as target and every score against a set it belongs
    to; returns how many went."""
    sets = "select refset_id from refset_member where translator_id = ?"
    return sum(store.scalar(
        f"delete from {table} where translator_id = ? or refset_id in ({sets})", [trid, trid])
        for table in ("seg_score", "doc_score", "sys_score"))


def delete_set(store: Store, kind: str, name: str) -> None:
    """Delete the named sets of this kind and name (every test bed's), in one transaction."""
    ids = [r[0] for r in store.query(
        "select set_id from named_set where kind = ? and name = ?", [kind, name])]
    if not ids:
        raise NotFound(f"no {kind} set named {name!r}")
    with store.transaction():
        store.con.execute("delete from named_set_member where list_contains(?, set_id)", [ids])
        store.con.execute("delete from named_set where list_contains(?, set_id)", [ids])


class SavedSet(NamedTuple):
    """What ``save_set`` did: whether the set changed, and the members it held (None: it was
    not stored)."""

    changed: bool
    before: list[str] | None


def save_set(store: Store, tid: int | None, nset: NamedSet, origin: str = "",
             replace: bool = True) -> SavedSet:
    """Create or redefine a named set; whether something changed and the members it held.
    Without ``replace`` a set stored with other members is a Conflict naming ``origin`` and
    the set's line."""
    scope = None if nset.kind == "metric" else tid
    row = store.query(
        "select set_id from named_set where kind = ? and name = ? and testbed_id is not distinct "
        "from ?", [nset.kind, nset.name, scope])
    if row:
        set_id = row[0][0]
        members = [r[0] for r in store.query(
            "select member from named_set_member where set_id = ? order by position", [set_id])]
        if members == nset.members:
            return SavedSet(False, members)
        if not replace:
            where = f"{origin}:{nset.line}" if nset.line is not None else origin
            raise Conflict(f"{where}: set {nset.name!r} is stored with other members "
                           f"({' '.join(members)}); use --replace to redefine it")
        store.con.execute("delete from named_set_member where set_id = ?", [set_id])
    else:
        members = None
        set_id = store.scalar(
            "insert into named_set (testbed_id, kind, name, origin) values (?, ?, ?, ?) "
            "returning set_id", [scope, nset.kind, nset.name, origin])
    store.insert_columns("named_set_member", {
        "set_id": [set_id] * len(nset.members),
        "position": list(range(1, len(nset.members) + 1)),
        "member": list(nset.members),
    })
    return SavedSet(True, members)
