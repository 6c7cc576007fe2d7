"""`ulcdb tune`: tune a metric's weights against human scores (TINE's alpha and beta)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from ulcdb.cli.common import Fmt, err_console, progress_bar, render, store_file
from ulcdb.cli.options import FmtOpt, JobsOpt, VerbnetOpt, use_verbnet


def tune(
    metric: Annotated[str, typer.Argument(help="The metric to tune: TINE.")],
    criterion: Annotated[str | None, typer.Option(
        "--criterion", "-c", help="Human criterion, e.g. DA-z, MQM (default: the only "
        "one).")] = None,
    level: Annotated[str, typer.Option(
        "-G", "--level", help="Level of the Kendall tau maximised: seg or sys.")] = "seg",
    testbed: Annotated[str | None, typer.Option(
        "--testbed", "-t", help="Development test bed (default: the only one).")] = None,
    systems: Annotated[str | None, typer.Option(
        "-s", "--systems", help="System set or names (default: every system).")] = None,
    refs: Annotated[str | None, typer.Option(
        "-r", "--refs", help="References (default: all).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the genetic algorithm.")] = 1234,
    jobs: JobsOpt = None,
    verbnet: VerbnetOpt = None,
    fmt: FmtOpt = Fmt.table,
) -> None:
    """Tune TINE's alpha and beta on a development test bed and store the tuned metric.

    The paper's genetic algorithm (80 individuals, 100 generations, roulette selection,
    crossover 0.9, mutation 0.01, seeded) maximises Kendall's tau-b between the humans and
    (alpha L + beta A) / (alpha + beta), L and A being TINE-L and TINE-A against each
    reference (scored first where missing).  The result is stored as a metric of its own,
    e.g. TINE[alpha=0.62,beta=0.02], whose signature records seed, test bed and criterion;
    `ulcdb meta` warns when it is evaluated on the test bed it was tuned on.

    Example: ulcdb tune TINE -c DA-z -G seg -t wmt21.ru-en.dev
    """
    from ulcdb.ops.tune import COLUMNS
    from ulcdb.ops.tune import tune as run_tune

    use_verbnet(verbnet)
    done = run_tune(store_file, metric, criterion=criterion, level=level, testbed=testbed,
                    systems=systems, refs=refs, seed=seed, jobs=jobs,
                    log=lambda line: err_console.print(line, style="dim", highlight=False),
                    progress=partial(progress_bar, verb="tuning"))
    err_console.print(done.stored, style="dim", highlight=False, markup=False)
    render(COLUMNS, [done.row()], fmt)


def register(app: typer.Typer) -> None:
    app.command()(tune)
