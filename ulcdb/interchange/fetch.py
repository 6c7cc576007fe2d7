"""What exporters read: a selection of stored scores, and the test-bed facts formats need."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ulcdb.errors import NotFound
from ulcdb.interchange.load import DEFAULT_VARIANT
from ulcdb.interchange.model import LEVELS, ScoreSet
from ulcdb.store.database import Store


@dataclass(frozen=True)
class ExportSelection:
    """Which scores to export; an empty tuple means all."""

    testbeds: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    refsets: tuple[str, ...] = ()   # refset names as stored: members joined with '+'
    levels: tuple[str, ...] = LEVELS
    variant: str = DEFAULT_VARIANT


@dataclass
class TestbedInfo:
    """A test bed's layout: documents in order, segments with their document positions."""

    name: str
    src_lang: str | None
    tgt_lang: str | None
    docs: list[str]
    seg_doc: list[str]          # document of segment i+1
    seg_in_doc: list[int]       # position of segment i+1 in its document
    translators: dict[str, str] = field(default_factory=dict)  # name -> role
    domains: dict[str, str | None] = field(default_factory=dict)  # doc_id -> domain

    __test__ = False

    @property
    def lp(self) -> str | None:
        return f"{self.src_lang}-{self.tgt_lang}" if self.src_lang and self.tgt_lang else None


_SCORES = """
select * from export_scores($variant, $levels::varchar[], $testbeds::varchar[],
                            $metrics::varchar[], $targets::varchar[], $refsets::varchar[])
"""


def _params(sel: ExportSelection) -> dict[str, str | list[str]]:
    return {"variant": sel.variant, "levels": list(sel.levels), "testbeds": list(sel.testbeds),
            "metrics": list(sel.metrics), "targets": list(sel.targets),
            "refsets": list(sel.refsets)}


def check_selection(store: Store, sel: ExportSelection) -> None:
    """Every name the selection gives must exist in its test beds (all where none is named),
    metrics and the variant with scores there: a typo must not export nothing silently.
    The error names what exists."""
    ids = ([store.testbed_id(n) for n in sel.testbeds]
           or [r[0] for r in store.query("select testbed_id from testbed")])
    where = (f"test bed {', '.join(map(repr, sel.testbeds))}" if sel.testbeds
             else "the store")
    scored = store.query("select distinct metric, variant from scored_metrics "
                         "where list_contains(?, testbed_id)", [ids])
    targets = store.query("select name from translator where list_contains(?, testbed_id)",
                          [ids])
    refsets = store.query("select name from refset where list_contains(?, testbed_id)", [ids])
    for given, known, what in (
            (sel.metrics, {m for m, _ in scored}, "scores of metric"),
            ((sel.variant,) if scored else (), {v for _, v in scored}, "scores with variant"),
            (sel.targets, {r[0] for r in targets}, "system or reference"),
            (sel.refsets, {r[0] for r in refsets}, "reference set")):
        missing = [name for name in given if name not in known]
        if missing:
            raise NotFound(f"no {what} {missing[0]!r} in {where} (there: {_listing(known)})")


def _listing(names: set[str], limit: int = 20) -> str:
    """Sorted names, at most ``limit`` of them."""
    ordered = sorted(names)
    if not ordered:
        return "none"
    more = f", ... ({len(ordered) - limit} more)" if len(ordered) > limit else ""
    return ", ".join(ordered[:limit]) + more


def score_sets(store: Store, sel: ExportSelection) -> Iterator[tuple[str, ScoreSet]]:
    """(test bed, ScoreSet) per metric, target, reference set and level, in a stable order.

    Segment scores carry test-bed segment numbers, document scores document ids.
    """
    check_selection(store, sel)
    cursor = store.con.cursor()  # its own connection: callers may query while this streams
    try:
        cursor.execute(_SCORES, _params(sel))
        current: tuple[Any, ...] = ()  # (test bed, metric, target, refs, level) as DuckDB gives
        block: ScoreSet | None = None
        while rows := cursor.fetchmany(50_000):
            for testbed, metric, target, refs, level, doc_id, seg_id, value in rows:
                key = (testbed, metric, target, tuple(refs), level)
                if key != current:
                    if block is not None:
                        yield current[0], block
                    current, block = key, ScoreSet(metric, target, tuple(refs), level)
                assert block is not None
                block.add(value, seg=seg_id, doc_id=doc_id)
        if block is not None:
            yield current[0], block
    finally:
        cursor.close()


def testbed_info(store: Store, name: str) -> TestbedInfo:
    tid = store.testbed_id(name)
    src, tgt = store.query("select src_lang, tgt_lang from testbed where testbed_id = ?",
                           [tid])[0]
    docs = store.query("select doc_id, domain from document where testbed_id = ? "
                       "order by doc_index", [tid])
    segs = store.query("select doc_id, seg_in_doc from segment where testbed_id = ? "
                       "order by seg_id", [tid])
    roles = dict(store.query("select name, role from translator where testbed_id = ? "
                             "order by translator_id", [tid]))
    return TestbedInfo(name, src, tgt, [d for d, _ in docs], [d for d, _ in segs],
                       [k for _, k in segs], roles, dict(docs))

