"""`ulcdb meta` and ``Database.meta``: the stored scores correlated with a human criterion
(the task planned by ``ulcdb.meta.plan``, evaluated by ``ulcdb.meta.evaluate``), with the
pairwise significance of the metrics where asked; `ulcdb meta protocol` and
``Database.meta_protocol``: the WMT23/WMT24 metrics-task tables (``ulcdb.meta.protocol``)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ulcdb.errors import MetaChoiceError, MetaError, choice, hint
from ulcdb.meta import MetaReport, MetaTask, MetricComparison, compare, evaluate, select
from ulcdb.meta.plan import meta_task
from ulcdb.meta.protocol import Progress, ProtocolReport, Settings
from ulcdb.meta.protocol import levels as protocol_levels
from ulcdb.meta.protocol import run as run_protocol
from ulcdb.meta.report import BY_NAME
from ulcdb.meta.task import SIG_TESTS
from ulcdb.ops.access import Access
from ulcdb.ops.levels import LEVELS, level_choice
from ulcdb.scoring.remedy import remedy
from ulcdb.scoring.scorer import imported_metrics
from ulcdb.store.database import Store

READINGS = ("metric", "seg-mean", "doc-mean")  # as `--reading` spells them
SELECTION = ("testbed", "criterion", "refs", "metrics", "systems", "exclude", "exclude_human")
OPTIONS = {  # `ulcdb meta` options whose argument is spelled otherwise: (option, what to use)
    "bootstrap": ("--bootstrap", "n_resamples"),
    "ci": ("--ci", "ci_levels, fractions: --ci 95,99 is ci_levels=(0.95, 0.99)"),
    "coef": ("--coef", "coefficients"),
    "own_items": ("--own-items", "items='own'"),
    "acc_ties": ("--acc-ties", "accuracy_ties"),
    "dr": ("--dr", "reading='doc-mean'"),
    "human": ("--human", "human_from"),
}


@dataclass
class Meta:
    """The report, the metric comparisons (--sig), and what the CLI tells on stderr."""

    report: MetaReport
    comparisons: list[MetricComparison] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # named, not scored: left out
    imported: list[str] = field(default_factory=list)  # imported scores used as they are
    remedy: str = ""  # how to get the missing ones' scores (``scoring.remedy``)

    def notes(self) -> list[str]:
        """The lines `ulcdb meta` prints on stderr, before the table."""
        out = []
        if self.missing:
            out.append(left_out(self.missing, self.remedy,
                                f" at {self.report.task.level} level"))
        if self.imported:
            out.append(f"imported scores used as they are: {', '.join(self.imported)}")
        return out


def meta(access: Access, *, level: str = "sys", sort: str | None = None,
         sig: str | None = None, sig_coef: str | None = None, **selection: Any) -> Meta:
    """Evaluate the task of ``selection`` (``meta.plan.meta_task``'s arguments: testbed,
    criterion, refs, metrics, systems, exclude and MetaTask's fields) at ``level``; the rows
    rank the metrics best first by ``sort``, one of its coefficients (default: the first), or
    come in name order with ``sort='name'``; ``sig`` (paired-bootstrap or permutation) tests
    every pair of metrics on ``sig_coef`` (default ``sort``'s, else the first coefficient)."""
    _refuse_unknown(selection)
    level = level_choice(level, LEVELS)
    if sig is not None:  # refused before the evaluation, not after it
        choice("significance test", sig, SIG_TESTS, MetaChoiceError)
    if "reading" in selection:
        selection["reading"] = reading(selection["reading"])
    with access.read() as store:
        task, missing = meta_task(store, level=level, **selection)
        report = evaluate(store, task)
        imported = imported_metrics(store, store.testbed_id(task.testbed), task.refset,
                                    list(task.metrics or ()))
        hint = remedy(store, task.testbed, missing, [task.refset], level) if missing else ""
    coefs = report.task.coefs
    if sort and sort not in (*coefs, BY_NAME):
        raise MetaError(f"--sort {sort!r} is not among the coefficients ({', '.join(coefs)}) "
                        f"nor {BY_NAME!r}")
    ranked_by = sort if sort in coefs else coefs[0]
    comparisons = compare(report, sig_coef or ranked_by, sig) if sig else []
    return Meta(report, comparisons, missing, imported, hint)


def _refuse_unknown(selection: dict[str, Any]) -> None:
    """Python's TypeError for an argument ``meta`` does not take, naming the one to use where
    it is the command's spelling (it named MetaTask.__init__, a class the caller never met)."""
    known = [*SELECTION, *(f.name for f in fields(MetaTask))]
    for name in selection:
        if name in known:
            continue
        said = f"meta() got an unexpected keyword argument {name!r}"
        if name in OPTIONS:
            option, use = OPTIONS[name]
            raise TypeError(f"{said} (`ulcdb meta {option}`): use {use}")
        raise TypeError(said + hint(name, known))


def reading(name: str) -> str:
    """A reading as MetaTask names it, from the command's spelling too (seg-mean is
    seg_mean); refused as the command refuses it."""
    if name.replace("_", "-") not in READINGS:
        choice("reading", name, READINGS, MetaChoiceError)
    return name.replace("-", "_")


def left_out(missing: list[str], hint: str, where: str = "") -> str:
    """The note on metrics named but without scores (``where``), left out: which, and what
    to do."""
    return f"not scored{where}, left out: {', '.join(missing)}; {hint}"


@dataclass(frozen=True)
class Beds:
    """What `ulcdb meta protocol` evaluates: test beds (none: the only one), metrics,
    targets, references and the criterion, as `ulcdb meta` selects them."""

    testbeds: tuple[str, ...] = ()
    metrics: str | None = None
    systems: str | None = None
    refs: str | None = None
    criterion: str | None = None
    exclude: tuple[str, ...] = ()
    exclude_human: bool = False
    include_human: bool = False
    variant: str | None = None
    reading: str = "metric"
    human_from: str = "auto"
    min_segments: int = 1


def protocol(access: Access, name: str, beds: Beds = Beds(), n_resamples: int = 1000,
             seed: int = 1234, progress: Progress | None = None
             ) -> tuple[ProtocolReport, list[str]]:
    """The WMT23 or WMT24 (``name``) metrics-task table of ``beds``, and the lines to tell:
    metrics left out where not scored at a level the protocol needs, imported scores;
    ``progress`` shows the columns done."""
    settings = Settings(name, n_resamples, seed)
    with access.read() as store:
        tasks, notes = _protocol_tasks(store, beds, name)
        report = run_protocol(store, tasks, settings, progress)
    return report, notes + report.warnings


def _protocol_tasks(store: Store, beds: Beds, name: str) -> tuple[list[MetaTask], list[str]]:
    """One seg-level task per test bed: metrics scored at every level the protocol needs."""
    tasks, notes = [], []
    for bed in list(beds.testbeds) or [store.only_testbed()]:
        tid = store.testbed_id(bed)
        refset = select.refset(store, bed, beds.refs)
        chosen: tuple[str, ...] | None = None
        for level in protocol_levels(name):
            kept, missing = select.metrics(store, bed, refset, level, beds.metrics)
            chosen = kept if chosen is None else tuple(m for m in chosen if m in kept)
            if missing:
                hint = remedy(store, bed, missing, [refset], level)
                notes.append(f"{bed}: " + left_out(missing, hint, f" at {level} level"))
        imported = imported_metrics(store, tid, refset, chosen or ())
        if imported:
            notes.append(f"imported scores used as they are: {', '.join(imported)}")
        task, _ = meta_task(
            store, testbed=bed, level="seg", criterion=beds.criterion, refs=beds.refs,
            metrics=chosen or (), systems=beds.systems, exclude=beds.exclude,
            exclude_human=beds.exclude_human, include_human=beds.include_human,
            variant=beds.variant, reading=reading(beds.reading), human_from=beds.human_from,
            min_segments=beds.min_segments, n_resamples=0)
        tasks.append(task)
    if len({t.criterion for t in tasks}) > 1:
        raise MetaError("the test beds must be judged with one criterion: name it with -c")
    return tasks, notes
