"""`ulcdb score` and `ulcdb demo`: compute missing scores, report metrics and ULC."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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
from ulcdb.engines import Engine
from ulcdb.errors import InputError, StoreError
from ulcdb.metrics.base import Params
from ulcdb.outputs import folder_option
from ulcdb.qarla import QUEEN_MIN_REFS, check_refs, queen_values
from ulcdb.report import LEVELS, Matrix, higher_is_better, rankings, score_matrix, write_scr
from ulcdb.scoring import Scorer, plan_pairs, variant_of
from ulcdb.selection import Selection
from ulcdb.selection import select as resolve_selection
from ulcdb.store import Store, data_dir


class OutFmt(str, Enum):
    table = "table"
    rankings = "rankings"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    scr = "scr"


class Case(str, Enum):
    all = "all"
    lc = "lc"


class UlcMethod(str, Enum):
    asiya = "asiya"
    raw = "raw"
    seg_mean = "seg-mean"


TestbedOpt = Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")]
MetricsOpt = Annotated[str | None, typer.Option(
    "-m", "--metrics", help="Metric set, metric name, or a comma-separated mix (default LEX).")]
SystemsOpt = Annotated[str | None, typer.Option(
    "-s", "--systems", help="System set or names, comma-separated (default: all systems).")]
RefsOpt = Annotated[str | None, typer.Option(
    "-r", "--refs", help="Reference set or names, comma-separated (default: all references).")]
SegsOpt = Annotated[str | None, typer.Option(
    "-T", "--segments", help="Segment set or ids/ranges (1-10,15) shown at segment level.")]
AnnotatorOpt = Annotated[str, typer.Option(
    "--annotator", help="Annotation the linguistic metrics read: spacy (default), stanza, or a "
    "tool imported with `ulcdb ingest annotations --tool NAME`.  Other than the default, "
    "scores are stored under their own variant (e.g. case:mixed|ann:stanza).")]
VerbnetOpt = Annotated[Path | None, typer.Option(
    "--verbnet", help="VerbNet 3.3 for TINE: NLTK's verbnet3.zip or its folder (default: "
    "$ULCDB_VERBNET, else NLTK's data).")]


def use_verbnet(path: Path | None) -> None:
    """Point TINE (here and in the scoring processes it starts) at ``path``."""
    if path is not None:
        os.environ["ULCDB_VERBNET"] = str(path)


AnnotatorModelOpt = Annotated[str | None, typer.Option(
    "--annotator-model", help="The annotator's model (default: its default one).")]


def _check_level(value: str) -> str:
    level = value.lower()
    if level not in (*LEVELS, "all"):
        raise typer.BadParameter(f"{value!r}: choose seg, doc, sys or all")
    return level


LevelOpt = Annotated[str, typer.Option("-G", "--level", help="seg, doc, sys or all.",
                                       callback=_check_level)]


def _progress(total: int) -> tuple[Progress, Callable[[str, int], None]]:
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                        transient=True)
    task = progress.add_task("scoring", total=total)

    def advance(label: str, n: int) -> None:
        progress.update(task, advance=n, description=f"scoring {label}")

    return progress, advance


def select(store: Store, testbed: str | None, metrics: str | None, systems: str | None,
           refs: str | None, segments: str | None, case: Case | None,
           annotator: str = "spacy", annotator_model: str | None = None) -> Selection:
    """The library's selection; its notes (metrics left out for the language) to stderr."""
    sel = resolve_selection(store, testbed, metrics, systems, refs, segments,
                            None if case is None else case == Case.lc, annotator,
                            annotator_model)
    for note in sel.notes:
        err_console.print(note, style="yellow", highlight=False, soft_wrap=True)
    return sel


@contextmanager
def scoring_store(testbed: str | None, metrics: str | None, systems: str | None,
                  refs: str | None, segments: str | None, case: Case | None,
                  annotator: str = "spacy", annotator_model: str | None = None,
                  remake: bool = False, jobs: int | None = None, jack: bool = False,
                  check: Callable[[list[str]], object] | None = None,
                  engine: Engine | None = None) -> Iterator[tuple[Store, Selection, str]]:
    """Resolve the selection on a read-only store, compute missing scores on a writable one
    only when some are missing (so commands with nothing to compute run beside other
    readers), and yield a read-only store with the scores, the selection and the summary.
    ``check(refs)`` runs before any scoring."""
    with open_store(read_only=True) as store:
        sel = select(store, testbed, metrics, systems, refs, segments, case, annotator,
                     annotator_model)
        if check is not None:
            check(sel.refs)
        pairs = plan_pairs(sel.systems, sel.refs, jack=jack)
        scorer = Scorer(store, sel.testbed, sel.params, jobs)
        if not scorer.pending(sel.metrics, pairs, remake):
            yield store, sel, scorer.run(sel.metrics, pairs).summary()
            return
    with open_store() as store:
        summary = compute(store, sel.testbed, sel.metrics, sel.systems, sel.refs, sel.params,
                          remake, jobs, jack, engine)
    with open_store(read_only=True) as store:
        yield store, sel, summary


