"""`ulcdb compare`: which system is better, by how much, and is the difference significant.

With a baseline: every system against it (sacrebleu's paired tests).  Without: every pair,
p-values adjusted with Holm-Bonferroni per metric, and WMT-style significance clusters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import combinations

import numpy as np

from ulcdb.compare.data import (
    CompareError,
    Fetched,
    UnitData,
    fetch,
    load_units,
    metric_variant,
)
from ulcdb.scoring.progress import Tick
from ulcdb.scoring.report import higher_is_better
from ulcdb.stats import sacrebleu_significance as sig
from ulcdb.stats.correlations import FloatArray, IntArray
from ulcdb.store.database import Store

METHODS = ("bs", "ar")
ALPHA = 0.05
MIN_UNITS = 10  # fewer units: no test, no interval (the resamples barely vary)


@dataclass(frozen=True)
class CompareTask:
    testbed: str
    metrics: tuple[str, ...]
    systems: tuple[str, ...]  # the baseline first when there is one
    refset: str
    default_variant: str
    baseline: str | None = None
    variant: str | None = None
    method: str = "bs"
    resamples: int | None = None  # default: sig.default_resamples (sacrebleu's, or more)
    seed: int | None = sig.SACREBLEU_SEED
    unit: str = "seg"
    segments: frozenset[int] | None = None  # --where / --by selections
    alpha: float = ALPHA
    references_as_systems: tuple[str, ...] = ()  # scored against the other references

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise CompareError(f"--method must be bs or ar, not {self.method!r}")
        if len(self.systems) < 2:
            raise CompareError("compare needs at least two systems")
        if not 0 < self.alpha < 1:
            raise CompareError(f"--alpha must be between 0 and 1, not {self.alpha:g}")
        if self.resamples is not None:
            self._check_resamples(self.resamples)

    def _check_resamples(self, n: int) -> None:
        what = "--resamples" if self.method == "bs" else "--resamples (trials)"
        if n <= 0:
            raise CompareError(f"{what} must be a positive number, not {n} (leave it out for "
                               f"the default, {self.n_samples_default})")
        need = sig.resamples_needed(self.n_tests, self.alpha)
        if n < need:
            over = (f"Holm-Bonferroni over {self.n_tests} pairs" if self.n_tests > 1
                    else "one test")
            raise CompareError(
                f"{what} {n} cannot give a p-value below {self.alpha:g} after {over} (the "
                f"smallest is {self.n_tests}/{n + 1} = {sig.smallest_p(self.n_tests, n):.3g}): "
                f"use at least {need}, or leave it out ({self.n_samples_default})")

    @property
    def n_tests(self) -> int:
        """The tests of one metric: every pair (Holm-adjusted), or one per system against the
        baseline (sacrebleu's, not adjusted)."""
        k = len(self.systems)
        return 1 if self.baseline is not None else k * (k - 1) // 2

    @property
    def steps(self) -> int:
        """The progress steps of ``run``: per metric, each system's interval or test against
        the baseline, and without one each pair's test too."""
        per_metric = len(self.systems) + (0 if self.baseline is not None else self.n_tests)
        return len(self.metrics) * per_metric

    @property
    def n_samples_default(self) -> int:
        return sig.default_resamples(self.method, self.n_tests, self.alpha)

    @property
    def n_samples(self) -> int:
        return self.resamples if self.resamples is not None else self.n_samples_default


@dataclass(frozen=True)
class Result:
    """One system on one metric: against the baseline (or its own interval)."""

    system: str
    baseline: str | None
    metric: str
    score: float
    mean: float | None
    ci: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    n_units: int
    rank: int = 0
    cluster: int | None = 0  # None: too few units for a test, no clusters
    bucket: str | None = None  # --by: the bucket of segments tested
    refset: str = ""
    variant: str = ""
    note: str = ""  # why there is no test (too few units)


@dataclass(frozen=True)
class PairResult:
    metric: str
    system_a: str
    system_b: str
    delta: float  # score a - score b
    p_value: float
    p_holm: float
    bucket: str | None = None


@dataclass
class CompareReport:
    task: CompareTask
    results: list[Result] = field(default_factory=list)
    pairs: list[PairResult] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)  # metric -> how it is resampled
    variants: dict[str, str] = field(default_factory=dict)  # metric -> variant compared
    notes: list[str] = field(default_factory=list)


