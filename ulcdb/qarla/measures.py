"""QARLA (IQMT manual section 3): QUEEN, KING, ORANGE and JACK read from the SQL macros
(schema/views/queen.sql, king.sql, orange.sql, jack.sql), and KING's metric-set search.

Python only checks the request, passes it to the macros as parameters and orchestrates the
search loops; every number comes from SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from itertools import combinations

import duckdb

from ulcdb.errors import NotFound, StoreError
from ulcdb.scoring.remedy import remedy
from ulcdb.store.database import Store, named_query

QUEEN_MIN_REFS = 3
KING_MIN_REFS = 2
KING_QUEEN_MIN_REFS = 4
QUEEN_MAX_METRICS = 128  # jack packs one 8-bit counter per reference (QUEEN shares the limit)
EXHAUSTIVE_MAX_METRICS = 12
MEASURES = ("single", "ulc", "queen")


@dataclass(frozen=True)
class Scope:
    """What QARLA is computed over: one test bed, variant, metric set, systems, references."""

    testbed: str
    variant: str
    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    refs: tuple[str, ...]
    segments: tuple[int, ...] | None = None  # -T: seg_ids, or None for all
    strict: bool = False  # r, r', r'' all distinct
    trans_topic: bool = False  # x(r', r'') from every segment (-TT)

    def with_metrics(self, metrics: Iterable[str]) -> Scope:
        return replace(self, metrics=tuple(metrics))

    def macro_args(self) -> list[list[str] | bool | list[int] | None]:
        """Values for `refs := ?, systems := ?, strict := ?, trans_topic := ?, segs := ?,
        testbeds := ?` (the macros then work on this test bed's rows alone)."""
        segs = list(self.segments) if self.segments is not None else None
        return [list(self.refs), list(self.systems), self.strict, self.trans_topic, segs,
                [self.testbed]]


@dataclass(frozen=True)
class QueenRow:
    translator: str
    role: str
    refset: str  # the references the triples came from
    unit: str  # '' (sys), doc_id (doc) or seg_id (seg)
    hits: int
    triples: int
    queen: float | None


@dataclass(frozen=True)
class KingRow:
    measure: str  # metric name, 'ULC' or 'QUEEN'
    king: float
    orange: float
    cases: int


@dataclass(frozen=True)
class JackResult:
    jack: float
    hits: int
    cases: int


@dataclass
class Search:
    """Result of a KING metric-set search, with the steps it printed."""

    measure: str
    level: str
    ranking: list[tuple[str, float]] = field(default_factory=list)
    best: tuple[str, ...] = ()
    king: float = 0.0
    steps: list[str] = field(default_factory=list)


# -- checks --------------------------------------------------------------------------------

def check_refs(refs: Iterable[str], need: int, what: str) -> None:
    n = len(list(refs))
    if n < need:
        raise StoreError(f"{what} needs at least {need} references: the reference set has {n}")


def check_queen(scope: Scope, what: str = "QUEEN", need: int = QUEEN_MIN_REFS) -> None:
    check_refs(scope.refs, need, what)
    n = len(set(scope.metrics))
    if n > QUEEN_MAX_METRICS:
        raise StoreError(f"{what} takes at most {QUEEN_MAX_METRICS} metrics at once, not {n}")


def check_scores(store: Store, scope: Scope) -> None:
    """Every metric must have segment scores against the single references."""
    rows = store.query(named_query("qarla_scored_metrics"),
                       [scope.testbed, scope.variant, list(scope.metrics), "seg",
                        list(scope.refs)])
    have = {r[0] for r in rows}
    missing = [m for m in scope.metrics if m not in have]
    if missing:
        raise NotFound(f"no segment scores of {', '.join(missing)} against single references in "
                       f"test bed {scope.testbed!r} ({scope.variant}): "
                       + remedy(store, scope.testbed, missing, scope.refs, "seg",
                                variant=scope.variant))


def king_measure(refs: Iterable[str], measure: str) -> str:
    """'auto' picks QUEEN-based KING with 4+ references, ULC-based KING below."""
    n = len(list(refs))
    if measure == "auto":
        return "queen" if n >= KING_QUEEN_MIN_REFS else "ulc"
    if measure not in MEASURES:
        raise StoreError(f"unknown KING measure {measure!r} (use one of {', '.join(MEASURES)})")
    if measure == "queen":
        check_refs(refs, KING_QUEEN_MIN_REFS, "KING with QUEEN (QUEEN against R minus one "
                   "reference needs 3)")
    else:
        check_refs(refs, KING_MIN_REFS, "KING")
    return measure


# -- the systems compared ------------------------------------------------------------------

@dataclass(frozen=True)
class Compared:
    """The systems QARLA compares by default over some references: those asked for, less
    the systems that are the text of one of the references (``copies``: system, reference;
    WMT20's Human-A.0 is ref-A, `reference_copies`), as mt-metrics-eval leaves out the
    systems that are the references in use (with ref-B held out, KING would compare ref-B
    with Human-A.0 against ref-A, a score the release does not have, so Human-A.0 would
    never be beaten and KING would be 0)."""

    systems: tuple[str, ...]
    copies: tuple[tuple[str, str], ...]


def compared_systems(con: duckdb.DuckDBPyConnection, testbed: str, systems: Iterable[str],
                     refs: Iterable[str]) -> Compared:
    """The rule `ulcdb queen`, `king` and `jack` and the serve mirror share."""
    systems = list(systems)
    copies = [(str(s), str(r)) for s, r in con.execute(
        named_query("qarla_reference_copies"), [testbed, systems, list(refs)]).fetchall()]
    left_out = {s for s, _ in copies}
    return Compared(tuple(s for s in systems if s not in left_out), tuple(copies))


# -- what a table was computed from ----------------------------------------------------------

def used_refsets(scope: Scope, measures: Iterable[str] | None = None) -> list[str]:
    """The reference sets whose scores a QARLA table reads: the single references (QUEEN,
    JACK: ``measures`` None; KING through QUEEN), and R - {h} for each held-out reference h
    (KING of each metric, 'single', and of the set's ULC), named as ``king_quality`` names
    them (members sorted, joined with '+')."""
    wanted = set(measures) if measures is not None else {"queen"}
    out = list(scope.refs) if "queen" in wanted else []
    if wanted & {"single", "ulc"}:
        out += ["+".join(sorted(r for r in scope.refs if r != h)) for h in scope.refs]
    return list(dict.fromkeys(out))


def used_signatures(store: Store, scope: Scope, king: Iterable[KingRow] | None = None
                    ) -> dict[str, list[str]]:
    """Signature -> metrics of the scores a QARLA table was computed from (any level:
    system-level QARLA may read segment scores); ``king``: the rows of a KING table."""
    from ulcdb.scoring.report import signatures

    measures = None if king is None else {
        {"QUEEN": "queen", "ULC": "ulc"}.get(r.measure, "single") for r in king}
    return signatures(store, scope.testbed, None, list(scope.metrics),
                      [*scope.systems, *scope.refs], used_refsets(scope, measures),
                      scope.variant)


# -- reading the macros --------------------------------------------------------------------

def _unit(level: str, doc_id: str | None, seg_id: int | None) -> str:
    if level == "seg":
        return str(seg_id)
    return (doc_id or "") if level == "doc" else ""


def queen_rows(store: Store, scope: Scope, level: str, doc_cumulative: bool = False,
               with_refs: bool = True) -> list[QueenRow]:
    """QUEEN per translator and unit, systems first (then references, each against the
    others), in test-bed order."""
    check_queen(scope)
    rows = store.query(
        "select translator, role, refset, doc_id, seg_id, hits, triples, queen "
        "from queen(?, ?, refs := ?, systems := ?, strict := ?, trans_topic := ?, segs := ?, "
        "testbeds := ?, doc_cumulative := ?) where testbed = ? and variant = ? "
        "and (role = 'system' or (? and list_contains(?, translator)))",
        [list(scope.metrics), level, *scope.macro_args(), doc_cumulative, scope.testbed,
         scope.variant, with_refs, list(scope.refs)])
    order = {name: i for i, name in enumerate([*scope.systems, *scope.refs])}
    docs = dict(store.query("select d.doc_id, d.doc_index from document d join testbed t "
                            "using (testbed_id) where t.name = ?", [scope.testbed]))
    rows.sort(key=lambda r: (r[1] != "system", order.get(r[0], len(order)), r[0],
                             docs.get(r[3], 0), r[4] or 0))
    return [QueenRow(t, role, rs, _unit(level, d, s), int(h), int(n), q)
            for t, role, rs, d, s, h, n, q in rows]


def queen_values(store: Store, testbed: str, level: str, metrics: list[str],
                 systems: list[str], refs: list[str], variant: str,
                 strict: bool = False, trans_topic: bool = False,
                 segments: list[int] | None = None) -> dict[tuple[str, str], float | None]:
    """QUEEN per (translator, unit) of the systems, keyed like report.score_matrix's rows
    (unit: seg_id as text, doc_id, or '' at sys level): the QUEEN column of `ulcdb score`."""
    scope = Scope(testbed, variant, tuple(metrics), tuple(systems), tuple(refs),
                  tuple(segments) if segments is not None else None, strict, trans_topic)
    return {(r.translator, r.unit): r.queen
            for r in queen_rows(store, scope, level, with_refs=False)}


def king_rows(store: Store, scope: Scope, level: str, measures: Iterable[str],
              doc_cumulative: bool = False) -> list[KingRow]:
    """KING and ORANGE per measure: each metric ('single'), the set's ULC, the set's QUEEN."""
    measures = list(measures)
    check_refs(scope.refs, KING_MIN_REFS, "KING")
    if "queen" in measures:
        king_measure(scope.refs, "queen")
        check_queen(scope, "KING with QUEEN", KING_QUEEN_MIN_REFS)
    rows = store.query(
        "select measure, king, orange, cases from king(?, ?, measures := ?, refs := ?, "
        "systems := ?, strict := ?, trans_topic := ?, segs := ?, testbeds := ?, "
        "doc_cumulative := ?) "
        "where testbed = ? and variant = ?",
        [list(scope.metrics), level, measures, *scope.macro_args(), doc_cumulative,
         scope.testbed, scope.variant])
    order = {m: i for i, m in enumerate([*scope.metrics, "ULC", "QUEEN"])}
    out = [KingRow(m, float(k), float(o), int(c)) for m, k, o, c in rows]
    return sorted(out, key=lambda r: order.get(r.measure, len(order)))


def king_of_set(store: Store, scope: Scope, level: str, measure: str) -> float:
    """KING of the whole metric set through its QUEEN or its ULC ('single': one metric)."""
    wanted = {"queen": "QUEEN", "ulc": "ULC", "single": scope.metrics[0]}[measure]
    for row in king_rows(store, scope, level, [measure]):
        if row.measure == wanted:
            return row.king
    raise NotFound(f"no KING for {wanted} over {', '.join(scope.metrics)}: scores missing")


def jack_value(store: Store, scope: Scope, level: str) -> JackResult:
    """JACK(A, R, X) from the system-vs-system similarities (`ulcdb score --jack`)."""
    check_queen(scope, "JACK (through QUEEN)")
    if len(scope.systems) < 2:
        raise StoreError("JACK needs at least 2 systems")
    have = {r[0] for r in store.query(named_query("qarla_system_scored"), [
        scope.testbed, scope.variant, level, list(scope.metrics), "system"])}
    missing = [m for m in dict.fromkeys(scope.metrics) if m not in have]
    if missing:
        raise NotFound(f"JACK needs system-vs-system scores of every metric, and "
                       f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} none: "
                       + remedy(store, scope.testbed, missing, scope.systems, level,
                                variant=scope.variant, jack=True))
    row = store.query(
        "select jack, hits, cases from jack(?, ?, refs := ?, systems := ?, strict := ?, "
        "trans_topic := ?, segs := ?, testbeds := ?) where testbed = ? and variant = ?",
        [list(scope.metrics), level, *scope.macro_args(), scope.testbed, scope.variant])
    if not row:
        raise NotFound(f"no QUEEN, hence no JACK, in test bed {scope.testbed!r}")
    jack, hits, cases = row[0]
    return JackResult(float(jack), int(hits), int(cases))


