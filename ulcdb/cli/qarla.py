"""`ulcdb queen`, `ulcdb king` and `ulcdb jack`: QARLA over the stored scores (computed first
where missing, as `ulcdb score` does)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from ulcdb.cli.common import Fmt, console, err_console, render
from ulcdb.cli.options import (
    AnnotatorModelOpt,
    AnnotatorOpt,
    CaseOpt,
    FmtOpt,
    JobsOpt,
    LevelOpt,
    RemakeOpt,
    SelectionOpts,
    grouped,
)
from ulcdb.cli.score import all_pairs, scoring_store

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ulcdb.qarla import KingRow, QueenRow, Scope
    from ulcdb.store import Store

KingBy = Literal["auto", "queen", "ulc"]

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


@dataclass(frozen=True)
class ScopeOpts:
    """What QUEEN, KING and JACK are computed over, besides -t -m -s -r."""

    segments: SegsOpt = None
    level: LevelOpt = "seg"
    strict: StrictOpt = False
    trans_topic: TransTopicOpt = False


SYS_LEVEL = ScopeOpts(level="sys")  # QUEEN's default


@dataclass(frozen=True)
class RunOpts:
    """How the QARLA commands compute missing scores and print."""

    case: CaseOpt = None
    fmt: FmtOpt = Fmt.table
    remake: RemakeOpt = False
    jobs: JobsOpt = None
    annotator: AnnotatorOpt = "spacy"
    annotator_model: AnnotatorModelOpt = None


@contextmanager
def _scoped(picked: SelectionOpts, opts: ScopeOpts, run: RunOpts, jack: bool = False,
            check: Callable[[list[str]], object] | None = None) -> Iterator[tuple[Store, Scope]]:
    """Resolve the selections, compute whatever scores are missing, yield the (read-only)
    store and the QARLA scope."""
    from ulcdb.qarla import Scope, check_scores
    from ulcdb.scoring import variant_of

    with scoring_store(picked, opts.segments, run.case, (run.annotator, run.annotator_model),
                       pairs=all_pairs(jack), remake=run.remake, jobs=run.jobs,
                       check=check) as scored:
        err_console.print(scored.summary, style="dim", highlight=False)
        sel = scored.selection
        scope = Scope(sel.testbed, variant_of(sel.params), tuple(sel.metrics),
                      tuple(sel.systems), tuple(sel.refs),
                      tuple(sel.segments) if sel.segments is not None else None,
                      opts.strict, opts.trans_topic)
        check_scores(scored.store, scope)
        yield scored.store, scope


def _levels(level: str) -> tuple[str, ...]:
    from ulcdb.report import LEVELS

    return LEVELS if level == "all" else (level,)


@grouped
def queen(
    picked: SelectionOpts,
    opts: ScopeOpts = SYS_LEVEL,
    asiya_doc: AsiyaDocOpt = False,
    doref: Annotated[bool, typer.Option(
        "--doref", help="Also evaluate each reference against the other references.")] = False,
    *,
    run: RunOpts,
) -> None:
    """QUEEN of each system: how human-like its output is (QARLA).

    The share of reference triples <r, r', r''> for which every metric of the set has
    x(system, r) >= x(r', r'').  Needs 3+ references.

    Example: ulcdb queen -m BLEU,NIST,GTM-2 -G sys
    """
    from ulcdb.qarla import QUEEN_MIN_REFS, check_refs, queen_rows

    with _scoped(picked, opts, run,
                 check=lambda r: check_refs(r, QUEEN_MIN_REFS, "QUEEN")) as (store, scope):
        rows = {lv: queen_rows(store, scope, lv, doc_cumulative=asiya_doc, with_refs=doref)
                for lv in _levels(opts.level)}
        _print_queen(store, scope, rows, run.fmt)


def _what(scope: Scope, lv: str) -> str:
    """The part of a QARLA title that says what the numbers are."""
    return (f"{{{', '.join(scope.metrics)}}}, {lv} level, references "
            f"{'+'.join(scope.refs)}, variant {scope.variant}")


def _print_signatures(store: Store, scope: Scope, king: list[KingRow] | None = None) -> None:
    """The signatures of the scores the table was computed from (qarla.used_signatures)."""
    from ulcdb.qarla import used_signatures
    from ulcdb.report import signature_lines

    for line in signature_lines(used_signatures(store, scope, king)):
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


@grouped
def king(
    picked: SelectionOpts,
    opts: ScopeOpts,
    asiya_doc: AsiyaDocOpt = False,
    orange: Annotated[bool, typer.Option("--orange", help="Also show ORANGE.")] = False,
    optimize: Annotated[bool, typer.Option(
        "--optimize", help="Greedy search for the metric set with the highest KING (IQMT "
        "manual 3.3).")] = False,
    exhaustive: Annotated[bool, typer.Option(
        "--exhaustive", help="Try every subset of the metrics (small pools only).")] = False,
    by: Annotated[KingBy, typer.Option(
        "--by", help="KING of a metric set through its QUEEN (needs 4+ references) or its "
        "ULC; auto: QUEEN with 4+ references, else ULC.")] = "auto",
    *,
    run: RunOpts,
) -> None:
    """KING of each metric and metric set: how well it tells human from automatic output.

    How often a held-out reference scores at least as high as every system against the
    other references (through ULC, and QUEEN with 4+ references).  --optimize searches the
    metric set with the highest KING.

    Example: ulcdb king -m LEX --optimize
    """
    from ulcdb.qarla import (
        KING_QUEEN_MIN_REFS,
        exhaustive_king,
        king_measure,
        king_rows,
        optimize_king,
    )

    with _scoped(picked, opts, run,
                 check=lambda r: king_measure(r, by)) as (store, scope):
        measure = king_measure(list(scope.refs), by)
        if optimize or exhaustive:
            search = exhaustive_king if exhaustive else optimize_king
            out = console if run.fmt == Fmt.table else err_console  # stdout: machine-readable
            found = [search(store, scope, lv, measure,
                            log=lambda line: out.print(line, highlight=False))
                     for lv in _levels(opts.level)]
            if run.fmt != Fmt.table:
                render(["level", "through", "metrics", "KING"],
                       [(f.level, f.measure, " ".join(f.best), f.king) for f in found],
                       run.fmt)
            return
        measures = ["single", "ulc"]
        if len(scope.refs) >= KING_QUEEN_MIN_REFS:
            measures.append("queen")
        rows = {lv: king_rows(store, scope, lv, measures, doc_cumulative=asiya_doc)
                for lv in _levels(opts.level)}
        _print_king(store, scope, rows, orange, run.fmt)


def _print_king(store: Store, scope: Scope, rows: dict[str, list[KingRow]], orange: bool,
                fmt: Fmt) -> None:
    cols = ["measure", "KING", *(["ORANGE"] if orange else [])]

    def body(level_rows: list[KingRow]) -> list[tuple[Any, ...]]:
        return [(r.measure, r.king, *([r.orange] if orange else [])) for r in level_rows]

    if fmt != Fmt.table:
        render(["level", *cols, "refs", "variant"],
               [(lv, *b, "+".join(scope.refs), scope.variant)
                for lv, lr in rows.items() for b in body(lr)], fmt)
        return
    for lv, level_rows in rows.items():
        render(cols, body(level_rows), fmt, title=f"KING of {_what(scope, lv)}")
        _print_signatures(store, scope, level_rows)


@grouped
def jack(picked: SelectionOpts, opts: ScopeOpts, *, run: RunOpts) -> None:
    """JACK of the test set: how reliable its references are for the metric set (QARLA).

    The share of (reference, unit) cases with two systems of QUEEN > 0 that are closer to
    the reference than to each other under every metric.  Scores each system against each
    other system when missing.

    Example: ulcdb jack -m BLEU,NIST,GTM-2
    """
    from ulcdb.qarla import QUEEN_MIN_REFS, check_refs, jack_value

    with _scoped(picked, opts, run, jack=True,
                 check=lambda r: check_refs(r, QUEEN_MIN_REFS, "JACK (through QUEEN)")
                 ) as (store, scope):
        rows = []
        for lv in _levels(opts.level):
            result = jack_value(store, scope, lv)
            rows.append((lv, result.jack, result.hits, result.cases,
                         "+".join(scope.refs), scope.variant))
        render(["level", "JACK", "hits", "cases", "refs", "variant"], rows, run.fmt,
               title=f"JACK over {{{', '.join(scope.metrics)}}}, references "
                     f"{'+'.join(scope.refs)}, variant {scope.variant}")
        if run.fmt == Fmt.table:
            _print_signatures(store, scope)


def register(app: typer.Typer) -> None:
    app.command()(queen)
    app.command()(king)
    app.command()(jack)