@dataclass
class Fetches:
    """What ``run`` reads per metric, kept across calls on other segments of the same
    systems (``run_by``): the variant compared, and the stored rows by (metric, variant)."""

    variants: dict[str, str] = field(default_factory=dict)
    rows: dict[tuple[str, str], Fetched] = field(default_factory=dict)


def run(store: Store, task: CompareTask, fetched: Fetches | None = None,
        tick: Tick | None = None, label: str = "") -> CompareReport:
    """The paired tests of ``task``; ``fetched`` keeps each metric's variant and stored rows
    across calls on other segments of the same systems (``run_by``); ``tick`` hears each of
    the ``task.steps`` steps done, named by ``label`` and the metric."""
    report = CompareReport(task)
    for metric in task.metrics:
        name = f"{label} {metric}".strip()
        done = partial(tick or _no_tick, name)
        data = _load(store, task, metric, Fetches() if fetched is None else fetched)
        report.readings[metric] = data.measure.reading
        if data.dropped:
            report.notes.append(f"{metric}: {data.dropped} {task.unit} unit(s) left out "
                                "(not scored for every system)")
        report.variants[metric] = data.variant
        higher = higher_is_better(store, [metric]).get(metric, True)  # unknown: higher
        if len(data.units) < MIN_UNITS:
            results = _untested(task, data, higher)
            done(task.steps // len(task.metrics))
        elif task.baseline is not None:
            results = _against_baseline(task, data, done)
        else:
            results, pairs = _all_pairs(task, data, higher, done)
            report.pairs += pairs
        report.results += [replace(r, refset=task.refset, variant=data.variant)
                           for r in results]
    return report


def _no_tick(label: str, n: int) -> None:
    pass


def _load(store: Store, task: CompareTask, metric: str, fetched: Fetches) -> UnitData:
    if metric not in fetched.variants:
        fetched.variants[metric] = metric_variant(store, task.testbed, metric, task.refset,
                                                  task.variant, task.default_variant)
    variant = fetched.variants[metric]
    if (metric, variant) not in fetched.rows:
        fetched.rows[metric, variant] = fetch(store, task.testbed, metric, list(task.systems),
                                              task.refset, variant)
    return load_units(store, task.testbed, metric, list(task.systems), task.refset, variant,
                      task.unit, set(task.segments) if task.segments is not None else None,
                      fetched.rows[metric, variant])


def _paired(task: CompareTask, data: UnitData, base: str, system: str,
            idxs: IntArray | None, bl_scores: FloatArray | None) -> sig.Paired:
    m = data.measure
    if np.array_equal(data.stats[base], data.stats[system]):
        return m.map_paired(_identical(task, data, base, system, idxs, bl_scores))
    if task.method == "ar":
        raw = sig.sacrebleu_paired_ar(data.stats[base], data.stats[system], m.score,
                                       task.n_samples, task.seed)
    else:
        raw = sig.sacrebleu_paired_bs(data.stats[base], data.stats[system], m.score,
                                      task.n_samples, task.seed, idxs, bl_scores, m.many)
    return m.map_paired(raw)


def _identical(task: CompareTask, data: UnitData, base: str, system: str,
               idxs: IntArray | None, bl_scores: FloatArray | None) -> sig.Paired:
    """Two systems with the same statistics on every unit: no test can tell them apart, so
    p = 1 (sacrebleu's formula would give 1 / (n + 1), every resampled difference being 0)."""
    score = sig.corpus_score(data.stats[system], data.measure.score)
    iv = None
    if task.method == "bs":
        if bl_scores is None:
            idxs = sig.bootstrap_indices(len(data.units), task.n_samples, task.seed) \
                if idxs is None else idxs
            bl_scores = sig.resampled_scores(data.stats[base], idxs, data.measure.score,
                                             data.measure.many)
        iv = sig.estimate_ci(bl_scores)
    return sig.Paired(score, score, 1.0, iv)


def _against_baseline(task: CompareTask, data: UnitData, done: Callable[[int], None]
                      ) -> list[Result]:
    base = task.systems[0]
    m, n = data.measure, len(data.units)
    idxs = bl_scores = None
    bl_iv = None
    if task.method == "bs":
        idxs = sig.bootstrap_indices(n, task.n_samples, task.seed)
        bl_scores = sig.resampled_scores(data.stats[base], idxs, m.score, m.many)
        bl_iv = m.map_paired(sig.Paired(0, 0, 1, sig.estimate_ci(bl_scores))).interval
    bl_score = m.to_metric(sig.corpus_score(data.stats[base], m.score))
    out = [_result(base, None, data.metric, bl_score, bl_iv, None, n)]
    done(1)
    for system in task.systems[1:]:
        p = _paired(task, data, base, system, idxs, bl_scores)
        out.append(_result(system, base, data.metric, p.score, p.interval, p.p_value, n))
        done(1)
    return out


def _untested(task: CompareTask, data: UnitData, higher: bool) -> list[Result]:
    """Scores without a test: too few units for resamples to vary (one segment gives the
    same resample every time, hence p = 1/(n+1) and an interval of 0 whatever the data)."""
    m, n = data.measure, len(data.units)
    units = "segment" if task.unit == "seg" else "document"
    why = (f"only {n} {units}{'s' if n != 1 else ''} (a test needs {MIN_UNITS}): no "
           "interval, no p-value")
    scores = {s: m.to_metric(sig.corpus_score(data.stats[s], m.score)) for s in task.systems}
    if task.baseline is not None:
        return [Result(s, None if s == task.baseline else task.baseline, data.metric,
                       scores[s], None, None, None, None, None, n, note=why)
                for s in task.systems]
    ranked = sorted(task.systems, key=lambda s: -scores[s] if higher else scores[s])
    return [Result(s, None, data.metric, scores[s], None, None, None, None, None, n, rank,
                   None, note=why) for rank, s in enumerate(ranked, 1)]


def _result(system: str, baseline: str | None, metric: str, score: float,
            iv: sig.SymmetricInterval | None, p: float | None, n: int) -> Result:
    return Result(system, baseline, metric, score, iv.mean if iv else None,
                  iv.half_width if iv else None, iv.low if iv else None,
                  iv.high if iv else None, p, n)


def _all_pairs(task: CompareTask, data: UnitData, higher: bool, done: Callable[[int], None]
               ) -> tuple[list[Result], list[PairResult]]:
    m, n = data.measure, len(data.units)
    own: dict[str, FloatArray] = {}
    if task.method == "bs":
        idxs = sig.bootstrap_indices(n, task.n_samples, task.seed)
        for s in task.systems:
            own[s] = sig.resampled_scores(data.stats[s], idxs, m.score, m.many)
            done(1)
    else:
        done(len(task.systems))
    scores = {s: m.to_metric(sig.corpus_score(data.stats[s], m.score)) for s in task.systems}
    raw: list[tuple[str, str, float]] = []
    for a, b in combinations(task.systems, 2):
        if np.array_equal(data.stats[a], data.stats[b]):
            p = 1.0  # nothing to tell apart (see _identical)
        elif task.method == "bs":  # the same draws for every system: sacrebleu's p of (a, b)
            p = sig.paired_from_samples(sig.corpus_score(data.stats[a], m.score),
                                        sig.corpus_score(data.stats[b], m.score),
                                        own[a], own[b]).p_value
        else:
            p = _paired(task, data, a, b, None, None).p_value
        raw.append((a, b, p))
        done(1)
    adjusted = sig.holm([p for _, _, p in raw])
    pairs = [PairResult(data.metric, a, b, scores[a] - scores[b], p, q)
             for (a, b, p), q in zip(raw, adjusted, strict=True)]
    ranked = sorted(task.systems, key=lambda s: -scores[s] if higher else scores[s])
    q_of = {frozenset((p.system_a, p.system_b)): p.p_holm for p in pairs}
    cluster = sig.clusters(ranked, lambda low, up: q_of[frozenset((low, up))] < task.alpha
                           and scores[low] != scores[up])
    results = []
    for rank, (system, c) in enumerate(zip(ranked, cluster, strict=True), 1):
        iv = m.map_paired(sig.Paired(0, 0, 1, sig.estimate_ci(own[system]))).interval \
            if own else None
        results.append(Result(system, None, data.metric, scores[system], iv.mean if iv else None,
                              iv.half_width if iv else None, iv.low if iv else None,
                              iv.high if iv else None, None, n, rank, c))
    return results, pairs
