"""`ulcdb tune`: tune a metric's weights against human scores (TINE's alpha and beta)."""

from __future__ import annotations

from typing import Annotated

import typer

from ulcdb.cli.common import Fmt, err_console, open_store, render
from ulcdb.cli.options import FmtOpt, JobsOpt, VerbnetOpt, use_verbnet
from ulcdb.errors import UlcdbError

TUNABLE = ("TINE",)


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
    from ulcdb.meta import select as meta_select
    from ulcdb.metrics.tine_tune import GENERATIONS, INDIVIDUALS
    from ulcdb.metrics.tine_tune import tune as tune_tine
    from ulcdb.scoring import variant_of
    from ulcdb.selection import select

    use_verbnet(verbnet)
    if metric not in TUNABLE:
        raise UlcdbError(f"cannot tune {metric!r}: tunable metrics are {', '.join(TUNABLE)}")
    if level not in ("seg", "sys"):
        raise UlcdbError(f"-G must be seg or sys, not {level!r}")
    with open_store() as store:
        sel = select(store, testbed, "TINE-L,TINE-A", systems, refs, None)
        name = meta_select.criterion(store, sel.testbed, criterion)
        humans = set(meta_select.human_translations(store, store.testbed_id(sel.testbed)))
        targets = [s for s in sel.systems if s not in humans]
        err_console.print(f"tuning {metric} on {sel.testbed} against {name} ({level} level): "
                          f"{len(targets)} systems, references {', '.join(sel.refs)}, "
                          f"GA {INDIVIDUALS}x{GENERATIONS}, seed {seed}", style="dim",
                          highlight=False)
        tuned, report = tune_tine(store, sel.testbed, targets, sel.refs, sel.params, name,
                                  level, seed, jobs)
        variant = variant_of(sel.params)
    err_console.print(f"stored {tuned.name}: {report.summary()}", style="dim", highlight=False,
                      markup=False)
    render(["metric", "alpha", "beta", "kendall_tau_b", "level", "criterion", "seed",
            "variant"],
           [[tuned.name, tuned.alpha, tuned.beta, tuned.fitness, level, name, seed, variant]],
           fmt)


def register(app: typer.Typer) -> None:
    app.command()(tune)