# -- optimizeKING --------------------------------------------------------------------------

def rank_metrics(store: Store, scope: Scope, level: str, measure: str) -> list[tuple[str, float]]:
    """Individual metrics by their KING, best first (ties keep the pool's order)."""
    if measure == "queen":
        kings = [(m, king_of_set(store, scope.with_metrics([m]), level, "queen"))
                 for m in scope.metrics]
    else:  # ULC of one metric ranks like the metric itself
        found = {r.measure: r.king for r in king_rows(store, scope, level, ["single"])}
        kings = [(m, found.get(m, 0.0)) for m in scope.metrics]
    return sorted(kings, key=lambda mk: -mk[1])


def optimize_king(store: Store, scope: Scope, level: str, measure: str = "auto",
                  log: Callable[[str], None] = print) -> Search:
    """The manual's greedy search (section 3.3): rank metrics by KING, then add each in that
    order only if the set's global KING grows.  Logs every step."""
    measure = king_measure(scope.refs, measure)
    search = Search(measure, level)
    say = _logger(search, log)
    say(f"KING through {measure.upper()} at {level} level, pool of {len(scope.metrics)} metrics")
    search.ranking = rank_metrics(store, scope, level, measure)
    for i, (m, k) in enumerate(search.ranking, 1):
        say(f"  rank {i:>2}  {m:<14} KING {k:.4f}")
    first, first_king = search.ranking[0]
    best, current = [first], king_of_set(store, scope.with_metrics([first]), level, measure)
    say(f"start with {{{first}}}: KING {current:.4f}")
    for m, _ in search.ranking[1:]:
        trial = king_of_set(store, scope.with_metrics([*best, m]), level, measure)
        kept = trial > current
        say(f"{'add ' if kept else 'skip'} {m:<14} KING {trial:.4f} "
            f"{'>' if kept else '<='} {current:.4f}")
        if kept:
            best, current = [*best, m], trial
    search.best, search.king = tuple(best), current
    say(f"optimal set {{{', '.join(best)}}}: KING {current:.4f}")
    return search


