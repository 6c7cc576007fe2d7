"""`ulcdb score` and `ulcdb demo`: compute missing scores, report metrics and ULC."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_args

import typer

from ulcdb.cli import common
from ulcdb.cli.common import (
    AddressOpt,
    EngineName,
    EngineOpt,
    Fmt,
    ScaleOpt,
    WidthOpt,
    check_scale,
    console,
    engine_for,
    err_console,
    one_of,
    progress_bar,
    render,
    store_file,
)
from ulcdb.cli.options import (
    AnnotatorModelOpt,
    AnnotatorOpt,
    CaseOpt,
    JobsOpt,
    LevelOpt,
    RemakeOpt,
    SelectionOpts,
    VerbnetOpt,
    grouped,
    use_verbnet,
)
from ulcdb.cli.outputs import folder_option
from ulcdb.errors import InputError, StoreError

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ulcdb.cli.screen import Screen
    from ulcdb.ops.score import Request, Scoring
    from ulcdb.scoring.engines import Engine
    from ulcdb.scoring.report import Matrix

OutFmt = Literal["table", "rankings", "csv", "tsv", "json", "scr"]
UlcMethod = Literal["asiya", "raw", "seg-mean"]

SegsOpt = Annotated[str | None, typer.Option(
    "-T", "--segments", help="Segment set or ids/ranges (1-10,15) shown at segment level.")]
Annotation = tuple[str, str | None]  # --annotator, --annotator-model
# Piped, a table longer than this is plain aligned columns, every metric on a row's one line
# (as `ulcdb list` prints): rich draws about 700 rows a second, so the 20,040 segment rows of
# WMT21 en-de with LEX took a minute and a half, where csv/tsv take seconds.
PLAIN_ROWS = 1000
SPACY: Annotation = ("spacy", None)


def request(picked: SelectionOpts, segments: str | None = None, case: str | None = None,
            annotation: Annotation = SPACY) -> Request:
    """The library's scoring request of -t -m -s -r, -T, --case and the annotator."""
    from ulcdb.ops.score import Request

    return Request(picked.testbed, picked.metrics, picked.systems, picked.refs, segments,
                   None if case is None else case == "lc", *annotation)


def scoring(remake: bool = False, jobs: int | None = None,
            engine: Engine | None = None) -> Scoring:
    """How missing scores are computed, with the progress bar."""
    from ulcdb.ops.score import Scoring

    return Scoring(remake, jobs, engine, progress_bar)


def print_notes(notes: Sequence[str], summary: str | None = None) -> None:
    """The selection's notes (metrics left out for the language) and the scoring summary,
    to stderr."""
    for note in notes:
        err_console.print(note, style="yellow", highlight=False, soft_wrap=True)
    if summary is not None:
        err_console.print(summary, style="dim", highlight=False)


@grouped
def score(
    picked: SelectionOpts,
    segments: SegsOpt = None,
    level: LevelOpt = "sys",
    fmt: Annotated[OutFmt, typer.Option("--format", "-f", help="Output format.",
                                        **one_of("format", get_args(OutFmt)))] = "table",
    case: CaseOpt = None,
    ulc: Annotated[UlcMethod, typer.Option("--ulc", help="ULC normalisation: asiya, raw, or "
                                           "seg-mean (mean of segment ULC).",
                                           **one_of("ulc", get_args(UlcMethod)))] = "asiya",
    remake: RemakeOpt = False,
    jack: Annotated[bool, typer.Option("--jack", help="Also score each system against each "
                                       "other system (for JACK).")] = False,
    jobs: JobsOpt = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for --format scr.",
                                      callback=folder_option)] = Path("."),
    queen: Annotated[bool, typer.Option("--queen", help="Add a QUEEN column (3+ references), "
                                        "as IQeval does.")] = False,
    annotator: AnnotatorOpt = "spacy",
    annotator_model: AnnotatorModelOpt = None,
    sort: Annotated[str | None, typer.Option(
        "--sort", help="Order rows by this column, best first, at every level and in every "
        "format; `none`: test-bed order.  Default: system-level rows by their last column "
        "(ULC, or QUEEN with --queen), best first.")] = None,
    engine: EngineOpt = EngineName.local,
    address: AddressOpt = None,
    verbnet: VerbnetOpt = None,
    scale: ScaleOpt = 1,
    width: WidthOpt = 4,
    full: Annotated[bool, typer.Option(
        "--full", help="On a terminal, print every table, column and row: by default the "
        "metric columns wider than the terminal, the system rows taller than it and the "
        "segment and document tables longer than it are left out, with a note.")] = False,
) -> None:
    """Compute missing scores, store them, and report metrics and ULC per level.

    Scores every chosen system against each reference and the whole reference set (and the
    references against each other, for QARLA); only missing scores are computed.  On a
    terminal the system table fits one screen: it keeps ULC and the metric columns that fit
    the width (ULC's default set first, then one metric of each family in turn) and the best
    rows that fit the height; segment and document tables longer than the terminal are left
    out; a note under the system table names what was left out (--full prints it all).
    Piped output and -f csv/tsv/json hold every table, column and row (piped, a table
    of over 1,000 rows as plain aligned columns, a row a line).

    Example: ulcdb score -m LEX -G all
    """
    from ulcdb.ops import score as ops
    from ulcdb.scoring.report import display_scales, scaled, write_scr
    from ulcdb.scoring.report import families as metric_families

    check_scale(scale, width)
    keep = {"ULC", "QUEEN"} | ({sort} if sort and sort != "none" else set())
    use_verbnet(verbnet)
    runner = engine_for(engine, jobs, address)
    with ops.score(store_file, request(picked, segments, case, (annotator, annotator_model)),
                   scoring(remake, jobs, runner), level=level, ulc=ulc, queen=queen,
                   jack=jack, sort=sort) as (scored, report):
        # a table prints the summary above it; other formats keep stdout for the rows, so
        # the summary's note on imported scores used as they are goes to stderr
        print_notes([*scored.selection.notes, *(scored.imported if fmt != "table" else ())])
        console.print(scored.summary, style="dim", highlight=False) if fmt == "table" else None
        if fmt == "scr":
            for path in write_scr(scored.store, scored.selection.testbed, report.matrices,
                                  out):
                typer.echo(str(path))
            return
        factors = display_scales(scored.store, list(report.directions), scale)
        families = metric_families(scored.store, list(report.directions))
    if fmt in ("csv", "tsv", "json"):  # one table, whatever the levels
        render(report.columns, report.rows(), Fmt(fmt))
        return
    matrices = [scaled(m, factors) for m in report.matrices.values()]
    above = [*scored.selection.notes, scored.summary]
    screen = _screen(matrices, fmt, full, ulc, width, keep, families, above)
    for matrix in screen.shown:
        _print(matrix, fmt, report.directions, ulc, width, screen.per_table)
    if note := screen.note():
        common.console.print(note, style="yellow", highlight=False, soft_wrap=True)


