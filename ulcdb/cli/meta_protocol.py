"""`ulcdb meta protocol wmt23|wmt24`: the WMT metrics-task table (``ulcdb.ops.meta``
computes it), with only the options a protocol honours."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Annotated, get_args

import typer

from ulcdb.cli.common import Fmt, err_console, one_of, progress_bar, render, store_file
from ulcdb.cli.meta import (
    CriterionOpt,
    DrOpt,
    ExcludeHumanOpt,
    ExcludeOpt,
    HumanOpt,
    IncludeHumanOpt,
    MetaFmtOpt,
    MetricsOpt,
    MinSegmentsOpt,
    Protocol,
    ReadingOpt,
    RefsOpt,
    SeedOpt,
    SystemsOpt,
    VariantOpt,
)
from ulcdb.errors import MetaError

if TYPE_CHECKING:  # the library is imported when the command runs, not for --help
    from ulcdb.ops.meta import Beds


def protocol(
    name: Annotated[Protocol, typer.Argument(
        metavar="PROTOCOL", help="wmt23: system-level pairwise accuracy (global over the "
        "test beds), system- and segment-level Pearson, segment-level acc-t; wmt24: "
        "system-level soft pairwise accuracy, segment-level acc-t.",
        **one_of("protocol", get_args(Protocol)))],
    testbeds: Annotated[str | None, typer.Option(
        "--testbed", "-t", help="Test bed, or several comma-separated (wmt23's accuracy is "
        "then pooled over them, the other columns are per test bed); default: the only "
        "one.")] = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    criterion: CriterionOpt = None,
    include_human: IncludeHumanOpt = False,
    exclude_human: ExcludeHumanOpt = False,
    exclude: ExcludeOpt = None,
    variant: VariantOpt = None,
    dr: DrOpt = False,
    reading: ReadingOpt = "metric",
    human: HumanOpt = "auto",
    min_segments: MinSegmentsOpt = 1,
    bootstrap: Annotated[int, typer.Option(
        "--bootstrap", "-B", help="Resamples per pair of metrics for the rank columns (0: "
        "no ranks).")] = 1000,
    seed: SeedOpt = 1234,
    fmt: MetaFmtOpt = "table",
) -> None:
    """The WMT23 or WMT24 metrics-task table: every statistic with its rank.

    One table as the WMT23/WMT24 metrics task reports did, each statistic with its rank
    column (significance clusters, p <= 0.05), computed as mt-metrics-eval computes them:
    --bootstrap resamples per pair of metrics, block size 100, early stop when p < 0.02 or
    p > 0.5; acc-t: acc23 with epsilon search averaged over segments, pairwise permutation
    test; SPA: 1000 permutations, seed 4; --seed seeds the resampling.  Metrics must be
    scored at every level the protocol reads (`ulcdb score`).

    Example: ulcdb meta protocol wmt24 -c MQM -m BLEU,chrF
    """
    from ulcdb.meta import select
    from ulcdb.ops.meta import Beds

    beds = Beds(tuple(select.split(testbeds)), metrics, systems, refs, criterion,
                tuple(exclude or []), exclude_human, include_human, variant,
                "doc_mean" if dr else reading.replace("-", "_"), human, min_segments)
    run_protocol(name, beds, bootstrap, seed, fmt)


def refuse(protocol: str, given: dict[str, bool]) -> None:
    """One error naming the options a protocol does not take (`ulcdb meta --protocol`)."""
    bad = [name for name, on in given.items() if on]
    if bad:
        raise MetaError(f"--protocol {protocol} prints the WMT table and does not take "
                        f"{', '.join(bad)}")


def run_protocol(name: str, beds: Beds, bootstrap: int, seed: int, fmt: str) -> None:
    """Evaluate and print the protocol's table in ``fmt`` (table, csv, json or latex)."""
    from ulcdb.meta import protocol_report as out
    from ulcdb.ops.meta import protocol as evaluate

    report, notes = evaluate(store_file, name, beds, bootstrap, seed,
                             partial(progress_bar, verb="evaluating"))
    for line in notes:
        err_console.print(line, style="yellow", highlight=False, soft_wrap=True)
    if fmt == "json":
        typer.echo(out.to_json(report))
    elif fmt == "csv":
        typer.echo(out.to_csv(report), nl=False)
    elif fmt == "latex":
        typer.echo(out.to_latex(report))
    else:
        for line in out.summary_lines(report):
            typer.echo(line)
        columns, rows = out.table(report)
        render(columns, rows, Fmt.table)
