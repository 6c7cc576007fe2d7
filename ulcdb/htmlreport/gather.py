"""What a report shows, computed as `ulcdb compare` and `ulcdb meta` compute it."""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TypeVar

from ulcdb import __version__
from ulcdb.compare import CompareReport, run, run_by
from ulcdb.compare.analysis import AnalysisTable, analyse
from ulcdb.compare.plan import DEFAULT_METRICS, plan
from ulcdb.errors import UlcdbError
from ulcdb.meta.evaluate import evaluate
from ulcdb.meta.plan import meta_task
from ulcdb.meta.report import MetaReport
from ulcdb.meta.select import criteria
from ulcdb.report import signatures
from ulcdb.scoring import Scorer, variant_of
from ulcdb.selection import Selection, select
from ulcdb.store import Store

T = TypeVar("T")
BUCKETS = ("length", "doc")
META_LEVELS = ("sys", "seg")


@dataclass(frozen=True)
class ReportRequest:
    """What `ulcdb report` is asked (the options of compare and meta it shares)."""

    testbed: str | None = None
    metrics: str | None = None
    systems: str | None = None
    refs: str | None = None
    baseline: str | None = None
    criterion: str | None = None
    seed: int = 12345
    out: str = "report.html"
    store: str = ""

    def command(self) -> str:
        """The command line that makes this report again."""
        options = (("-t", self.testbed), ("-m", self.metrics), ("-s", self.systems),
                   ("-r", self.refs), ("-b", self.baseline), ("-c", self.criterion))
        words = ["ulcdb", "--db", self.store, "report", self.out]
        words += [w for flag, value in options if value for w in (flag, value)]
        if self.seed != 12345:
            words += ["--seed", str(self.seed)]
        return shlex.join(words)


@dataclass
class ReportData:
    """Everything the page shows; an unavailable part holds the one-line reason instead."""

    request: ReportRequest
    selection: Selection
    refset: str
    variant: str
    whole: CompareReport
    bucket_baseline: str
    buckets: dict[str, CompareReport | str] = field(default_factory=dict)
    analyses: dict[str, AnalysisTable | str] = field(default_factory=dict)
    meta: dict[str, MetaReport | str] = field(default_factory=dict)
    signatures: dict[str, list[str]] = field(default_factory=dict)
    made: dict[str, str] = field(default_factory=dict)


def gather(store: Store, request: ReportRequest) -> ReportData:
    """Score what is missing, then compare, bucket, analyse and meta-evaluate."""
    sel = select(store, request.testbed, request.metrics or DEFAULT_METRICS,
                 request.systems, request.refs, None)
    planned = plan(store, sel, request.baseline)
    task = planned.task(store, seed=request.seed)
    Scorer(store, sel.testbed, sel.params, 1).run(sel.metrics, planned.pairs)
    whole = run(store, task)
    leader = request.baseline or _leader(whole)
    data = ReportData(request, sel, task.refset, variant_of(sel.params), whole, leader)
    by_task = replace(task, baseline=leader) if request.baseline is None else task
    if by_task.baseline and by_task.systems[0] != leader:
        by_task = replace(by_task, systems=(leader, *(s for s in task.systems if s != leader)))
    for by in BUCKETS:
        data.buckets[by] = _or_reason(partial(run_by, store, by_task, by))
    data.analyses = _analyses(store, sel, leader, request)
    data.meta = _meta(store, sel, task.refset, request.criterion)
    data.signatures = signatures(store, sel.testbed, None, sel.metrics, list(task.systems),
                                 [task.refset], variant_of(sel.params))
    data.made = {"command": request.command(), "ulcdb": __version__, "store": request.store,
                 "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
    return data


def _leader(report: CompareReport) -> str:
    """The system ranked first on the first metric: the baseline of the bucket tests when
    none is given (every pair in every bucket would be too many tests to read)."""
    first = report.task.metrics[0]
    ranked = sorted((r for r in report.results if r.metric == first), key=lambda r: r.rank)
    return ranked[0].system


def _analyses(store: Store, sel: Selection, leader: str, request: ReportRequest
              ) -> dict[str, AnalysisTable | str]:
    """compare-mt's word accuracy by frequency (against the first reference: it takes one)
    and the stored per-category scores, each against the bucket baseline."""
    out: dict[str, AnalysisTable | str] = {}
    one_ref = replace(sel, refs=sorted(sel.refs)[:1])
    for kind, chosen in (("word-freq", one_ref), ("category", sel)):
        def table(kind: str = kind, chosen: Selection = chosen) -> AnalysisTable:
            task = plan(store, chosen, leader).task(store, seed=request.seed)
            return analyse(store, task, kind)
        out[kind] = _or_reason(table)
    return out


def _meta(store: Store, sel: Selection, refset: str, criterion: str | None
          ) -> dict[str, MetaReport | str]:
    """Per criterion (the one named, else every one of the test bed) and level."""
    chosen = [criterion] if criterion else criteria(store, sel.testbed)
    if not chosen:
        return {"": "the test bed has no human judgments: nothing to meta-evaluate"}
    out: dict[str, MetaReport | str] = {}
    for name in chosen:
        for level in META_LEVELS:
            def report(level: str = level, name: str = name) -> MetaReport:
                task, _ = meta_task(store, testbed=sel.testbed, level=level, criterion=name,
                                    refs=refset, metrics=tuple(sel.metrics))
                return evaluate(store, task)
            out[f"{name}, {level} level"] = _or_reason(report)
    return out


def _or_reason(make: Callable[[], T]) -> T | str:
    """The part, or why it cannot be made (one line, as the CLI would say it)."""
    try:
        return make()
    except UlcdbError as exc:
        return str(exc)