def _screen(matrices: list[Matrix], fmt: OutFmt, full: bool, method: str, digits: int,
            keep: set[str], families: dict[str, str], above: list[str]) -> Screen:
    """What to print: everything when piped or with --full, else what fits the terminal."""
    from ulcdb.cli import screen

    console = common.console
    if full or not console.is_terminal or not matrices:
        return screen.whole(matrices)
    sys_title = matrices[-1].title(method)  # the same words at every level but the first
    return screen.fit(matrices, (console.size.width, console.size.height), fmt, sys_title,
                      keep, families, digits, above)


def _print(matrix: Matrix, fmt: OutFmt, directions: dict[str, bool], method: str,
           digits: int, per_table: int) -> None:
    _print_table(matrix, fmt, directions, method, digits, per_table)
    for line in matrix.signature_lines():
        common.console.print(f"  {line}", style="dim", highlight=False, soft_wrap=True)


def _print_table(matrix: Matrix, fmt: OutFmt, directions: dict[str, bool],
                 method: str, digits: int, per_table: int) -> None:
    from ulcdb.scoring.report import rankings

    title = matrix.title(method)
    if fmt == "rankings":
        for metric, ranked in rankings(matrix, directions):
            render(["rank", matrix.level.upper(), metric],
                   [(i + 1, u, v) for i, (u, v) in enumerate(ranked)], Fmt.table,
                   title=f"{metric}: {title}", digits=digits)
        return
    columns = [matrix.level.upper(), *matrix.metrics]
    if not console.is_terminal and len(matrix.rows) > PLAIN_ROWS:
        rows = [(matrix.unit_label(t, u), *vals) for t, u, vals in matrix.rows]
        typer.echo(common.plain_table(columns, rows, title, digits), nl=False)
        return
    # Wide metric sets are printed as several tables of at most per_table metrics each.
    for start in range(0, len(matrix.metrics), per_table):
        part = slice(start, start + per_table)
        render([matrix.level.upper(), *matrix.metrics[part]],
               [(matrix.unit_label(t, u), *vals[part]) for t, u, vals in matrix.rows],
               Fmt.table, title=title, digits=digits)


def demo(
    folder: Annotated[Path | None, typer.Argument(
        help="A sample test bed folder (default: the sample shipped with ulcdb).",
        show_default=False)] = None,
    metrics: Annotated[str | None, typer.Option(
        "-m", "--metrics", help="Metrics to score (default: the ULC.config's metrics_LEX).")
    ] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Also delete a store that holds other test beds.")] = False,
) -> None:
    """The main job on the bundled sample: a fresh store, ingest, score, the ULC table.

    The store (--db) is deleted and rebuilt; one holding test beds other than the demo's is
    kept unless --force.

    Example: ulcdb --db demo.duckdb demo
    """
    from ulcdb.cli.common import state
    from ulcdb.cli.ingest import ingest_assessments, ingest_testbed
    from ulcdb.cli.store import init
    from ulcdb.store.database import Store, data_dir

    folder = folder or data_dir("sample")
    for need in (folder / "ULC.config", folder / "human" / "adequacy.csv",
                 folder / "human" / "da.tsv"):
        if not need.is_file():
            raise InputError(need, None, "no such file (FOLDER is a sample test bed folder "
                             "such as ulcdb's sample/)")
    if state.db.exists() and not force:
        with Store(state.db, read_only=True) as store:
            others = [r[0] for r in store.query("select name from testbed where name <> "
                                                "'sample' order by name")]
        if others:
            raise StoreError(f"{state.db} holds test beds {', '.join(others)}: the demo "
                             "rebuilds its store from scratch; use another --db, or --force")
    init(force=True)
    typer.echo(f"fresh store {state.db}; ingesting {folder}/ULC.config")
    ingest_testbed(path=folder / "ULC.config", name="sample")
    ingest_assessments(folder / "human" / "adequacy.csv", testbed="sample", criterion="adequacy")
    ingest_assessments(folder / "human" / "da.tsv", testbed="sample", criterion="DA-raw",
                       mapping=["system=system", "seg_id=seg_id", "score=da_raw",
                                "judge=judge"])
    score(testbed="sample", metrics=metrics or "metrics_LEX", level="sys")


def register(app: typer.Typer) -> None:
    app.command()(score)
    app.command()(demo)
