"""`ulcdb score` and ``Database.score``: resolve the selection, compute the missing scores,
read them back as matrices (one per level) with ULC, and QUEEN where asked.

``scored`` is the step every scoring command shares (queen, king, jack and compare too):
the selection is resolved and the pairs planned on a read-only store, and the store is
written only when scores are missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ulcdb.errors import choice
from ulcdb.ops.access import Access
from ulcdb.ops.levels import levels_of
from ulcdb.qarla.measures import QUEEN_MIN_REFS, check_refs, queen_values
from ulcdb.scoring.engines import Engine
from ulcdb.scoring.progress import Progress, scoring_steps
from ulcdb.scoring.remedy import remedy
from ulcdb.scoring.report import Matrix, higher_is_better, score_matrix
from ulcdb.scoring.scorer import Pair, Scorer, plan_pairs, variant_of
from ulcdb.scoring.scorer import ScoreReport as ScoringReport
from ulcdb.scoring.selection import ScoreSelection, select
from ulcdb.store.database import Store, named_query

ULC_METHODS = ("asiya", "raw", "seg-mean")  # ULC's normalisations (`ulcdb score --ulc`)
PairPlan = Callable[[Store, ScoreSelection], list[Pair]]
Check = Callable[[list[str]], object]


@dataclass(frozen=True)
class Request:
    """What to score: -t -m -s -r -T, the case (None: the test bed's) and the annotator."""

    testbed: str | None = None
    metrics: str | None = None
    systems: str | None = None
    refs: str | None = None
    segments: str | None = None
    lowercase: bool | None = None
    annotator: str = "spacy"
    annotator_model: str | None = None

    def select(self, store: Store) -> ScoreSelection:
        return select(store, self.testbed, self.metrics, self.systems, self.refs,
                      self.segments, self.lowercase, self.annotator, self.annotator_model)


@dataclass(frozen=True)
class Scoring:
    """How missing scores are computed."""

    remake: bool = False
    jobs: int | None = None
    engine: Engine | None = None
    progress: Progress | None = None


SCORING = Scoring()  # every core, no progress display


class Scored(NamedTuple):
    """What ``scored`` yields: a store holding the scores of ``pairs``."""

    store: Store
    selection: ScoreSelection
    pairs: list[Pair]
    summary: str
    computed: bool  # some scores were missing (and are now stored)
    imported: tuple[str, ...] = ()  # the summary's note on imported scores used as they are


def all_pairs(jack: bool = False) -> PairPlan:
    """Every pair ULC and QARLA need; with ``jack``, also each system against each other."""
    return lambda store, sel: plan_pairs(sel.systems, sel.refs, jack=jack)


@contextmanager
def scored(access: Access, request: Request, scoring: Scoring = SCORING, *,
           pairs: PairPlan | None = None, check: Check | None = None) -> Iterator[Scored]:
    """Resolve ``request`` and plan its pairs (``pairs``, default ``all_pairs()``) on the
    store read; compute the missing scores on the store written only when some are missing;
    yield the store with the scores.  ``check(refs)`` runs before anything is scored."""
    with access.read() as store:
        sel = request.select(store)
        if check is not None:
            check(sel.refs)
        planned = (pairs or all_pairs())(store, sel)
        scorer = Scorer(store, sel.testbed, sel.params, scoring.jobs)
        if not scorer.pending(sel.metrics, planned, scoring.remake):
            stored = scorer.run(sel.metrics, planned)
            yield Scored(store, sel, planned, stored.summary(), False, tuple(stored.notes()))
            return
        what = _missing(scorer, sel.metrics, planned, scoring.remake)
    with access.write(what) as store:
        done = _compute(store, sel, planned, scoring)
    with access.read() as store:
        yield Scored(store, sel, planned, done.summary(), True, tuple(done.notes()))


def _missing(scorer: Scorer, metrics: list[str], pairs: list[Pair], remake: bool) -> str:
    """What a read-only store would refuse to store, naming the metrics."""
    if remake:
        return f"the scores of {', '.join(metrics)} again (remake)"
    names = [m for m in metrics if scorer.pending([m], pairs)]
    return f"the missing scores of {', '.join(names or metrics)}"


def _compute(store: Store, sel: ScoreSelection, pairs: list[Pair], scoring: Scoring
             ) -> ScoringReport:
    """Compute what is missing, advancing ``scoring.progress``; what was computed."""
    scorer = Scorer(store, sel.testbed, sel.params, scoring.jobs, scoring.engine)
    if scoring.progress is None:
        return scorer.run(sel.metrics, pairs, remake=scoring.remake)
    with scoring.progress(scoring_steps(sel.metrics, len(pairs))) as advance:
        return scorer.run(sel.metrics, pairs, remake=scoring.remake, progress=advance)


def queen_check(queen: bool) -> Check | None:
    """The reference count QUEEN needs, checked before scoring (None without QUEEN)."""
    return (lambda refs: check_refs(refs, QUEEN_MIN_REFS, "QUEEN")) if queen else None


@dataclass
class ScoreReport:
    """The matrices of `ulcdb score`, one per level, and each column's direction."""

    matrices: dict[str, Matrix]
    directions: dict[str, bool]

    @property
    def columns(self) -> list[str]:
        """The columns of the one flat table of every level (csv, json, the API)."""
        metrics = next(iter(self.matrices.values())).metrics
        return ["level", "refset", "variant", "translator", "unit", *metrics]

    def rows(self) -> list[tuple[Any, ...]]:
        return [(m.level, m.refset, m.variant, t, u, *vals)
                for m in self.matrices.values() for t, u, vals in m.rows]


@contextmanager
def score(access: Access, request: Request, scoring: Scoring = SCORING, *,
          level: str = "sys", ulc: str = "asiya", queen: bool = False, jack: bool = False,
          sort: str | None = None) -> Iterator[tuple[Scored, ScoreReport]]:
    """`ulcdb score`: the level checked, the missing scores computed (with ``jack``, each
    system against each other too), the report read (see ``report``)."""
    levels_of(level)  # before anything is scored
    choice("ulc", ulc, ULC_METHODS)
    with scored(access, request, scoring, pairs=all_pairs(jack),
                check=queen_check(queen)) as done:
        read = report(done, level, ulc, queen, sort)
        notes = [*filter(None, [segments_note(request.segments, done.selection, level),
                                ulc_scope_note(done, request, ulc)]),
                 *blank_notes(done, read)]
        if notes:
            done = done._replace(selection=replace(done.selection,
                                                   notes=(*done.selection.notes, *notes)))
        yield done, read


def ulc_scope_note(done: Scored, request: Request, ulc: str) -> str | None:
    """ULC normalises each metric over the systems in scope (Asiya's hi and lo): with -s
    naming some systems, a system's ULC is not the one of the whole test bed."""
    sel = done.selection
    if request.systems is None or ulc == "raw":
        return None
    every = done.store.translators(done.store.testbed_id(sel.testbed), "system")
    if set(every) <= set(sel.systems):
        return None
    n = len(sel.systems)
    return (f"ULC normalised over the {n} system{'s' if n != 1 else ''} chosen with -s (of "
            f"{len(every)}): another choice of systems gives other ULC values")


def blank_notes(done: Scored, read: ScoreReport) -> list[str]:
    """A metric column left blank in some rows (scores imported for some systems, levels or
    variants only): how many, why where it is blank throughout, and that ULC is blank with
    it (the table alone shows empty cells, as if nothing was asked)."""
    sel, notes = done.selection, []
    variant, refset = variant_of(sel.params), "+".join(sorted(sel.refs))
    for lv, matrix in read.matrices.items():
        for j, metric in enumerate(matrix.metrics):
            blank = sum(1 for _, _, vals in matrix.rows if vals[j] is None)
            if metric in ("ULC", "QUEEN") or (matrix.rows and not blank):
                continue  # no row at all: blank throughout too
            ulc = ", ULC blank with it" if "ULC" in matrix.metrics else ""
            if blank < len(matrix.rows):
                notes.append(f"{metric}: blank in {blank} of {len(matrix.rows)} {lv}-level rows "
                             f"(no score against {refset}){ulc}")
                continue
            others = [v for (v,) in done.store.query(named_query("compare_variants"),
                                                     [sel.testbed, metric, refset])
                      if v != variant]
            why = (f"its scores against {refset} are of variant {', '.join(others)}"
                   if others else remedy(done.store, sel.testbed, [metric], [refset], lv,
                                         variant=variant))
            notes.append(f"{metric}: blank at {lv} level (no score under {variant}){ulc}: {why}")
    return notes


def segments_note(spec: str | None, sel: ScoreSelection, level: str) -> str | None:
    """-T picks the segment rows shown; document and system scores (and their ULC) stay
    those of every segment, which IQMT's -T (and `ulcdb king -T`) would have restricted."""
    above = [lv for lv in levels_of(level) if lv != "seg"]
    if sel.segments is None or not above:
        return None
    return (f"-T {spec} selects the segment rows shown: {' and '.join(above)} scores are over "
            "every segment of the test bed (`ulcdb compare --where` and `ulcdb meta --where` "
            "recompute them on a subset of segments)")


def report(scored: Scored, level: str, ulc: str = "asiya", queen: bool = False,
           sort: str | None = None) -> ScoreReport:
    """The scores of ``scored`` at ``level`` (seg, doc, sys or all) against the whole
    reference set, with ULC (``ulc``: asiya, raw or seg-mean) and a QUEEN column.  ``sort``:
    rows by this column, best first (``none``: test-bed order); by default system-level rows
    by their last column (ULC, or QUEEN), best first: in every format, as the table shows
    them."""
    store, sel = scored.store, scored.selection
    variant = variant_of(sel.params)
    refset = "+".join(sorted(sel.refs))
    matrices = {lv: score_matrix(store, sel.testbed, lv, sel.metrics, sel.systems, refset,
                                 variant, ulc, sel.segments) for lv in levels_of(level)}
    if queen:
        for lv, matrix in matrices.items():
            # Over every segment, like the metric columns beside it (-T only filters rows).
            q = queen_values(store, sel.testbed, lv, sel.metrics, sel.systems, sel.refs,
                             variant)
            matrix.metrics.append("QUEEN")
            matrix.rows = [(t, u, [*v, q.get((t, u))]) for t, u, v in matrix.rows]
    directions = higher_is_better(store, sel.metrics) | {"QUEEN": True}
    for lv, matrix in matrices.items():
        if sort == "none" or not matrix.metrics:
            continue
        if sort is not None:
            matrix.sort_by(sort, directions.get(sort, True))
        elif lv == "sys":
            last = matrix.metrics[-1]
            matrix.sort_by(last, directions.get(last, True))
    return ScoreReport(matrices, directions)
