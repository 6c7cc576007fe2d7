"""`ulcdb meta`: meta-evaluate stored metric scores against stored human judgments.

Options are parsed here; ``ulcdb.meta`` resolves them, evaluates and renders the report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_args

import typer

from ulcdb.cli.common import Fmt, err_console, one_of, render, store_file
from ulcdb.cli.options import Level, OneLevelOpt, TestbedOpt
from ulcdb.cli.outputs import file_option
from ulcdb.errors import MetaError

if TYPE_CHECKING:  # the library is imported when the command runs, not for --help
    from ulcdb.meta import MetaReport, MetricComparison

MetaFmt = Literal["table", "csv", "json", "latex"]
Grouping = Literal["flat", "item", "system"]
Reading = Literal["metric", "seg-mean", "doc-mean"]
HumanFrom = Literal["auto", "ingested", "derived"]
Protocol = Literal["wmt23", "wmt24"]
SigTest = Literal["paired-bootstrap", "permutation"]
AccTies = Literal["acc_eq", "skip_human_ties"]

# The options `ulcdb meta` and `ulcdb meta protocol` share.
MetricsOpt = Annotated[str | None, typer.Option(
    "-m", "--metrics", help="Metric set or names, comma-separated (default: every metric "
    "scored against the reference set).")]
SystemsOpt = Annotated[str | None, typer.Option(
    "-s", "--systems", help="System set or names: exactly these targets (default: every "
    "scored target but human translations).")]
RefsOpt = Annotated[str | None, typer.Option(
    "-r", "--refs", help="Reference set: a stored reference-set name, or references / "
    "reference sets, comma-separated (default: all references).")]
CriterionOpt = Annotated[str | None, typer.Option(
    "--criterion", "-c", help="Human criterion, e.g. MQM, DA-raw, DA-z, adequacy "
    "(default: the only one).")]
IncludeHumanOpt = Annotated[bool, typer.Option(
    "--include-human", help="Also correlate human translations (references scored as "
    "targets and the system set 'human'); without it, and without -s, they are left "
    "out, as in mt-metrics-eval.")]
ExcludeHumanOpt = Annotated[bool, typer.Option(
    "--exclude-human", hidden=True, help="The default (with -s: also drops the human "
    "translations it names); kept for old scripts.")]
ExcludeOpt = Annotated[list[str] | None, typer.Option(
    "--exclude", "-x", help="Leave out a system set (e.g. outliers) or systems; "
    "repeatable.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the resampling.")]
DrOpt = Annotated[bool, typer.Option(
    "--dr", help="DR' reading: system score = mean of document scores "
    "(same as --reading doc-mean).")]
ReadingOpt = Annotated[Reading, typer.Option(
    "--reading", help="Document/system metric scores: the metric's own (metric), the "
    "mean of segment scores (seg-mean) or of document scores (doc-mean).",
    **one_of("reading", get_args(Reading)))]
HumanOpt = Annotated[HumanFrom, typer.Option(
    "--human", help="Document/system human scores: ingested ones when present (auto), "
    "ingested, or derived (mean of segment assessments).",
    **one_of("human source", get_args(HumanFrom)))]
MinSegmentsOpt = Annotated[int, typer.Option(
    "--min-segments", help="Leave out documents with fewer assessed segments.")]
VariantOpt = Annotated[str | None, typer.Option(
    "--variant", help="Score variant, e.g. case:mixed (default: all).")]
MetaFmtOpt = Annotated[MetaFmt, typer.Option("--format", "-f", help="Output format.",
                                              **one_of("format", get_args(MetaFmt)))]


def _ci_levels(spec: str) -> tuple[float, ...]:
    """Percentages like ``95,99`` (strictly between 1 and 100) as fractions."""
    from ulcdb.meta import select

    try:
        values = tuple(float(v) for v in select.split(spec))
    except ValueError:
        values = ()
    if not values or not all(1 < v < 100 for v in values):
        raise typer.BadParameter(f"--ci takes percentages between 1 and 100 like 95,99, not "
                                 f"{spec!r}")
    return tuple(v / 100 for v in values)


def meta(
    ctx: typer.Context,
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    level: OneLevelOpt = None,
    criterion: CriterionOpt = None,
    coef: Annotated[str | None, typer.Option(
        "--coef", help="Coefficients, comma-separated: pearson, spearman, kendall_tau_b, "
        "kendall_tau_c, darr_tau, darr_tau_noties, accuracy (default: "
        "all but darr_tau_noties; DARR neither at sys level nor for a criterion whose scale is "
        "not 0..100).")] = None,
    grouping: Annotated[Grouping, typer.Option(
        "--grouping", help="flat (all items), item (per segment/document, averaged) or "
        "system (per system, averaged).", **one_of("grouping", get_args(Grouping)))] = "flat",
    include_human: IncludeHumanOpt = False,
    exclude_human: ExcludeHumanOpt = False,
    exclude: ExcludeOpt = None,
    own_items: Annotated[bool, typer.Option(
        "--own-items", help="Correlate each metric on its own items instead of the items "
        "every metric scores (rows then differ in n; --sig refuses).")] = False,
    threshold: Annotated[float | None, typer.Option(
        "--threshold", help="DARR: minimum difference of human scores (default 25, only for "
        "a criterion on the raw DA scale 0..100).", show_default=False)] = None,
    acc_ties: Annotated[AccTies, typer.Option(
        "--acc-ties", help="Accuracy ties: acc_eq (Deutsch et al. 2023) or "
        "skip_human_ties.", **one_of("accuracy ties", get_args(AccTies)))] = "acc_eq",
    bootstrap: Annotated[int, typer.Option(
        "--bootstrap", "-B", help="Bootstrap resamples (0: none).")] = 1000,
    resample: Annotated[Level | None, typer.Option(
        "--resample", help="Unit resampled: seg, doc or sys (default: the level's).",
        **one_of("resample", get_args(Level)))] = None,
    seed: SeedOpt = 1234,
    ci: Annotated[str, typer.Option("--ci", help="Confidence levels in %.")] = "95,99",
    dr: DrOpt = False,
    reading: ReadingOpt = "metric",
    human: HumanOpt = "auto",
    min_segments: MinSegmentsOpt = 1,
    variant: VariantOpt = None,
    fisher: Annotated[bool, typer.Option(
        "--fisher", help="Also show Fisher z intervals (flat grouping).")] = False,
    sort: Annotated[str | None, typer.Option(
        "--sort", help="Rank the metrics best first by this coefficient (default: the first "
        "shown), or `name`: in name order.")] = None,
    sig: Annotated[SigTest | None, typer.Option(
        "--sig", help="Also test every pair of metrics: paired-bootstrap (reuses the "
        "resamples) or permutation (PERM-BOTH, --bootstrap permutations; slow for Kendall "
        "on many items).", **one_of("significance test", get_args(SigTest)))] = None,
    sig_coef: Annotated[str | None, typer.Option(
        "--sig-coef", help="Coefficient tested by --sig (default: --sort's or the "
        "first).")] = None,
    sig_out: Annotated[Path | None, typer.Option(
        "--sig-out", help="Also write the --sig table to this file (JSON if it ends in .json, "
        "else CSV); needed with --format csv, whose stdout holds the results.",
        callback=file_option)] = None,
    where: Annotated[str | None, typer.Option(
        "--where", help="Meta-evaluate on the segments this SQL predicate selects (as `ulcdb "
        "compare --where`), e.g. \"domain = 'news'\"; doc/sys scores are recomputed from "
        "them (see README).")] = None,
    fmt: MetaFmtOpt = "table",
    protocol: Annotated[Protocol | None, typer.Option(
        "--protocol", hidden=True, help="Deprecated: `ulcdb meta protocol NAME` (the WMT "
        "metrics-task table).", show_default=False,
        **one_of("protocol", get_args(Protocol)))] = None,
    testbeds: Annotated[str | None, typer.Option(
        "--testbeds", hidden=True, help="Deprecated: with --protocol, several test beds "
        "(`ulcdb meta protocol NAME -t A,B`).", show_default=False)] = None,
) -> None:
    """Meta-evaluate stored metric scores against human judgments: metrics x coefficients.

    Correlates metric scores at seg, doc or sys level with a human criterion: Pearson,
    Spearman, Kendall tau-b and tau-c, the WMT DARR tau (pairs of translations of one segment
    or document whose human scores differ by at least --threshold; a metric tie counts as
    discordant, darr_tau_noties leaves ties out) and pairwise accuracy, each with percentile
    bootstrap intervals (--bootstrap resamples of segments, documents or systems, seeded).
    As mt-metrics-eval: every metric (and variant) is correlated on the same items, those all
    of them score (--own-items: each its own), and human translations are left out
    (--include-human brings them in); the header says which items and targets were used and
    what was dropped.  DARR's default threshold 25 applies to raw DA (0..100) only.
    Document and system human scores are the ingested ones when present, else the mean of
    segment assessments.  Scores must be stored first (`ulcdb score`, or
    `ulcdb ingest scores` for metrics ulcdb does not compute).

    `ulcdb meta protocol wmt23|wmt24` prints instead the table of a WMT metrics task.

    Example: ulcdb meta -G seg --criterion MQM --sort pearson
    """
    if ctx.invoked_subcommand is not None:  # `ulcdb meta protocol ...`
        _none_before(ctx)
        return
    from ulcdb.cli.meta_protocol import refuse, run_protocol
    from ulcdb.meta import comparison_records, records_csv, select
    from ulcdb.ops.meta import Beds
    from ulcdb.ops.meta import meta as ops_meta

    if protocol is not None:
        refuse(protocol, {
            "-G": level is not None, "--coef": coef is not None, "--grouping": grouping !=
            "flat", "--own-items": own_items, "--threshold": threshold is not None,
            "--acc-ties": acc_ties != "acc_eq", "--resample": resample is not None,
            "--ci": ci != "95,99", "--fisher": fisher, "--sort": sort is not None,
            "--sig": sig is not None, "--sig-coef": sig_coef is not None,
            "--sig-out": sig_out is not None, "-t with --testbeds": bool(testbed and testbeds),
            "--where": where is not None})
        beds = Beds(
            tuple(select.split(testbeds)) or ((testbed,) if testbed else ()), metrics, systems,
            refs, criterion, tuple(exclude or []), exclude_human, include_human, variant,
            "doc_mean" if dr else reading.replace("-", "_"), human, min_segments)
        run_protocol(protocol, beds, bootstrap, seed, fmt)
        return
    if testbeds:
        raise MetaError("--testbeds goes with --protocol; without it give one test bed with -t")
    if sig and fmt == "csv" and sig_out is None:
        raise MetaError("with --format csv, --sig needs --sig-out FILE for its table (stdout "
                        "holds one CSV of results)")
    done = ops_meta(
        store_file, testbed=testbed, level=level or "sys", criterion=criterion, refs=refs,
        metrics=metrics, systems=systems, exclude=tuple(exclude or []),
        exclude_human=exclude_human, include_human=include_human,
        items="own" if own_items else "common", variant=variant,
        coefficients=tuple(select.split(coef)), grouping=grouping, threshold=threshold,
        accuracy_ties=acc_ties, reading="doc_mean" if dr else reading.replace("-", "_"),
        human_from=human, min_segments=min_segments, resample=resample, n_resamples=bootstrap,
        seed=seed, ci_levels=_ci_levels(ci), where=where, sort=sort, sig=sig,
        sig_coef=sig_coef)
    for i, line in enumerate(done.notes()):
        err_console.print(line, highlight=False, soft_wrap=True,
                          style="yellow" if i == 0 and done.missing else None)
    for line in done.report.warnings:
        err_console.print(line, style="yellow", highlight=False, soft_wrap=True)
    _emit(done.report, done.comparisons, sort, fisher, fmt)
    if sig_out is not None:
        records = comparison_records(done.comparisons, done.report.labels())
        text = (json.dumps(records, ensure_ascii=False, indent=1) + "\n"
                if sig_out.suffix == ".json" else records_csv(records))
        sig_out.write_text(text, encoding="utf-8")


def _none_before(ctx: typer.Context) -> None:
    """Options between `meta` and its command would be silently lost: refuse them."""
    given = [p.opts[0] for p in ctx.command.params if p.name is not None and (
        src := ctx.get_parameter_source(p.name)) is not None and src.name != "DEFAULT"]
    if given:
        raise MetaError(f"{', '.join(given)} given before `{ctx.invoked_subcommand}`: put "
                        f"the options after `ulcdb meta {ctx.invoked_subcommand} NAME`")


def _emit(report: MetaReport, comparisons: list[MetricComparison], sort: str | None,
          fisher: bool, fmt: MetaFmt) -> None:
    from ulcdb.meta import comparison_records

    if fmt == "json":  # one schema, with or without --sig
        typer.echo(report.to_json(comparisons, sort, fisher))
    elif fmt == "csv":
        typer.echo(report.to_csv(sort, fisher), nl=False)
    elif fmt == "latex":
        typer.echo(report.to_latex(sort, fisher, comparisons))
    else:
        for line in report.summary_lines():
            typer.echo(line)
        columns, rows = report.table(sort, fisher)
        render(columns, rows, Fmt.table)
        sig = comparison_records(comparisons, report.labels())
        if sig:
            render(list(sig[0]), [tuple(r.values()) for r in sig], Fmt.table,
                   title="is the better metric significantly better? (one-sided p)")


def register(app: typer.Typer) -> None:
    from ulcdb.cli.meta_protocol import protocol

    group = typer.Typer()
    group.callback(invoke_without_command=True)(meta)
    group.command("protocol")(protocol)
    app.add_typer(group, name="meta")