def exhaustive_king(store: Store, scope: Scope, level: str, measure: str = "auto",
                    log: Callable[[str], None] = print,
                    max_metrics: int = EXHAUSTIVE_MAX_METRICS) -> Search:
    """Every non-empty subset of a small pool; the best KING wins (smaller sets on ties)."""
    measure = king_measure(scope.refs, measure)
    n = len(scope.metrics)
    if n > max_metrics:
        raise StoreError(f"exhaustive search over {n} metrics means {2 ** n - 1} metric sets; "
                         f"use at most {max_metrics} metrics or the greedy --optimize")
    search = Search(measure, level)
    say = _logger(search, log)
    say(f"KING through {measure.upper()} at {level} level, all {2 ** n - 1} subsets of "
        f"{n} metrics")
    best: tuple[str, ...] = ()
    current = -1.0
    for size in range(1, n + 1):
        for subset in combinations(scope.metrics, size):
            k = king_of_set(store, scope.with_metrics(subset), level, measure)
            if k > current:
                best, current = subset, k
                say(f"best so far {{{', '.join(subset)}}}: KING {k:.4f}")
    search.best, search.king = best, current
    say(f"optimal set {{{', '.join(best)}}}: KING {current:.4f}")
    return search


def _logger(search: Search, log: Callable[[str], None]) -> Callable[[str], None]:
    def say(line: str) -> None:
        search.steps.append(line)
        log(line)
    return say
