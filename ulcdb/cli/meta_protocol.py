"""`ulcdb meta --protocol wmt23|wmt24`: the WMT metrics-task table, from `ulcdb meta`'s options.

Options that belong to the coefficient table (--coef, --sig, --grouping, ...) are refused with
a protocol; the rest select test beds, metrics, targets, references and the criterion as they
do without one.
"""

from __future__ import annotations

from dataclasses import dataclass

import typer

from ulcdb.cli.common import Fmt, err_console, open_store, render
from ulcdb.meta import MetaError, MetaTask, select
from ulcdb.meta import protocol_report as out
from ulcdb.meta.plan import meta_task
from ulcdb.meta.protocol import Settings, levels, run
from ulcdb.scoring import imported_metrics
from ulcdb.store import Store


@dataclass(frozen=True)
class Selection:
    """What `ulcdb meta` selects, as given on the command line."""

    testbeds: tuple[str, ...]  # empty: the only test bed
    metrics: str | None
    systems: str | None
    refs: str | None
    criterion: str | None
    exclude: tuple[str, ...]
    exclude_human: bool
    include_human: bool
    variant: str | None
    reading: str
    human_from: str
    min_segments: int


def refuse(protocol: str, given: dict[str, bool]) -> None:
    """One error naming the options a protocol does not take."""
    bad = [name for name, on in given.items() if on]
    if bad:
        raise MetaError(f"--protocol {protocol} prints the WMT table and does not take "
                        f"{', '.join(bad)}")


def _tasks(store: Store, sel: Selection, protocol: str) -> tuple[list[MetaTask], list[str]]:
    """One seg-level task per test bed: metrics scored at every level the protocol needs."""
    names = list(sel.testbeds) or [store.only_testbed()]
    tasks, notes = [], []
    for name in names:
        tid = store.testbed_id(name)
        refset = select.refset(store, name, sel.refs)
        chosen: tuple[str, ...] | None = None
        for level in levels(protocol):
            kept, missing = select.metrics(store, name, refset, level, sel.metrics)
            chosen = kept if chosen is None else tuple(m for m in chosen if m in kept)
            if missing:
                notes.append(f"{name}: not scored at {level} level yet, left out (run "
                             f"`ulcdb score` first): {', '.join(missing)}")
        imported = imported_metrics(store, tid, refset, chosen or ())
        if imported:
            notes.append(f"imported scores used as they are: {', '.join(imported)}")
        task, _ = meta_task(
            store, testbed=name, level="seg", criterion=sel.criterion, refs=sel.refs,
            metrics=chosen or (), systems=sel.systems, exclude=sel.exclude,
            exclude_human=sel.exclude_human, include_human=sel.include_human,
            variant=sel.variant, reading=sel.reading, human_from=sel.human_from,
            min_segments=sel.min_segments, n_resamples=0)
        tasks.append(task)
    if len({t.criterion for t in tasks}) > 1:
        raise MetaError("the test beds must be judged with one criterion: name it with -c")
    return tasks, notes


def run_protocol(sel: Selection, settings: Settings, fmt: str) -> None:
    """Evaluate and print the protocol's table in ``fmt`` (table, csv, json or latex)."""
    with open_store(read_only=True) as store:
        tasks, notes = _tasks(store, sel, settings.protocol)
        report = run(store, tasks, settings)
    for line in notes + report.warnings:
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
