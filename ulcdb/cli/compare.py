"""`ulcdb compare`: paired significance tests between systems, clusters, buckets."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Annotated, Literal, get_args

import typer

from ulcdb.cli.common import (
    Fmt,
    ScaleOpt,
    WidthOpt,
    check_scale,
    console,
    err_console,
    one_of,
    progress_bar,
    render,
    store_file,
)
from ulcdb.cli.options import (
    CaseOpt,
    FmtOpt,
    JobsOpt,
    MetricsOpt,
    RefsOpt,
    SelectionOpts,
    SystemsOpt,
    TestbedOpt,
)
from ulcdb.cli.score import print_notes, request, scoring

if TYPE_CHECKING:  # the library is imported when the command runs, not for --help
    from ulcdb.compare import CompareReport

Method = Literal["bs", "ar"]
Unit = Literal["seg", "doc"]
Analysis = Literal["word-freq", "category"]


def compare(
    testbed: TestbedOpt = None,
    baseline: Annotated[str | None, typer.Option(
        "-b", "--baseline", help="Baseline system: every other system is tested against it "
        "(without: every pair, with clusters).  A reference here or in -s is compared as a "
        "system, every translation scored against the other references.")] = None,
    systems: SystemsOpt = None,
    metrics: MetricsOpt = None,
    refs: RefsOpt = None,
    method: Annotated[Method, typer.Option(
        "--method", help="bs: paired bootstrap resampling; ar: paired approximate "
        "randomization.", **one_of("method", get_args(Method)))] = "bs",
    resamples: Annotated[int | None, typer.Option(
        "--resamples", "-n", help="Resamples (bs, default 1000) or trials (ar, default "
        "10000), as sacrebleu; without -b, more when the pairs need them for a cluster to "
        "split (the header says why).  Positive; too few to give p < --alpha are refused.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed (sacrebleu's default).")] = 12345,
    unit: Annotated[Unit, typer.Option(
        "--unit", help="What is resampled: segments, or documents (document-level metrics, "
        "dependent segments).", **one_of("unit", get_args(Unit)))] = "seg",
    where: Annotated[str | None, typer.Option(
        "--where", help="SQL predicate selecting segments, over seg_id, doc_id, seg_in_doc, "
        "source, genre, domain, origlang, doc_index, e.g. \"length(source) > 200\".")] = None,
    by: Annotated[str | None, typer.Option(
        "--by", help="The same tests within each bucket of segments: length (reference "
        "words, compare-mt's bins), doc, domain, genre, orig-lang, set:NAME, or where:SQL "
        "(the segments a predicate selects and the others).")] = None,
    analysis: Annotated[Analysis | None, typer.Option(
        "--analysis", help="compare-mt's word-level analyses instead of tests: word-freq "
        "(F-measure of matched words per reference-frequency bucket; one reference) or "
        "category (stored per-category scores, SP-Op-t and NE-Oe-t or the families -m "
        "names, tested against the baseline).",
        **one_of("analysis", get_args(Analysis)))] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", help="Score variant (default: the test bed's case, else the only "
        "one).")] = None,
    case: CaseOpt = None,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level.")] = 0.05,
    pairs: Annotated[bool, typer.Option(
        "--pairs", help="Without -b, print the pairwise tests (csv/json) instead of the "
        "ranked systems.")] = False,
    jobs: JobsOpt = None,
    fmt: FmtOpt = Fmt.table,
    scale: ScaleOpt = 1,
    width: WidthOpt = 4,
) -> None:
    """Is system A significantly better than B, and where? Paired tests for any metric.

    With -b: each system against the baseline, as sacrebleu --paired-bs / --paired-ar do
    (the same draws: with the defaults BLEU, chrF and TER equal sacrebleu's mean, 95%
    interval and p-value). BLEU, chrF, TER, NIST and BLEU-n are recomputed by their corpus
    formulas from the stored per-segment statistics on every resample; other metrics
    (linguistic, imported...) as the mean of their segment scores. Without -b: every pair,
    systems ranked with significance clusters (a new cluster starts at a system significantly
    worse than every system above it; p-values Holm-Bonferroni adjusted over the pairs of
    each metric). Missing scores are computed first. --by runs the same tests within each
    bucket of segments; --analysis gives compare-mt's word accuracy by frequency or the
    stored per-category (POS, entity type) scores side by side.

    Example: ulcdb compare -b Online-W -m BLEU,chrF,1-TER --by length
    """
    from ulcdb.compare.header import header_lines
    from ulcdb.ops.compare import Tests, compare

    check_scale(scale, width)

    done = compare(store_file, request(SelectionOpts(testbed, metrics, systems, refs),
                                       case=case),
                   Tests(baseline, method, resamples, seed, unit, where, by, variant, alpha),
                   scoring(jobs=jobs), analysis, partial(progress_bar, verb="testing"))
    # the summary names imported scores used as they are; without it, its note does
    print_notes([*done.notes, *(() if done.computed else done.imported)],
                done.summary if done.computed else None)
    if done.analysis is not None:
        table = done.analysis
        for line in [table.caption, *table.notes]:
            err_console.print(line, style="dim", highlight=False, soft_wrap=True)
        wide = fmt == Fmt.table
        render(table.wide_columns if wide else table.columns,
               table.wide_rows if wide else table.rows, fmt)
        return
    assert done.report is not None  # a report when there is no analysis
    for line in header_lines(done.report, where):  # with the table on stdout, else stderr
        (console if fmt == Fmt.table else err_console).print(line, style="dim",
                                                            highlight=False, soft_wrap=True)
    _emit(done.report, fmt, pairs, _factors(done.report, scale), width)


def _factors(report: CompareReport, scale: int) -> dict[str, float]:
    """What each metric's numbers are multiplied by in the table (--scale)."""
    from ulcdb.scoring.report import display_scales

    if scale == 1:
        return {}
    with store_file.read() as store:
        return display_scales(store, list(report.task.metrics), scale)


