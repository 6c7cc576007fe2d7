"""`ulcdb score` and `ulcdb demo`: compute missing scores, report metrics and ULC."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, NamedTuple

import typer

from ulcdb.cli.common import (
    AddressOpt,
    EngineName,
    EngineOpt,
    Fmt,
    console,
    engine_for,
    err_console,
    open_store,
    render,
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
from ulcdb.errors import InputError, StoreError
from ulcdb.outputs import folder_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from rich.progress import Progress

    from ulcdb.engines import Engine
    from ulcdb.report import Matrix
    from ulcdb.scoring import Pair
    from ulcdb.selection import Selection
    from ulcdb.store import Store

OutFmt = Literal["table", "rankings", "csv", "tsv", "json", "scr"]
UlcMethod = Literal["asiya", "raw", "seg-mean"]

SegsOpt = Annotated[str | None, typer.Option(
    "-T", "--segments", help="Segment set or ids/ranges (1-10,15) shown at segment level.")]
Annotation = tuple[str, str | None]  # --annotator, --annotator-model
SPACY: Annotation = ("spacy", None)


def _progress(total: int) -> tuple[Progress, Callable[[str, int], None]]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                        transient=True)
    task = progress.add_task("scoring", total=total)

    def advance(label: str, n: int) -> None:
        progress.update(task, advance=n, description=f"scoring {label}")

    return progress, advance


def select(store: Store, picked: SelectionOpts, segments: str | None = None,
           case: str | None = None, annotation: Annotation = SPACY) -> Selection:
    """The library's selection; its notes (metrics left out for the language) to stderr."""
    from ulcdb.selection import select as resolve_selection

    sel = resolve_selection(store, picked.testbed, picked.metrics, picked.systems,
                            picked.refs, segments, None if case is None else case == "lc",
                            *annotation)
    for note in sel.notes:
        err_console.print(note, style="yellow", highlight=False, soft_wrap=True)
    return sel


class Scored(NamedTuple):
    """What `scoring_store` yields: a read-only store holding the scores of ``pairs``."""

    store: Store
    selection: Selection
    pairs: list[Pair]
    summary: str
    computed: bool  # some scores were missing (and are now stored)


PairPlan = Callable[["Store", "Selection"], "list[Pair]"]


def all_pairs(jack: bool = False) -> PairPlan:
    """Every pair ULC and QARLA need (``ulcdb.scoring.plan_pairs``); with ``jack``, also each
    system against each other system."""
    from ulcdb.scoring import plan_pairs

    return lambda store, sel: plan_pairs(sel.systems, sel.refs, jack=jack)


@contextmanager
def scoring_store(picked: SelectionOpts, segments: str | None = None, case: str | None = None,
                  annotation: Annotation = SPACY, *, pairs: PairPlan | None = None,
                  remake: bool = False, jobs: int | None = None,
                  check: Callable[[list[str]], object] | None = None,
                  engine: Engine | None = None) -> Iterator[Scored]:
    """Resolve the selection on a read-only store and plan its pairs (``pairs``, default
    `all_pairs`), compute missing scores on a writable store only when some are missing (so
    commands with nothing to compute run beside other readers), and yield a read-only store
    with the scores.  ``check(refs)`` runs before any scoring."""
    from ulcdb.scoring import Scorer

    with open_store(read_only=True) as store:
        sel = select(store, picked, segments, case, annotation)
        if check is not None:
            check(sel.refs)
        planned = (pairs or all_pairs())(store, sel)
        scorer = Scorer(store, sel.testbed, sel.params, jobs)
        if not scorer.pending(sel.metrics, planned, remake):
            yield Scored(store, sel, planned, scorer.run(sel.metrics, planned).summary(), False)
            return
    with open_store() as store:
        summary = compute(store, sel, planned, remake, jobs, engine)
    with open_store(read_only=True) as store:
        yield Scored(store, sel, planned, summary, True)


def compute(store: Store, sel: Selection, pairs: list[Pair], remake: bool = False,
            jobs: int | None = None, engine: Engine | None = None) -> str:
    """Compute what is missing, with a progress bar; returns the summary line."""
    from ulcdb.metrics import registry
    from ulcdb.scoring import Scorer

    scorer = Scorer(store, sel.testbed, sel.params, jobs, engine)
    fams = {registry.family_of(m).name for m in sel.metrics if m in registry.metric_index()
            and not registry.family_of(m).derived}
    progress, advance = _progress(len(pairs) * len(fams))
    with progress:
        report = scorer.run(sel.metrics, pairs, remake=remake, progress=advance)
    return report.summary()


