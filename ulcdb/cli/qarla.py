"""`ulcdb queen`, `ulcdb king` and `ulcdb jack`: QARLA over the stored scores (computed first
where missing, as `ulcdb score` does)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Annotated

import typer

from ulcdb.cli.common import Fmt, console, err_console, render
from ulcdb.cli.score import (
    AnnotatorModelOpt,
    AnnotatorOpt,
    Case,
    LevelOpt,
    MetricsOpt,
    RefsOpt,
    SystemsOpt,
    TestbedOpt,
    scoring_store,
)
from ulcdb.qarla import (
    KING_QUEEN_MIN_REFS,
    QUEEN_MIN_REFS,
    KingRow,
    QueenRow,
    Scope,
    check_refs,
    check_scores,
    exhaustive_king,
    jack_value,
    king_measure,
    king_rows,
    optimize_king,
    queen_rows,
)
from ulcdb.report import LEVELS, signature_lines, signatures
from ulcdb.scoring import variant_of
from ulcdb.store import Store


class KingBy(str, Enum):
    auto = "auto"
    queen = "queen"
    ulc = "ulc"


SegsOpt = Annotated[str | None, typer.Option(
    "-T", "--segments", help="Segment set or ids/ranges (1-10,15): evaluate on these segments "
    "only (IQMT's -T), at every level.")]
StrictOpt = Annotated[bool, typer.Option(
    "--strict", help="Triples of three distinct references (default: Asiya's reading, r may "
    "equal r' or r'').")]
TransTopicOpt = Annotated[bool, typer.Option(
    "-TT", "--trans-topic", help="Draw reference-pair similarities from every segment, not "
    "only the current one (IQeval's -TT).")]
AsiyaDocOpt = Annotated[bool, typer.Option(
    "--asiya-doc", help="Asiya 3.0's cumulative document QUEEN (documents 1..k) instead of "
    "the QUEEN of each document.")]
CaseOpt = Annotated[Case | None, typer.Option(
    "--case", help="all (mixed) or lc (default: the test bed's config, else all).")]
FmtOpt = Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")]
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help="Processes for scoring.")]
RemakeOpt = Annotated[bool, typer.Option("--remake", help="Recompute stored scores.")]


@contextmanager
def _scoped(testbed: str | None, metrics: str | None, systems: str | None, refs: str | None,
            segments: str | None, case: Case | None, strict: bool, trans_topic: bool,
            remake: bool, jobs: int | None, jack: bool = False,
            annotator: tuple[str, str | None] = ("spacy", None),
            check: Callable[[list[str]], object] | None = None) -> Iterator[tuple[Store, Scope]]:
    """Resolve the selections, compute whatever scores are missing, yield the (read-only)
    store and the QARLA scope."""
    with scoring_store(testbed, metrics, systems, refs, segments, case, *annotator,
                       remake=remake, jobs=jobs, jack=jack, check=check) as (store, sel,
                                                                            summary):
        err_console.print(summary, style="dim", highlight=False)
        scope = Scope(sel.testbed, variant_of(sel.params), tuple(sel.metrics),
                      tuple(sel.systems), tuple(sel.refs),
                      tuple(sel.segments) if sel.segments is not None else None,
                      strict, trans_topic)
        check_scores(store, scope)
        yield store, scope


def _levels(level: str) -> tuple[str, ...]:
    return LEVELS if level == "all" else (level,)


def queen(
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    segments: SegsOpt = None,
    level: LevelOpt = "sys",
    strict: StrictOpt = False,
    trans_topic: TransTopicOpt = False,
    asiya_doc: AsiyaDocOpt = False,
    doref: Annotated[bool, typer.Option(
        "--doref", help="Also evaluate each reference against the other references.")] = False,
    case: CaseOpt = None,
    fmt: FmtOpt = Fmt.table,
    remake: RemakeOpt = False,
    jobs: JobsOpt = None,
    annotator: AnnotatorOpt = "spacy",
    annotator_model: AnnotatorModelOpt = None,
) -> None:
    """QUEEN of each system: how human-like its output is (QARLA).

    The share of reference triples <r, r', r''> for which every metric of the set has
    x(system, r) >= x(r', r'').  Needs 3+ references.

    Example: ulcdb queen -m BLEU,NIST,GTM-2 -G sys
    """
    with _scoped(testbed, metrics, systems, refs, segments, case, strict, trans_topic, remake,
                 jobs, annotator=(annotator, annotator_model),
                 check=lambda r: check_refs(r, QUEEN_MIN_REFS, "QUEEN")) as (store, scope):
        rows = {lv: queen_rows(store, scope, lv, doc_cumulative=asiya_doc, with_refs=doref)
                for lv in _levels(level)}
        _print_queen(store, scope, rows, fmt)


def _what(scope: Scope, lv: str) -> str:
    """The part of a QARLA title that says what the numbers are."""
    return (f"{{{', '.join(scope.metrics)}}}, {lv} level, references "
            f"{'+'.join(scope.refs)}, variant {scope.variant}")


def _print_signatures(store: Store, scope: Scope) -> None:
    """The signatures of the single-reference scores QARLA is computed from (at any level:
    system-level QARLA may be computed from segment scores)."""
    sigs = signatures(store, scope.testbed, None, list(scope.metrics),
                      [*scope.systems, *scope.refs], list(scope.refs), scope.variant)
    for line in signature_lines(sigs):
        console.print(line, style="dim", highlight=False, soft_wrap=True)


def _print_queen(store: Store, scope: Scope, rows: dict[str, list[QueenRow]],
                 fmt: Fmt) -> None:
    if fmt != Fmt.table:
        render(["level", "translator", "role", "refset", "variant", "unit", "hits", "triples",
                "QUEEN"],
               [(lv, r.translator, r.role, r.refset, scope.variant, r.unit, r.hits, r.triples,
                 r.queen) for lv, level_rows in rows.items() for r in level_rows], fmt)
        return
    for lv, level_rows in rows.items():
        render([lv.upper(), "against", "hits", "triples", "QUEEN"],
               [(r.translator if lv == "sys" else f"{r.translator}:{r.unit}", r.refset,
                 r.hits, r.triples, r.queen) for r in level_rows], fmt,
               title=f"QUEEN over {_what(scope, lv)}")
        _print_signatures(store, scope)


def king(
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    segments: SegsOpt = None,
    level: LevelOpt = "seg",
    strict: StrictOpt = False,
    trans_topic: TransTopicOpt = False,
    asiya_doc: AsiyaDocOpt = False,
    orange: Annotated[bool, typer.Option("--orange", help="Also show ORANGE.")] = False,
    optimize: Annotated[bool, typer.Option(
        "--optimize", help="Greedy search for the metric set with the highest KING (IQMT "
        "manual 3.3).")] = False,
    exhaustive: Annotated[bool, typer.Option(
        "--exhaustive", help="Try every subset of the metrics (small pools only).")] = False,
    by: Annotated[KingBy, typer.Option(
        "--by", help="KING of a metric set through its QUEEN (needs 4+ references) or its "
        "ULC; auto: QUEEN with 4+ references, else ULC.")] = KingBy.auto,
    case: CaseOpt = None,
    fmt: FmtOpt = Fmt.table,
    remake: RemakeOpt = False,
    jobs: JobsOpt = None,
    annotator: AnnotatorOpt = "spacy",
    annotator_model: AnnotatorModelOpt = None,
) -> None:
    """KING of each metric and metric set: how well it tells human from automatic output.

    How often a held-out reference scores at least as high as every system against the
    other references (through ULC, and QUEEN with 4+ references).  --optimize searches the
    metric set with the highest KING.

    Example: ulcdb king -m LEX --optimize
    """
    with _scoped(testbed, metrics, systems, refs, segments, case, strict, trans_topic, remake,
                 jobs, annotator=(annotator, annotator_model),
                 check=lambda r: king_measure(r, by.value)) as (store, scope):
        measure = king_measure(list(scope.refs), by.value)
        if optimize or exhaustive:
            search = exhaustive_king if exhaustive else optimize_king
            out = console if fmt == Fmt.table else err_console  # stdout stays machine-readable
            found = [search(store, scope, lv, measure,
                            log=lambda line: out.print(line, highlight=False))
                     for lv in _levels(level)]
            if fmt != Fmt.table:
                render(["level", "through", "metrics", "KING"],
                       [(f.level, f.measure, " ".join(f.best), f.king) for f in found], fmt)
            return
        measures = ["single", "ulc"]
        if len(scope.refs) >= KING_QUEEN_MIN_REFS:
            measures.append("queen")
        rows = {lv: king_rows(store, scope, lv, measures, doc_cumulative=asiya_doc)
                for lv in _levels(level)}
        _print_king(store, scope, rows, orange, fmt)


def _print_king(store: Store, scope: Scope, rows: dict[str, list[KingRow]], orange: bool,
                fmt: Fmt) -> None:
    cols = ["measure", "KING", *(["ORANGE"] if orange else [])]

    def body(level_rows: list[KingRow]) -> list[tuple]:
        return [(r.measure, r.king, *([r.orange] if orange else [])) for r in level_rows]

    if fmt != Fmt.table:
        render(["level", *cols, "refs", "variant"],
               [(lv, *b, "+".join(scope.refs), scope.variant)
                for lv, lr in rows.items() for b in body(lr)], fmt)
        return
    for lv, level_rows in rows.items():
        render(cols, body(level_rows), fmt, title=f"KING of {_what(scope, lv)}")
        _print_signatures(store, scope)


def jack(
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    segments: SegsOpt = None,
    level: LevelOpt = "seg",
    strict: StrictOpt = False,
    trans_topic: TransTopicOpt = False,
    case: CaseOpt = None,
    fmt: FmtOpt = Fmt.table,
    remake: RemakeOpt = False,
    jobs: JobsOpt = None,
    annotator: AnnotatorOpt = "spacy",
    annotator_model: AnnotatorModelOpt = None,
) -> None:
    """JACK of the test set: how reliable its references are for the metric set (QARLA).

    The share of (reference, unit) cases with two systems of QUEEN > 0 that are closer to
    the reference than to each other under every metric.  Scores each system against each
    other system when missing.

    Example: ulcdb jack -m BLEU,NIST,GTM-2
    """
    with _scoped(testbed, metrics, systems, refs, segments, case, strict, trans_topic, remake,
                 jobs, jack=True, annotator=(annotator, annotator_model),
                 check=lambda r: check_refs(r, QUEEN_MIN_REFS, "JACK (through QUEEN)")
                 ) as (store, scope):
        rows = []
        for lv in _levels(level):
            result = jack_value(store, scope, lv)
            rows.append((lv, result.jack, result.hits, result.cases,
                         "+".join(scope.refs), scope.variant))
        render(["level", "JACK", "hits", "cases", "refs", "variant"], rows, fmt,
               title=f"JACK over {{{', '.join(scope.metrics)}}}, references "
                     f"{'+'.join(scope.refs)}, variant {scope.variant}")
        if fmt == Fmt.table:
            _print_signatures(store, scope)


def register(app: typer.Typer) -> None:
    app.command()(queen)
    app.command()(king)
    app.command()(jack)
