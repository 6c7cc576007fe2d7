"""`ulcdb report OUT.html`: one self-contained HTML file with a test bed's results."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from ulcdb.cli.common import err_console, progress_bar, state, store_file
from ulcdb.cli.options import MetricsOpt, RefsOpt, SystemsOpt, TestbedOpt


def report(
    out: Annotated[Path, typer.Argument(help="The HTML file to write.", show_default=False)],
    testbed: TestbedOpt = None,
    metrics: MetricsOpt = None,
    systems: SystemsOpt = None,
    refs: RefsOpt = None,
    baseline: Annotated[str | None, typer.Option(
        "-b", "--baseline", help="Baseline system (without: every pair, with clusters; the "
        "per-bucket tests then use the system ranked first).")] = None,
    criterion: Annotated[str | None, typer.Option(
        "-c", "--criterion", help="Human criterion of the meta-evaluation (default: the only "
        "one).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed (sacrebleu's).")] = 12345,
) -> None:
    """Write one HTML file to share: systems with intervals and clusters, per-bucket and
    word-level comparisons, the meta-evaluation when there are human judgments, and the
    signature of every number. It opens in any browser without a network (scripts, styles
    and data are inside). Missing scores are computed first, as `ulcdb compare` does.

    Example: ulcdb report ende.html -m BLEU,chrF -b Online-W -c MQM
    """
    from ulcdb.errors import UlcdbError
    from ulcdb.htmlreport.gather import ReportRequest, gather
    from ulcdb.htmlreport.page import write_report

    if out.suffix.lower() not in (".html", ".htm"):
        raise UlcdbError(f"{out}: the report is an HTML file: name it OUT.html")
    if not out.parent.is_dir():
        raise UlcdbError(f"{out}: its folder {out.parent} does not exist")
    request = ReportRequest(testbed, metrics, systems, refs, baseline, criterion, seed,
                            str(out), str(state.db))
    data = gather(store_file, request, partial(progress_bar, verb="reporting"))
    size = write_report(data, out)
    err_console.print(f"wrote {out} ({size / 1e6:.1f} MB)", style="dim", highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(report)
