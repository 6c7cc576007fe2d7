"""`ulcdb queen`, `ulcdb king` and `ulcdb jack`: QARLA over the stored scores (computed first
where missing, as `ulcdb score` does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal, get_args

import typer

from ulcdb.cli.common import Fmt, console, err_console, one_of, render, store_file
from ulcdb.cli.options import (
    AnnotatorModelOpt,
    AnnotatorOpt,
    CaseOpt,
    FmtOpt,
    JobsOpt,
    LevelOpt,
    QarlaSelectionOpts,
    RemakeOpt,
    SelectionOpts,
    grouped,
)
from ulcdb.cli.score import print_notes, request, scoring

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ulcdb.ops.qarla import King, Over, Qarla, Queen
    from ulcdb.ops.score import Request, Scoring
    from ulcdb.qarla.measures import KingRow, Scope

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


def _over(opts: ScopeOpts) -> Over:
    from ulcdb.ops.qarla import Over

    return Over(opts.level, opts.strict, opts.trans_topic)


def _args(picked: SelectionOpts, opts: ScopeOpts, run: RunOpts) -> tuple[Request, Scoring]:
    """The library's request and scoring of the command's options."""
    return (request(picked, opts.segments, run.case, (run.annotator, run.annotator_model)),
            scoring(run.remake, run.jobs))


@grouped
def queen(
    picked: QarlaSelectionOpts,
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
    from ulcdb.ops import qarla

    result = qarla.queen(store_file, *_args(picked, opts, run), _over(opts),
                         asiya_doc=asiya_doc, doref=doref)
    print_notes(result.notes, result.summary)
    _print_queen(result, run.fmt)


def _what(scope: Scope, lv: str) -> str:
    """The part of a QARLA title that says what the numbers are."""
    return (f"{{{', '.join(scope.metrics)}}}, {lv} level, references "
            f"{'+'.join(scope.refs)}, variant {scope.variant}")


def _print_signatures(result: Qarla) -> None:
    """The signatures of the single-reference scores QARLA is computed from (at any level:
    system-level QARLA may be computed from segment scores)."""
    for line in result.signatures:
        console.print(line, style="dim", highlight=False, soft_wrap=True)


def _print_queen(result: Queen, fmt: Fmt) -> None:
    if fmt != Fmt.table:
        render(result.COLUMNS, result.records(), fmt)
        return
    for lv, level_rows in result.rows.items():
        render([lv.upper(), "against", "hits", "triples", "QUEEN"],
               [(r.translator if lv == "sys" else f"{r.translator}:{r.unit}", r.refset,
                 r.hits, r.triples, r.queen) for r in level_rows], fmt,
               title=f"QUEEN over {_what(result.scope, lv)}")
        _print_signatures(result)


@grouped
def king(
    picked: QarlaSelectionOpts,
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
        "ULC; auto: QUEEN with 4+ references, else ULC.",
        **one_of("by", get_args(KingBy)))] = "auto",
    *,
    run: RunOpts,
) -> None:
    """KING of each metric and metric set: how well it tells human from automatic output.

    How often a held-out reference scores at least as high as every system against the
    other references (through ULC, and QUEEN with 4+ references).  --optimize searches the
    metric set with the highest KING.

    Example: ulcdb king -m LEX --optimize
    """
    from ulcdb.ops import qarla

    out = console if run.fmt == Fmt.table else err_console  # stdout: machine-readable
    search = "exhaustive" if exhaustive else "optimize" if optimize else None
    result = qarla.king(store_file, *_args(picked, opts, run), _over(opts), by=by,
                        asiya_doc=asiya_doc, search=search,
                        log=lambda line: out.print(line, highlight=False))
    print_notes(result.notes, result.summary)
    if search is not None:
        if run.fmt != Fmt.table:
            render(result.columns(), result.records(), run.fmt)
        return
    _print_king(result, orange, run.fmt)


def _print_king(result: King, orange: bool, fmt: Fmt) -> None:
    if fmt != Fmt.table:
        render(result.columns(orange), result.records(orange), fmt)
        return
    cols = ["measure", "KING", *(["ORANGE"] if orange else [])]
    for lv, level_rows in result.rows.items():
        render(cols, [(r.measure, r.king, *([r.orange] if orange else []))
                      for r in level_rows], fmt, title=f"KING of {_what(result.scope, lv)}")
        if line := _king_cases(level_rows, lv, len(result.scope.systems), orange):
            console.print(line, style="dim", highlight=False, soft_wrap=True)
        _print_signatures(result)


def _king_cases(rows: list[KingRow], level: str, systems: int, orange: bool) -> str:
    """What a KING (and ORANGE) is the share of: a table of bare numbers said neither the
    cases counted nor the systems a held-out reference must beat."""
    cases = {r.cases for r in rows}
    if len(cases) != 1:
        return ""
    (n,) = cases
    unit = {"seg": "a held-out reference and a segment", "doc": "a held-out reference and "
            "a document", "sys": "one per held-out reference"}[level]
    line = (f"KING: the share of {n:,} cases ({unit}) in which the "
            f"held-out reference scores at least as high as each of the {systems} systems "
            "against the other references")
    if orange:
        line += f"; ORANGE: the share of its {n * systems:,} (case, system) pairs"
    return line


@grouped
def jack(picked: QarlaSelectionOpts, opts: ScopeOpts, *, run: RunOpts) -> None:
    """JACK of the test set: how reliable its references are for the metric set (QARLA).

    The share of (reference, unit) cases with two systems of QUEEN > 0 that are closer to
    the reference than to each other under every metric.  Scores each system against each
    other system when missing.

    Example: ulcdb jack -m BLEU,NIST,GTM-2
    """
    from ulcdb.ops import qarla

    result = qarla.jack(store_file, *_args(picked, opts, run), _over(opts))
    print_notes(result.notes, result.summary)
    scope = result.scope
    render(result.COLUMNS, result.records(), run.fmt,
           title=f"JACK over {{{', '.join(scope.metrics)}}}, references "
                 f"{'+'.join(scope.refs)}, variant {scope.variant}")
    if run.fmt == Fmt.table:
        _print_signatures(result)


def register(app: typer.Typer) -> None:
    app.command()(queen)
    app.command()(king)
    app.command()(jack)
