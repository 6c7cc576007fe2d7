"""`ulcdb queen`, `king` and `jack` and their ``Database`` methods: QARLA over the stored
scores, computed first where missing (as `ulcdb score` does), each metric checked to have
segment scores against the single references."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ulcdb.errors import choice
from ulcdb.ops.access import Access
from ulcdb.ops.levels import levels_of
from ulcdb.ops.score import SCORING, Check, Request, Scored, Scoring, all_pairs, scored
from ulcdb.qarla.measures import (
    KING_QUEEN_MIN_REFS,
    QUEEN_MIN_REFS,
    JackResult,
    KingRow,
    QueenRow,
    Scope,
    Search,
    check_refs,
    check_scores,
    compared_systems,
    exhaustive_king,
    jack_value,
    king_measure,
    king_rows,
    optimize_king,
    queen_rows,
    used_signatures,
)
from ulcdb.scoring.report import signature_lines
from ulcdb.scoring.scorer import variant_of
from ulcdb.store.database import Store, named_query

KING_BY = ("auto", "queen", "ulc")  # KING of a metric set through (`ulcdb king --by`)
SEARCHES = ("optimize", "exhaustive")  # `ulcdb king --optimize`, `--exhaustive`


@dataclass(frozen=True)
class Over:
    """What QUEEN, KING and JACK are computed over, besides the selection: the level (seg,
    doc, sys or all), distinct reference triples (--strict), reference pairs from every
    segment (-TT)."""

    level: str = "sys"
    strict: bool = False
    trans_topic: bool = False


@dataclass
class Qarla:
    """What a QARLA command read: the scope, the scoring summary, the selection's notes and
    the signatures of the scores it was computed from; ``imported``: the summary's note on
    imported scores used as they are."""

    scope: Scope
    summary: str
    notes: tuple[str, ...]
    signatures: list[str]
    levels: tuple[str, ...] = ()
    imported: tuple[str, ...] = ()


@dataclass
class Queen(Qarla):
    rows: dict[str, list[QueenRow]] = field(default_factory=dict)
    COLUMNS = ("level", "translator", "role", "refset", "variant", "unit", "hits", "triples",
               "QUEEN")

    def records(self) -> list[tuple[Any, ...]]:
        return [(lv, r.translator, r.role, r.refset, self.scope.variant, r.unit, r.hits,
                 r.triples, r.queen) for lv, rows in self.rows.items() for r in rows]


@dataclass
class King(Qarla):
    rows: dict[str, list[KingRow]] = field(default_factory=dict)  # without a search
    found: list[Search] = field(default_factory=list)  # --optimize / --exhaustive

    def columns(self, orange: bool = False) -> list[str]:
        if self.found:
            return ["level", "through", "metrics", "KING"]
        return ["level", "measure", "KING", *(["ORANGE"] if orange else []), "cases",
                "systems", "refs", "variant"]  # cases: held-out reference x unit

    def records(self, orange: bool = False) -> list[tuple[Any, ...]]:
        if self.found:
            return [(f.level, f.measure, " ".join(f.best), f.king) for f in self.found]
        return [(lv, r.measure, r.king, *([r.orange] if orange else []), r.cases,
                 len(self.scope.systems), "+".join(self.scope.refs), self.scope.variant)
                for lv, rows in self.rows.items() for r in rows]


@dataclass
class Jack(Qarla):
    values: dict[str, JackResult] = field(default_factory=dict)
    COLUMNS = ("level", "JACK", "hits", "cases", "refs", "variant")

    def records(self) -> list[tuple[Any, ...]]:
        return [(lv, j.jack, j.hits, j.cases, "+".join(self.scope.refs), self.scope.variant)
                for lv, j in self.values.items()]


@contextmanager
def scoped(access: Access, request: Request, scoring: Scoring, over: Over, *,
           jack: bool = False, check: Check | None = None
           ) -> Iterator[tuple[Store, Qarla]]:
    """The level checked, the missing scores computed, the scope checked for segment
    scores of every metric; the store and what every QARLA command reports."""
    levels = levels_of(over.level)
    with scored(access, request, scoring, pairs=all_pairs(jack), check=check) as done:
        scope, copies_note = _scope(done, over, explicit=request.systems is not None)
        check_scores(done.store, scope)
        notes = (*done.selection.notes, *copies_note,
                 *_segments_note(request.segments, done.selection.segments))
        yield done.store, Qarla(scope, done.summary, notes,
                                signature_lines(used_signatures(done.store, scope)), levels,
                                done.imported)


def _segments_note(spec: str | None, segments: list[int] | None) -> list[str]:
    """-T restricts QUEEN, KING and JACK at every level (IQMT's -T): the tables' titles
    name the level only, so a note says which segments the values are of."""
    if segments is None:
        return []
    n = len(segments)
    return [f"evaluated on {n} segment{'s' if n != 1 else ''} only (-T {spec}), at every "
            "level: document and system values are those of these segments"]


def _scope(done: Scored, over: Over, explicit: bool) -> tuple[Scope, list[str]]:
    """The scope, and a note where systems of the selection are a reference's own text
    (WMT20's Human-A.0 is ref-A).  Unless the systems were named (-s), they are left out
    (``compared_systems``: the rule the serve mirror applies too)."""
    sel = done.selection
    compared = compared_systems(done.store.con, sel.testbed, sel.systems, sel.refs)
    named = ", ".join(f"{system} (= {ref})" for system, ref in compared.copies)
    systems = tuple(sel.systems)
    if not compared.copies:
        note = []
    elif explicit:
        note = [f"systems that are a reference's own text are compared as systems: {named}; "
                "leave them out with -s to compare the references with the other systems"]
    else:
        systems = compared.systems
        note = [f"left out of the systems compared, as a reference's own text: {named}; "
                "name them with -s to compare them"]
    scope = Scope(sel.testbed, variant_of(sel.params), tuple(sel.metrics), systems,
                  tuple(sel.refs), tuple(sel.segments) if sel.segments is not None else None,
                  over.strict, over.trans_topic)
    return scope, note


def queen(access: Access, request: Request, scoring: Scoring = SCORING, over: Over = Over(),
          *, asiya_doc: bool = False, doref: bool = False) -> Queen:
    """QUEEN of each system (and with ``doref`` each reference) per unit of the levels."""
    with scoped(access, request, scoring, over,
                check=lambda r: check_refs(r, QUEEN_MIN_REFS, "QUEEN")) as (store, q):
        rows = {lv: queen_rows(store, q.scope, lv, doc_cumulative=asiya_doc, with_refs=doref)
                for lv in q.levels}
    return Queen(**vars(q), rows=rows)


def king(access: Access, request: Request, scoring: Scoring = SCORING,
         over: Over = Over("seg"), *, by: str = "auto", asiya_doc: bool = False,
         search: str | None = None, log: Callable[[str], None] = lambda line: None) -> King:
    """KING (and ORANGE) of each metric, ULC and QUEEN; with ``search`` (optimize or
    exhaustive), the metric set of highest KING, each step told to ``log``."""
    choice("by", by, KING_BY)
    if search is not None:
        choice("search", search, SEARCHES)
    with scoped(access, request, scoring, over,
                check=lambda r: king_measure(r, by)) as (store, q):
        measure = king_measure(list(q.scope.refs), by)
        if search is not None:
            find = exhaustive_king if search == "exhaustive" else optimize_king
            return King(**vars(q), found=[find(store, q.scope, lv, measure, log=log)
                                          for lv in q.levels])
        measures = ["single", "ulc"]
        if len(q.scope.refs) >= KING_QUEEN_MIN_REFS:
            measures.append("queen")
        rows = {lv: king_rows(store, q.scope, lv, measures, doc_cumulative=asiya_doc)
                for lv in q.levels}
        q.notes = (*q.notes, *_no_ulc_notes(store, q.scope, rows))
        # KING reads the leave-one-out reference sets R - {h}: their signatures
        q.signatures = signature_lines(used_signatures(
            store, q.scope, [r for level_rows in rows.values() for r in level_rows]))
    return King(**vars(q), rows=rows)


def _no_ulc_notes(store: Store, scope: Scope, rows: dict[str, list[KingRow]]) -> list[str]:
    """Why a KING table has metrics but no ULC row: ULC's bounds come from the systems'
    scores against the whole reference set R, which an imported metric may not have."""
    full = "+".join(sorted(scope.refs))
    notes = []
    for level, level_rows in rows.items():
        if not level_rows or any(r.measure == "ULC" for r in level_rows):
            continue
        have = {m for (m,) in store.query(named_query("qarla_scored_metrics"), [
            scope.testbed, scope.variant, list(scope.metrics), level, [full]])}
        lacking = [m for m in scope.metrics if m not in have]
        why = (f"{', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'} no {level} "
               f"scores against {full}, whose system scores bound ULC's normalisation"
               if lacking else "no unit has a score of every metric against R - {h}")
        notes.append(f"no KING of ULC at {level} level: {why}")
    return notes


def jack(access: Access, request: Request, scoring: Scoring = SCORING,
         over: Over = Over("seg")) -> Jack:
    """JACK of the test set per level (each system scored against each other first)."""
    with scoped(access, request, scoring, over, jack=True,
                check=lambda r: check_refs(r, QUEEN_MIN_REFS, "JACK (through QUEEN)")
                ) as (store, q):
        values = {lv: jack_value(store, q.scope, lv) for lv in q.levels}
    return Jack(**vars(q), values=values)
