"""Put human assessments into the store, checking every row against the test bed.

Reader conventions resolved here (see ``ulcdb.ingest.assessments``):
- seg level with ``doc_id`` set: ``seg_id`` is the position inside that document;
- seg level without ``doc_id``: ``seg_id`` is the test-bed segment id;
- doc level without ``doc_id``: ``seg_id`` holds the 1-based document position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ulcdb.errors import Conflict, InputError
from ulcdb.ingest.model import Assessment
from ulcdb.store import Store

KEY = ("translator_id", "level", "seg_id", "doc_id", "criterion", "judge")


@dataclass
class AssessmentReport:
    read: int
    inserted: int
    unchanged: int
    replaced: int
    skipped: dict[str, int] | None = None  # unknown translator -> rows left out

    def summary(self) -> str:
        text = (f"{self.read} assessments read: {self.inserted} stored, "
                f"{self.unchanged} already there, {self.replaced} replaced")
        if self.skipped:
            names = ", ".join(f"{k} ({v})" for k, v in sorted(self.skipped.items()))
            text += f"; skipped unknown translators: {names}"
        return text


class _Resolver:
    """Maps names and positions of a test bed to store ids, with file/line errors."""

    def __init__(self, store: Store, tid: int, testbed: str, path: Path) -> None:
        self.path = path
        self.testbed = testbed
        self.translators = store.translators(tid)
        self.n_segments = store.scalar("select count(*) from segment where testbed_id = ?", [tid])
        self.seg_in_doc = {(d, k): s for s, d, k in store.query(
            "select seg_id, doc_id, seg_in_doc from segment where testbed_id = ?", [tid])}
        docs = store.query(
            "select doc_id from document where testbed_id = ? order by doc_index", [tid])
        self.docs = [d[0] for d in docs]
        self.doc_set = set(self.docs)

    def translator(self, a: Assessment) -> int:
        if a.translator not in self.translators:
            raise InputError(self.path, a.line,
                             f"unknown system or reference {a.translator!r} in test bed "
                             f"{self.testbed!r}")
        return self.translators[a.translator]

    def unit(self, a: Assessment) -> tuple[int | None, str | None]:
        if a.level == "sys":
            return None, None
        if a.level == "doc":
            return None, self._doc(a)
        if a.level != "seg":
            raise InputError(self.path, a.line, f"level must be seg, doc or sys, not {a.level!r}")
        if a.doc_id is not None:
            seg = self.seg_in_doc.get((a.doc_id, a.seg_id))
            if seg is None:
                raise InputError(self.path, a.line,
                                 f"document {a.doc_id!r} has no segment {a.seg_id}")
            return seg, None
        if a.seg_id is None or not 1 <= a.seg_id <= self.n_segments:
            raise InputError(self.path, a.line, f"segment {a.seg_id} does not exist "
                             f"(test bed has 1..{self.n_segments})")
        return a.seg_id, None

    def _doc(self, a: Assessment) -> str:
        if a.doc_id is not None:
            if a.doc_id not in self.doc_set:
                raise InputError(self.path, a.line, f"unknown document {a.doc_id!r}")
            return a.doc_id
        if a.seg_id is None or not 1 <= a.seg_id <= len(self.docs):
            raise InputError(self.path, a.line, f"document number {a.seg_id} does not exist")
        return self.docs[a.seg_id - 1]


def load_assessments(
    store: Store, testbed: str, items: list[Assessment], path: Path, replace: bool = False,
    skip_unknown: bool = False, scale: tuple[float | None, float | None] | None = None,
) -> AssessmentReport:
    """Check and store ``items`` read from ``path``, all or nothing (one transaction).

    ``skip_unknown`` leaves out rows of translators the test bed does not have (e.g. MQM
    scores of systems whose outputs were not released) instead of refusing the file.
    ``scale`` (MIN, MAX; None = unbounded) is recorded for every criterion of the file
    (table ``criterion``); a value outside it is refused, and so is a scale other than the
    one already recorded unless ``replace``.
    """
    with store.transaction():
        return store_assessments(store, testbed, items, path, replace, skip_unknown, scale)


def store_assessments(
    store: Store, testbed: str, items: list[Assessment], path: Path, replace: bool = False,
    skip_unknown: bool = False, scale: tuple[float | None, float | None] | None = None,
) -> AssessmentReport:
    """``load_assessments`` inside a transaction the caller holds (e.g. a test-bed ingest
    whose file also carries human scores)."""
    if not items:
        raise InputError(path, None, "no assessments found")
    tid = store.testbed_id(testbed)
    resolver = _Resolver(store, tid, testbed, path)
    skipped: dict[str, int] = {}
    if skip_unknown:
        kept = [a for a in items if a.translator in resolver.translators]
        for a in items:
            if a.translator not in resolver.translators:
                skipped[a.translator] = skipped.get(a.translator, 0) + 1
        items = kept
    cols = _columns(resolver, items, path, scale)
    if scale is not None:
        _record_scale(store, tid, sorted(set(cols["criterion"])), scale, str(path), replace)
    report = _merge(store, tid, cols, str(path), replace, len(items))
    report.skipped = skipped
    return report


def _columns(resolver: _Resolver, items: list[Assessment], path: Path,
             scale: tuple[float | None, float | None] | None) -> dict[str, list]:
    """The rows as store columns, every one checked."""
    cols: dict[str, list] = {k: [] for k in (*KEY, "value")}
    seen: dict[tuple, int | None] = {}
    for a in items:
        trid = resolver.translator(a)
        seg_id, doc_id = resolver.unit(a)
        key = (trid, a.level, seg_id, doc_id, a.criterion, a.judge)
        if key in seen:
            raise InputError(path, a.line, f"duplicate assessment (first at line {seen[key]})")
        if a.value != a.value:  # NaN
            raise InputError(path, a.line, "score is NaN")
        if scale is not None and not _within(a.value, scale):
            raise InputError(path, a.line, f"score {a.value:g} lies outside the scale "
                             f"{_scale_text(scale)} given with --scale")
        seen[key] = a.line
        for name, value in zip((*KEY, "value"), (*key, a.value), strict=True):
            cols[name].append(value)
    return cols


def _merge(store: Store, tid: int, cols: dict[str, list], origin: str, replace: bool,
           n: int) -> AssessmentReport:
    con = store.con
    con.execute("create or replace temp table _new_assessment (translator_id integer, "
                "level varchar, seg_id integer, doc_id varchar, criterion varchar, "
                "judge varchar, value double)")
    store.insert_columns("_new_assessment", cols)
    match = " and ".join(f"a.{k} is not distinct from n.{k}" for k in KEY)
    total, differ = store.query(
        f"select count(*), count(*) filter (where a.value <> n.value) from assessment a "
        f"join _new_assessment n on {match} where a.testbed_id = ?", [tid])[0]
    same = total - differ
    if differ and not replace:
        raise Conflict(f"{origin}: {differ} assessments are already stored with other values; "
                       "use --replace to replace them")
    if differ:
        con.execute(f"delete from assessment a where a.testbed_id = ? and exists "
                    f"(select 1 from _new_assessment n where {match} and a.value <> n.value)",
                    [tid])
    con.execute(
        f"insert into assessment (testbed_id, {', '.join(KEY)}, value, origin) "
        f"select ?, {', '.join('n.' + k for k in KEY)}, n.value, ? from _new_assessment n "
        f"where not exists (select 1 from assessment a where a.testbed_id = ? and {match})",
        [tid, origin, tid])
    con.execute("drop table _new_assessment")
    return AssessmentReport(read=n, inserted=n - same, unchanged=same, replaced=differ)


def _within(value: float, scale: tuple[float | None, float | None]) -> bool:
    lo, hi = scale
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def _scale_text(scale: tuple[float | None, float | None]) -> str:
    return ":".join("" if b is None else f"{b:g}" for b in scale)


def _record_scale(store: Store, tid: int, criteria: list[str],
                  scale: tuple[float | None, float | None], origin: str, replace: bool) -> None:
    """Record ``scale`` for each criterion; a different recorded scale needs ``replace``."""
    for name in criteria:
        row = store.query("select scale_min, scale_max from criterion where testbed_id = ? "
                          "and name = ?", [tid, name])
        if row and tuple(row[0]) == tuple(scale):
            continue
        if row and not replace:
            raise Conflict(f"{origin}: criterion {name!r} has the scale "
                           f"{_scale_text(tuple(row[0]))}, not {_scale_text(scale)}; use "
                           "--replace to change it")
        store.con.execute("delete from criterion where testbed_id = ? and name = ?", [tid, name])
        store.con.execute("insert into criterion values (?, ?, ?, ?, ?)",
                          [tid, name, *scale, origin])
