"""What a report shows, computed by the layer `ulcdb compare` and `ulcdb meta` use
(``ulcdb.ops``), so its numbers are theirs."""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from ulcdb import __version__
from ulcdb.compare import CompareReport
from ulcdb.compare.analysis import AnalysisTable
from ulcdb.errors import UlcdbError
from ulcdb.meta.report import MetaReport
from ulcdb.meta.select import criteria, criterion
from ulcdb.ops import compare as compare_op
from ulcdb.ops import meta as meta_op
from ulcdb.ops.access import Access
from ulcdb.ops.score import Request, Scoring
from ulcdb.scoring.progress import Progress, Tick, silent
from ulcdb.scoring.report import signatures
from ulcdb.scoring.selection import resolve_translators
from ulcdb.store.database import named_query

T = TypeVar("T")
BUCKETS = ("length", "doc")
ANALYSES = ("word-freq", "category")
META_LEVELS = ("sys", "seg")
# The coefficients of the report's meta table, the only ones computed: meta's defaults
# (DARR, accuracy) were computed unseen, and the note that DARR was left out told the
# reader to "give --coef darr_tau --threshold T", options `ulcdb report` does not have.
META_COEFS = ("pearson", "spearman", "kendall_tau_b")


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
    whole: CompareReport
    bucket_baseline: str
    buckets: dict[str, CompareReport | str] = field(default_factory=dict)
    analyses: dict[str, AnalysisTable | str] = field(default_factory=dict)
    meta: dict[str, MetaReport | str] = field(default_factory=dict)
    signatures: dict[str, list[str]] = field(default_factory=dict)
    made: dict[str, str] = field(default_factory=dict)
    testbed_facts: dict[str, object] = field(default_factory=dict)  # lp, segments, documents

    @property
    def testbed(self) -> str:
        return self.whole.task.testbed

    @property
    def refset(self) -> str:
        return self.whole.task.refset

    @property
    def variant(self) -> str:
        return ", ".join(dict.fromkeys(self.whole.variants.values())) or "-"


def gather(access: Access, request: ReportRequest, progress: Progress | None = None
           ) -> ReportData:
    """Score what is missing, then compare, bucket, analyse and meta-evaluate; ``progress``
    is shown the scores computed, the whole set's tests, then the report's other parts."""
    _check_selection(access, request)
    selection = Request(request.testbed, request.metrics, request.systems, request.refs)
    whole = _compared(access, selection, compare_op.Tests(request.baseline, seed=request.seed),
                      progress)
    leader = request.baseline or _leader(whole)
    data = ReportData(request, whole, leader)
    with access.read() as store:
        chosen = [request.criterion] if request.criterion else criteria(store, data.testbed)
    parts = len(BUCKETS) + len(ANALYSES) + len(chosen) * len(META_LEVELS)
    with (progress or silent)(parts) as tick:
        for by in BUCKETS:
            tests = compare_op.Tests(leader, seed=request.seed, by=by)
            data.buckets[by] = _or_reason(partial(_compared, access, selection, tests))
            tick(f"by {by}", 1)
        first_ref = sorted(data.refset.split("+"))[0]
        for kind in ANALYSES:
            chosen_refs = first_ref if kind == "word-freq" else request.refs
            data.analyses[kind] = _or_reason(partial(
                _analysed, access, Request(request.testbed, None, request.systems,
                                           chosen_refs), leader, request, kind))
            tick(kind, 1)
        data.meta = _meta(access, data, chosen, tick)
    with access.read() as store:
        lp, segments, documents = store.query(named_query("report_testbed"),
                                              [data.testbed])[0]
        data.testbed_facts = {"lp": lp, "segments": segments, "documents": documents}
        data.signatures = signatures(store, data.testbed, None, list(whole.task.metrics),
                                     list(whole.task.systems), [data.refset],
                                     next(iter(whole.variants.values()), ""))
    data.made = {"command": request.command(), "ulcdb": __version__, "store": request.store,
                 "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
    return data


def _check_selection(access: Access, request: ReportRequest) -> None:
    """Refused before anything is computed: a criterion the test bed has not (-c mqm for
    MQM wrote the whole page, its meta-evaluation a line saying so), and a test bed (or -s)
    of one system, said in the report's words (the comparison's own refusal, 'compare needs
    at least two systems', named another command); a selection the store cannot resolve is
    left to the comparison to refuse."""
    with access.read() as store:
        try:
            testbed = request.testbed or store.only_testbed()
            systems = resolve_translators(store, store.testbed_id(testbed), "system",
                                          request.systems)
        except UlcdbError:
            return
        if request.criterion:
            criterion(store, testbed, request.criterion)
    if len(systems) >= 2:
        return
    what = f"-s {request.systems} names" if request.systems else f"test bed {testbed!r} has"
    one = f"one system ({systems[0]})" if systems else "no system"
    raise UlcdbError(f"a report compares systems, and {what} {one}: give two or more (`ulcdb "
                     f"score -t {testbed}` prints the scores of one)")


def _compared(access: Access, selection: Request, tests: compare_op.Tests,
              progress: Progress | None = None) -> CompareReport:
    done = compare_op.compare(access, selection, tests, Scoring(progress=progress),
                              progress=progress)
    if done.report is None:
        raise UlcdbError("no comparison was made")
    return done.report


def _analysed(access: Access, selection: Request, leader: str, request: ReportRequest,
              kind: str) -> AnalysisTable:
    """compare-mt's word accuracy by frequency (against one reference: it takes one) or the
    stored per-category scores, each against the bucket baseline."""
    done = compare_op.compare(access, selection,
                              compare_op.Tests(leader, seed=request.seed), analysis=kind)
    if done.analysis is None:
        raise UlcdbError(f"no {kind} analysis was made")
    return done.analysis


def _leader(report: CompareReport) -> str:
    """The system ranked first on the first metric: the baseline of the bucket tests when
    none is given (every pair in every bucket would be too many tests to read)."""
    first = report.task.metrics[0]
    ranked = sorted((r for r in report.results if r.metric == first),
                    key=lambda r: r.rank or len(report.results))
    return ranked[0].system


def _meta(access: Access, data: ReportData, chosen: list[str], tick: Tick
          ) -> dict[str, MetaReport | str]:
    """Per criterion (the one named, else every one of the test bed) and level."""
    if not chosen:
        return {"": "the test bed has no human judgments: nothing to meta-evaluate"}
    out: dict[str, MetaReport | str] = {}
    for name in chosen:
        for level in META_LEVELS:
            def report(level: str = level, name: str = name) -> MetaReport:
                return meta_op.meta(access, level=level, testbed=data.testbed, criterion=name,
                                    refs=data.refset,
                                    metrics=tuple(data.whole.task.metrics),
                                    coefficients=META_COEFS).report
            out[f"{name}, {level} level"] = _or_reason(report)
            tick(f"meta {name} {level}", 1)
    return out


def _or_reason(make: Callable[[], T]) -> T | str:
    """The part, or why it cannot be made (one line, as the CLI would say it)."""
    try:
        return make()
    except UlcdbError as exc:
        return str(exc)