def compute(store: Store, testbed: str, metrics: list[str], systems: list[str], refs: list[str],
            params: Params, remake: bool, jobs: int | None, jack: bool = False,
            engine: Engine | None = None) -> str:
    """Compute what is missing, with a progress bar; returns the summary line."""
    scorer = Scorer(store, testbed, params, jobs, engine)
    pairs = plan_pairs(systems, refs, jack=jack)
    from ulcdb.metrics import registry

    fams = {registry.family_of(m).name for m in metrics if m in registry.metric_index()
            and not registry.family_of(m).derived}
    progress, advance = _progress(len(pairs) * len(fams))
    with progress:
        report = scorer.run(metrics, pairs, remake=remake, progress=advance)
    return report.summary()


def score(
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    segments: SegsOpt = None,
    level: LevelOpt = "sys",
    fmt: Annotated[OutFmt, typer.Option("--format", "-f", help="Output format.")] = OutFmt.table,
    case: Annotated[Case | None, typer.Option(
        "--case", help="ULC's CASE: all (mixed) or lc (default: the test bed's config, "
        "else all).")] = None,
    ulc: Annotated[UlcMethod, typer.Option("--ulc", help="ULC normalisation: asiya, raw, or "
                                           "seg-mean (mean of segment ULC).")] = UlcMethod.asiya,
    remake: Annotated[bool, typer.Option("--remake", help="Recompute stored scores.")] = False,
    jack: Annotated[bool, typer.Option("--jack", help="Also score each system against each "
                                       "other system (for JACK).")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Processes (default: all "
                                             "cores).")] = None,
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
    need_refs = (lambda r: check_refs(r, QUEEN_MIN_REFS, "QUEEN")) if queen else None
    use_verbnet(verbnet)
    runner = engine_for(engine, jobs, address)
    with scoring_store(testbed, metrics, systems, refs, segments, case, annotator,
                       annotator_model, remake, jobs, jack, need_refs,
                       runner) as (store, sel, summary):
        name, params, segs = sel.testbed, sel.params, sel.segments
        metric_names, sys_names, ref_names = sel.metrics, sel.systems, sel.refs
        console.print(summary, style="dim", highlight=False) if fmt == OutFmt.table else None
        refset = "+".join(sorted(ref_names))
        levels = LEVELS if level == "all" else (level,)
        matrices = {lv: score_matrix(store, name, lv, metric_names, sys_names, refset,
                                     variant_of(params), ulc.value, segs) for lv in levels}
        if queen:
            _add_queen(store, name, matrices, metric_names, sys_names, ref_names,
                       variant_of(params))
        directions = higher_is_better(store, metric_names) | {"QUEEN": True}
        _sort(matrices, sort, directions, fmt == OutFmt.table)
        if fmt == OutFmt.scr:
            for path in write_scr(store, name, matrices, out):
                typer.echo(str(path))
            return
        if fmt in (OutFmt.csv, OutFmt.tsv, OutFmt.json):  # one table, whatever the levels
            columns = next(iter(matrices.values())).metrics
            render(["level", "refset", "variant", "translator", "unit", *columns],
                   [(m.level, m.refset, m.variant, t, u, *vals)
                    for m in matrices.values() for t, u, vals in m.rows], Fmt(fmt.value))
            return
        for matrix in matrices.values():
            _print(matrix, fmt, directions, ulc.value)


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


def _add_queen(store: Store, testbed: str, matrices: dict, metrics: list[str],
               systems: list[str], refs: list[str], variant: str) -> None:
    for level, matrix in matrices.items():
        # Over every segment, like the metric columns beside it (-T only filters rows).
        q = queen_values(store, testbed, level, metrics, systems, refs, variant)
        matrix.metrics.append("QUEEN")
        matrix.rows = [(t, u, [*v, q.get((t, u))]) for t, u, v in matrix.rows]


def _print(matrix, fmt: OutFmt, directions: dict[str, bool], method: str) -> None:
    _print_table(matrix, fmt, directions, method)
    for line in matrix.signature_lines():
        console.print(f"  {line}", style="dim", highlight=False, soft_wrap=True)


def _print_table(matrix, fmt: OutFmt, directions: dict[str, bool], method: str) -> None:
    title = matrix.title(method)
    if fmt == OutFmt.rankings:
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