@grouped
def score(
    picked: SelectionOpts,
    segments: SegsOpt = None,
    level: LevelOpt = "sys",
    fmt: Annotated[OutFmt, typer.Option("--format", "-f", help="Output format.")] = "table",
    case: CaseOpt = None,
    ulc: Annotated[UlcMethod, typer.Option("--ulc", help="ULC normalisation: asiya, raw, or "
                                           "seg-mean (mean of segment ULC).")] = "asiya",
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
        "format; `none`: test-bed order.  Default: system-level tables by their last column "
        "(ULC, or QUEEN with --queen), best first.")] = None,
    engine: EngineOpt = EngineName.local,
    address: AddressOpt = None,
    verbnet: VerbnetOpt = None,
) -> None:
    """Compute missing scores, store them, and report metrics and ULC per level.

    Scores every chosen system against each reference and the whole reference set (and the
    references against each other, for QARLA); only missing scores are computed.

    Example: ulcdb score -m LEX -G all
    """
    from ulcdb.qarla import QUEEN_MIN_REFS, check_refs
    from ulcdb.report import LEVELS, higher_is_better, score_matrix, write_scr
    from ulcdb.scoring import variant_of

    need_refs = (lambda r: check_refs(r, QUEEN_MIN_REFS, "QUEEN")) if queen else None
    use_verbnet(verbnet)
    runner = engine_for(engine, jobs, address)
    with scoring_store(picked, segments, case, (annotator, annotator_model),
                       pairs=all_pairs(jack), remake=remake, jobs=jobs, check=need_refs,
                       engine=runner) as scored:
        store, sel = scored.store, scored.selection
        name, params, segs = sel.testbed, sel.params, sel.segments
        metric_names, sys_names, ref_names = sel.metrics, sel.systems, sel.refs
        console.print(scored.summary, style="dim", highlight=False) if fmt == "table" else None
        refset = "+".join(sorted(ref_names))
        levels = LEVELS if level == "all" else (level,)
        matrices = {lv: score_matrix(store, name, lv, metric_names, sys_names, refset,
                                     variant_of(params), ulc, segs) for lv in levels}
        if queen:
            _add_queen(store, name, matrices, metric_names, sys_names, ref_names,
                       variant_of(params))
        directions = higher_is_better(store, metric_names) | {"QUEEN": True}
        _sort(matrices, sort, directions, fmt == "table")
        if fmt == "scr":
            for path in write_scr(store, name, matrices, out):
                typer.echo(str(path))
            return
        if fmt in ("csv", "tsv", "json"):  # one table, whatever the levels
            columns = next(iter(matrices.values())).metrics
            render(["level", "refset", "variant", "translator", "unit", *columns],
                   [(m.level, m.refset, m.variant, t, u, *vals)
                    for m in matrices.values() for t, u, vals in m.rows], Fmt(fmt))
            return
        for matrix in matrices.values():
            _print(matrix, fmt, directions, ulc)


def _sort(matrices: dict[str, Matrix], sort: str | None, directions: dict[str, bool],
          table: bool) -> None:
    """--sort COLUMN everywhere; by default system-level tables by their last column."""
    for level, matrix in matrices.items():
        if sort == "none" or not matrix.metrics:
            continue
        if sort is not None:
            matrix.sort_by(sort, directions.get(sort, True))
        elif table and level == "sys":
            last = matrix.metrics[-1]
            matrix.sort_by(last, directions.get(last, True))


def _add_queen(store: Store, testbed: str, matrices: dict[str, Matrix], metrics: list[str],
               systems: list[str], refs: list[str], variant: str) -> None:
    from ulcdb.qarla import queen_values

    for level, matrix in matrices.items():
        # Over every segment, like the metric columns beside it (-T only filters rows).
        q = queen_values(store, testbed, level, metrics, systems, refs, variant)
        matrix.metrics.append("QUEEN")
        matrix.rows = [(t, u, [*v, q.get((t, u))]) for t, u, v in matrix.rows]


def _print(matrix: Matrix, fmt: OutFmt, directions: dict[str, bool], method: str) -> None:
    _print_table(matrix, fmt, directions, method)
    for line in matrix.signature_lines():
        console.print(f"  {line}", style="dim", highlight=False, soft_wrap=True)


def _print_table(matrix: Matrix, fmt: OutFmt, directions: dict[str, bool],
                 method: str) -> None:
    from ulcdb.report import rankings

    title = matrix.title(method)
    if fmt == "rankings":
        for metric, ranked in rankings(matrix, directions):
            render(["rank", matrix.level.upper(), metric],
                   [(i + 1, u, v) for i, (u, v) in enumerate(ranked)], Fmt.table,
                   title=f"{metric}: {title}")
        return
    # Wide metric sets are printed as several tables of at most TABLE_WIDTH metrics each.
    for start in range(0, len(matrix.metrics), TABLE_WIDTH):
        part = slice(start, start + TABLE_WIDTH)
        render([matrix.level.upper(), *matrix.metrics[part]],
               [(matrix.unit_label(t, u), *vals[part]) for t, u, vals in matrix.rows],
               Fmt.table, title=title)


TABLE_WIDTH = 12


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
    from ulcdb.cli.query import init
    from ulcdb.store import Store, data_dir

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