def _emit(report: CompareReport, fmt: Fmt, pairs: bool, factors: dict[str, float],
          digits: int) -> None:
    from ulcdb.ops import compare

    if pairs and report.task.baseline is None and fmt != Fmt.table:
        render(*compare.pairs(report), fmt)
    elif fmt == Fmt.table:
        _table(report, factors, digits)
    else:
        render(*compare.results(report), fmt)


def _table(report: CompareReport, factors: dict[str, float], d: int) -> None:
    t = report.task
    rows: list[list[object]] = []
    for r in report.results:
        k = factors.get(r.metric, 1.0)
        interval = (f"{r.mean * k:.{d}f} ± {r.ci * k:.{d}f}"
                    if r.mean is not None and r.ci is not None else "")
        mark = ("*" if r.p_value is not None and r.p_value < t.alpha else "")
        lead = ([r.bucket, r.n_units] if r.bucket is not None else []) + (
            ["" if r.cluster is None else r.cluster, r.rank] if t.baseline is None else [])
        rows.append(lead + [r.metric, r.system, f"{r.score * k:.{d}f}", interval or r.note,
                            "" if r.p_value is None else f"{r.p_value:.4f}{mark}"])
    by = ["bucket", "n"] if any(r.bucket is not None for r in report.results) else []
    head = by + (["cluster", "rank"] if t.baseline is None else []) + [
        "metric", "system", "score", "mean ± 95% CI", "p-value" if t.baseline else ""]
    if t.baseline is None:
        head, rows = head[:-1], [r[:-1] for r in rows]
    render(head, rows, Fmt.table)
    if t.baseline is not None and any(r.p_value is not None for r in report.results):
        console.print(f"* p < {t.alpha:g}: significantly different from {t.baseline}",
                      style="dim", highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(compare)
