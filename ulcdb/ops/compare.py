"""`ulcdb compare` and ``Database.compare``: paired significance tests, per bucket, or
compare-mt's analyses.  The task (systems, --where, --by) is planned on the store read before
anything is scored, so a bad predicate or bucketing leaves the store as it was; the scores the
tests need are computed first where missing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ulcdb.compare import CompareError, CompareReport, CompareTask, run, run_by
from ulcdb.compare.analysis import ANALYSES, AnalysisTable, analyse
from ulcdb.compare.buckets import segment_labels
from ulcdb.compare.plan import DEFAULT_METRICS, plan
from ulcdb.compare.run import ALPHA, METHODS
from ulcdb.errors import choice
from ulcdb.ops.access import Access
from ulcdb.ops.score import SCORING, Request, Scoring, scored
from ulcdb.scoring.progress import Progress, silent
from ulcdb.scoring.scorer import Pair
from ulcdb.scoring.selection import ScoreSelection
from ulcdb.stats.sacrebleu_significance import SACREBLEU_SEED
from ulcdb.store.database import Store

UNITS = ("seg", "doc")  # what is resampled (`ulcdb compare --unit`)


@dataclass(frozen=True)
class Tests:
    """What is tested and how (the options of `ulcdb compare` past the selection)."""

    baseline: str | None = None
    method: str = "bs"
    resamples: int | None = None
    seed: int = SACREBLEU_SEED
    unit: str = "seg"
    where: str | None = None
    by: str | None = None
    variant: str | None = None
    alpha: float = ALPHA


@dataclass
class Compared:
    """The tests' report, or the analysis table; how scoring went (``imported``: the
    summary's note on imported scores used as they are)."""

    task: CompareTask
    report: CompareReport | None
    analysis: AnalysisTable | None
    summary: str
    computed: bool
    notes: tuple[str, ...]
    imported: tuple[str, ...] = ()


def compare(access: Access, request: Request, tests: Tests = Tests(),
            scoring: Scoring = SCORING, analysis: str | None = None,
            progress: Progress | None = None) -> Compared:
    """The tests of ``tests`` over ``request`` (metrics default to sacrebleu's BLEU, chrF,
    1-TER), or with ``analysis`` (word-freq, category) that analysis of the metric families
    ``request.metrics`` names; ``progress`` shows the tests done (``CompareTask.steps`` per
    bucket), ``scoring.progress`` the scores computed first."""
    choice("method", tests.method, METHODS)
    choice("unit", tests.unit, UNITS)
    if analysis is not None:
        choice("analysis", analysis, ANALYSES)
    if analysis is not None and tests.by:
        raise CompareError("--analysis and --by are separate views: give one of them")
    families = request.metrics if analysis else None
    # -s is read by plan (not the selection): a reference may stand as a system there
    picked = Request(request.testbed, DEFAULT_METRICS if analysis else
                     request.metrics or DEFAULT_METRICS, None, request.refs,
                     None, request.lowercase)
    tasks: list[CompareTask] = []

    def planned(store: Store, sel: ScoreSelection) -> list[Pair]:
        p = plan(store, sel, tests.baseline, request.systems)
        tasks.append(p.task(store, variant=tests.variant, method=tests.method,
                            resamples=tests.resamples, seed=tests.seed, unit=tests.unit,
                            where=tests.where, alpha=tests.alpha))
        if tests.by:  # refused before anything is scored
            segment_labels(store, tasks[0], tests.by)
        return [] if analysis else p.pairs

    with scored(access, picked, scoring, pairs=planned) as done:
        task = tasks[0]
        if analysis is not None:
            table = analyse(done.store, task, analysis, families, progress)
            return Compared(task, None, table, done.summary, done.computed,
                            done.selection.notes, done.imported)
        if tests.by:
            report = run_by(done.store, task, tests.by, progress)
        else:
            with (progress or silent)(task.steps) as tick:
                report = run(done.store, task, tick=tick)
    return Compared(task, report, None, done.summary, done.computed, done.selection.notes,
                    done.imported)


RESULT_COLUMNS = ["system", "baseline", "metric", "score", "mean", "ci", "ci_low", "ci_high",
                  "p_value", "method", "n_samples", "seed", "n_units", "refset", "variant"]


def results(report: CompareReport) -> tuple[list[str], list[list[Any]]]:
    """One row per system and metric (and bucket), as `ulcdb compare -f json` prints them;
    without a baseline with each system's rank and cluster."""
    t = report.task
    by = ["bucket"] if any(r.bucket is not None for r in report.results) else []
    extra = ["rank", "cluster"] if t.baseline is None else []
    return by + RESULT_COLUMNS + extra + ["note"], [
        [r.bucket][:len(by)] + [r.system, r.baseline, r.metric, r.score, r.mean, r.ci,
                                r.ci_low, r.ci_high, r.p_value, t.method, t.n_samples,
                                t.seed, r.n_units, r.refset, r.variant]
        + ([r.rank, r.cluster] if extra else []) + [r.note] for r in report.results]


def pairs(report: CompareReport) -> tuple[list[str], list[list[Any]]]:
    """Without a baseline: one row per pair of systems and metric (and bucket)."""
    by = ["bucket"] if any(r.bucket is not None for r in report.results) else []
    return by + ["metric", "system_a", "system_b", "delta", "p_value", "p_holm"], [
        [p.bucket][:len(by)] + [p.metric, p.system_a, p.system_b, p.delta, p.p_value,
                                p.p_holm] for p in report.pairs]

