"""Running a meta-evaluation: resolve the task, fetch the items, estimate, compare metrics.

Point estimates of Pearson, Spearman and DARR come from the SQL macros (``meta_corr``,
``darr_tau``); Kendall, accuracy, grouped averages and every bootstrap replicate from the
pure functions of ``ulcdb.stats.correlations`` and ``ulcdb.stats.bootstrap``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from ulcdb.errors import MetaChoiceError, MetaError, choice
from ulcdb.meta import select
from ulcdb.meta.checks import (
    JudgedTargets,
    humans_in_refset,
    one_metric_twice,
    partly_judged,
    too_few_items,
    undefined_resamples,
    unmatched_targets,
    variant_notes,
)
from ulcdb.meta.report import (
    ConfidenceInterval,
    Coverage,
    Estimate,
    Items,
    Key,
    MetaReport,
    MetricComparison,
)
from ulcdb.meta.slice import slice_task
from ulcdb.meta.task import (
    DARR,
    DARR_THRESHOLD,
    MIN_DARR_PAIRS,
    SIG_TESTS,
    MetaTask,
    Scale,
)
from ulcdb.scoring.remedy import remedy
from ulcdb.stats import bootstrap
from ulcdb.stats import correlations as stats
from ulcdb.stats.correlations import FloatArray, IntArray
from ulcdb.store.database import Store, named_query

# meta_corr's row of one (metric, variant): Pearson, Spearman, items, groups (None: undefined)
Corr = tuple[float | None, float | None, int | None, int | None]
DarrCounts = tuple[int, int, int]  # darr_tau's concordant, discordant and tied pairs

# -- resolving the task ------------------------------------------------------------------------


def prepare(store: Store, task: MetaTask) -> tuple[MetaTask, dict[str, str], Scale, list[str]]:
    """The task as it will run (targets, coefficients and DARR threshold resolved), the
    targets left out and why, the criterion's scale, and notes for the header."""
    task, slice_notes = slice_task(store, task)
    scale = select.criterion_scale(store, task.testbed, task.criterion)
    systems, left_out = select.targets(store, task.testbed, task.systems, task.exclude,
                                       task.include_human)
    coefficients, threshold, notes = _darr_choice(task, scale)
    resolved = replace(task, systems=systems, coefficients=coefficients, threshold=threshold)
    if left_out:
        present = _scored_targets(store, replace(resolved, systems=None, items="own"))
        left_out = {n: why for n, why in left_out.items() if n in present}
    return resolved, left_out, scale, slice_notes + notes


def _darr_choice(task: MetaTask, scale: Scale) -> tuple[tuple[str, ...], float | None, list[str]]:
    """DARR's default threshold (25) is on raw DA 0..100: elsewhere it needs --threshold."""
    if not any(c in DARR for c in task.coefs) or task.threshold is not None:
        return task.coefs, task.threshold, []
    if scale.fits_darr_default():
        return task.coefs, DARR_THRESHOLD, []
    described = scale.describe()
    why = (f"criterion {task.criterion!r} has an {described}"
           if described.startswith(("unknown", "unbounded"))
           else f"criterion {task.criterion!r} is on the {described}")
    why += f", but DARR's default threshold {DARR_THRESHOLD:g} is on the raw DA scale 0..100"
    if task.coefficients:
        raise MetaError(f"{why}: give --threshold (or record the scale with `ulcdb ingest "
                        f"assessments --scale MIN:MAX`)")
    kept = tuple(c for c in task.coefs if c not in DARR)
    return kept, None, [f"DARR left out: {why} (give --coef darr_tau --threshold T)"]


def _scored_targets(store: Store, task: MetaTask) -> set[str]:
    args, params = task.macro_args()
    return {r[0] for r in store.query(f"select distinct translator from meta_items({args})",
                                      params)}


# -- fetching ----------------------------------------------------------------------------------


def fetch_items(store: Store, task: MetaTask) -> tuple[dict[tuple[str, str], Items], str]:
    """Each metric's own item vectors (``common`` marks those every metric scores) from
    meta_items, and the human source used."""
    args, params = replace(task, items="own").macro_args()
    cols = store.con.execute(
        f"select metric, variant, translator, unit, coalesce(doc_id, '') as doc_id, human, "
        f"score, common, human_source from meta_items({args}) "
        f"order by metric, variant, translator, unit", params).fetchnumpy()
    if len(cols["metric"]) == 0:
        raise MetaError(_why_empty(store, task))
    label = np.char.add(np.char.add(cols["metric"].astype(str), "\x1f"),
                        cols["variant"].astype(str))
    bounds = [*np.flatnonzero(label[1:] != label[:-1]) + 1, len(label)]  # rows are sorted
    out: dict[tuple[str, str], Items] = {}
    lo = 0
    for hi in bounds:
        metric, variant = str(cols["metric"][lo]), str(cols["variant"][lo])
        out[metric, variant] = Items(
            np.asarray(cols["translator"][lo:hi], dtype=object),
            np.asarray(cols["unit"][lo:hi], dtype=object),
            np.asarray(cols["doc_id"][lo:hi], dtype=object),
            np.asarray(cols["human"][lo:hi], dtype=float),
            np.asarray(cols["score"][lo:hi], dtype=float),
            np.asarray(cols["common"][lo:hi], dtype=bool))
        lo = hi
    sources = sorted(set(cols["human_source"].astype(str)))
    return out, "+".join(sources)


def _why_empty(store: Store, task: MetaTask) -> str:
    if task.variant is not None:
        variants = [r[0] for r in store.query(
            "select distinct variant from sys_score order by 1")]
        if task.variant not in variants:
            return (f"no scores of variant {task.variant!r} are stored (stored: "
                    f"{', '.join(variants) or 'none'})")
    scored = store.scalar(
        "select count(*) from meta_metric(?, ?, ?, reading := ?, variant_name := ?, "
        "metrics := ?::varchar[])",
        [task.testbed, task.level, task.refset, task.reading, task.variant,
         list(task.metrics) if task.metrics is not None else None])
    if not scored:
        which = ", ".join(task.metrics) if task.metrics else "any metric"
        return (f"no stored {task.level}-level scores of {which} against {task.refset!r} in "
                f"test bed {task.testbed!r}: " + remedy(store, task.testbed, task.metrics or (),
                                                        [task.refset], task.level,
                                                        variant=task.variant))
    if not human_units(store, task, task.min_segments):
        if task.min_segments > 1 and human_units(store, task, 1):
            return (f"no {task.level}-level unit has {task.min_segments} assessed segments of "
                    f"criterion {task.criterion!r} (--min-segments {task.min_segments})")
        return (f"no {task.level}-level human scores with criterion {task.criterion!r} in test "
                f"bed {task.testbed!r} (see `ulcdb ingest assessments --help`)")
    return "no target has both a metric score and a human score for the same unit"


def human_units(store: Store, task: MetaTask, min_segments: int,
                targets: list[str] | None = None) -> int:
    """The (translator, unit) human scores of the task's criterion and level that units of
    at least ``min_segments`` assessed segments give (of ``targets`` only, when given)."""
    segments = sorted(task.segments) if task.segments is not None else None
    return int(store.scalar(named_query("meta_human_units"), [
        task.testbed, task.level, task.criterion, task.human_from, min_segments, segments,
        targets]))


def min_segments_note(store: Store, task: MetaTask) -> list[str]:
    """The units --min-segments left out, which the item count alone does not tell: of the
    targets the task correlates (scored and judged; no human translation it leaves out)."""
    if task.min_segments <= 1 or task.level == "seg":
        return []
    targets = sorted(_scored_targets(store, replace(task, min_segments=1, items="own")))
    every = human_units(store, task, 1, targets)
    kept = human_units(store, task, task.min_segments, targets)
    if kept == every:
        return []
    return [f"human {task.level}-level scores of fewer than {task.min_segments} assessed "
            f"segments left out (--min-segments): {every - kept} of {every}"]


def sql_estimates(store: Store, task: MetaTask
                  ) -> tuple[dict[Key, Corr], dict[Key, DarrCounts]]:
    """Pearson/Spearman (meta_corr) and DARR (darr_tau) point estimates, computed in SQL."""
    args, params = task.macro_args()
    corr: dict[Key, Corr] = {(m, v): (p, s, n, g) for m, v, p, s, n, g in store.query(
        f"select metric, variant, pearson, spearman, n_items, n_groups "
        f"from meta_corr({args}, grouping_by := ?)", [*params, task.grouping])}
    darr: dict[Key, DarrCounts] = {}
    if any(c in DARR for c in task.coefs):
        darr = {(m, v): (c, d, t) for m, v, c, d, t in store.query(
            f"select metric, variant, concordant, discordant, ties "
            f"from darr_tau({args}, threshold := ?)", [*params, task.threshold])}
    return corr, darr


# -- evaluation --------------------------------------------------------------------------------


def _unit_column(items: Items, unit: str) -> NDArray[np.object_]:
    return {"seg": items.unit, "doc": items.doc, "sys": items.translator}[unit]


def _groups(items: Items, grouping: str) -> NDArray[np.object_] | None:
    return {"flat": None, "item": items.unit, "system": items.translator}[grouping]


def _point(task: MetaTask, key: Key, items: Items, corr: Corr, darr: DarrCounts | None,
           coef: str) -> Estimate:
    groups = _groups(items, task.grouping)
    n = len(items.human)
    if coef in ("pearson", "spearman"):
        value = corr[0] if coef == "pearson" else corr[1]
        n_groups = int(corr[3]) if task.grouping != "flat" and corr[3] is not None else None
        return Estimate(*key, coef, _float(value), n, n_groups)
    if coef in DARR:
        c, d, t = darr or (0, 0, 0)
        mode = "discordant" if coef == "darr_tau" else "ignore"
        value = float(stats.darr_from_counts(c, d, t, mode))
        n_pairs = int(c + d + (t if mode == "discordant" else 0))
        return Estimate(*key, coef, value, n, None, n_pairs)
    if groups is None:
        return Estimate(*key, coef, stats.coefficient(coef, items.human, items.score,
                                                      task.accuracy_ties), n)
    value, n_groups = stats.grouped(coef, items.human, items.score, groups, task.accuracy_ties)
    return Estimate(*key, coef, value, n, n_groups)


def _float(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def _replicates(task: MetaTask, items: Items, units: NDArray[np.intp], counts: IntArray
                ) -> dict[str, FloatArray]:
    plain = [c for c in task.coefs if c not in DARR]
    groups = _groups(items, task.grouping)
    out: dict[str, FloatArray] = {}
    if plain and groups is None:
        out.update(bootstrap.replicates_many(plain, items.human, items.score, units, counts,
                                             task.accuracy_ties))
    elif plain and groups is not None:
        out.update(bootstrap.grouped_replicates_many(plain, items.human, items.score, groups,
                                                     units, counts, task.accuracy_ties))
    darr = [c for c in task.coefs if c in DARR]
    if darr:
        assert task.threshold is not None  # resolved before any DARR coefficient runs
        pairs = stats.darr_pairs(items.human, items.score, items.unit, task.threshold)
        for c in darr:
            out[c] = bootstrap.darr_replicates(pairs, units, counts,
                                               "discordant" if c == "darr_tau" else "ignore")
    return out


def _intervals(task: MetaTask, est: Estimate, reps: FloatArray | None) -> tuple[ConfidenceInterval,
                                                                                ...]:
    out = []
    for level in task.ci_levels:
        if reps is not None:
            out.append(ConfidenceInterval(level, *stats.percentile_ci(reps, level), "bootstrap"))
        if task.grouping == "flat":
            lo, hi = stats.fisher_ci(est.value, est.n_items, level, est.coefficient)
            if not np.isnan(lo):
                out.append(ConfidenceInterval(level, lo, hi, "fisher"))
    return tuple(out)


def _used(task: MetaTask, own: dict[tuple[str, str], Items]) -> dict[tuple[str, str], Items]:
    if not task.common:
        return own
    used = {k: it.subset(it.common) for k, it in own.items()}
    if not any(len(it.human) for it in used.values()):
        raise MetaError("no item (target and unit) is scored by every metric of the run: "
                        "choose metrics with -m, or give --own-items")
    return used


def _few_pairs(task: MetaTask, estimates: list[Estimate], labels: dict[Key, str]) -> list[str]:
    few = [f"{labels[(e.metric, e.variant)]} ({e.n_pairs})" for e in estimates
           if e.n_pairs is not None and e.n_pairs < MIN_DARR_PAIRS]
    few = list(dict.fromkeys(few))
    if not few:
        return []
    return [f"warning: DARR rests on fewer than {MIN_DARR_PAIRS} pairs for {', '.join(few)} "
            f"(threshold {task.threshold:g} on {task.criterion})"]


def evaluate(store: Store, task: MetaTask) -> MetaReport:
    """Every coefficient of ``task`` for every metric, with bootstrap and Fisher intervals."""
    task, left_out, scale, notes = prepare(store, task)
    own, human_source = fetch_items(store, task)
    items = {k: it.at_rank_precision() for k, it in _used(task, own).items()}
    corr, darr = sql_estimates(store, task)
    unit = task.resample_unit
    universe = np.unique(np.concatenate([_unit_column(it, unit) for it in items.values()])
                         .astype(str))
    counts = stats.bootstrap_counts(len(universe), task.n_resamples, task.seed)
    estimates: list[Estimate] = []
    replicates: dict[tuple[str, str, str], FloatArray] = {}
    for (metric, variant), it in items.items():
        reps: dict[str, FloatArray] = {}
        if task.n_resamples:
            units = np.searchsorted(universe, _unit_column(it, unit).astype(str))
            reps = _replicates(task, it, units, counts)
        for coef in task.coefs:
            est = _point(task, (metric, variant), it,
                         corr.get((metric, variant), (None,) * 4), darr.get((metric, variant)),
                         coef)
            est = replace(est, intervals=_intervals(task, est, reps.get(coef)))
            estimates.append(est)
            if coef in reps:
                replicates[metric, variant, coef] = reps[coef]
    targets = JudgedTargets.of(store, task)
    coverage = Coverage.of(task, own, items, left_out,
                           unmatched_targets(store, task, own, left_out, targets))
    report = MetaReport(task, estimates, human_source, coverage, len(universe), scale, notes,
                        [], items, replicates)
    labels = report.labels()
    report.notes += (variant_notes(store, task, labels) + min_segments_note(store, task)
                     + humans_in_refset(task, targets) + one_metric_twice(items, labels)
                     + partly_judged(store, task, human_source, report.targets))
    report.estimates, few = too_few_items(task, estimates, labels, coverage.dropped(labels))
    report.warnings = (few + undefined_resamples(task, report.estimates, replicates, labels)
                       + _few_pairs(task, estimates, labels) + tuned_here(store, task))
    return report


def tuned_here(store: Store, task: MetaTask) -> list[str]:
    """A warning for each metric whose weights were tuned on this very test bed (its
    signature says ``tuned-on:<test bed>``, as `ulcdb tune` writes)."""
    rows = store.query(named_query("meta_tuned_here"),
                       [task.testbed, task.metrics and list(task.metrics),
                        f"tuned-on:{task.testbed}"])
    return [f"warning: {m} was tuned on {task.testbed!r} itself: its correlation here is "
            "optimistic (evaluate it on another test bed)" for (m,) in rows]


# -- comparing metrics -------------------------------------------------------------------------


def _statistic(task: MetaTask, coef: str, items: Items) -> Callable[[FloatArray], float]:
    groups = _groups(items, task.grouping)
    h = items.human
    if coef in DARR:
        mode = "discordant" if coef == "darr_tau" else "ignore"
        threshold = task.threshold
        assert threshold is not None
        return lambda m: stats.darr_tau(h, m, items.unit, threshold, mode)
    if groups is None:
        return lambda m: stats.coefficient(coef, h, m, task.accuracy_ties)
    return lambda m: stats.grouped(coef, h, m, groups, task.accuracy_ties)[0]


def _check_same_items(report: MetaReport) -> None:
    """Significance tests compare metrics on the same items only."""
    keys = {k: it.key() for k, it in report.items.items()}
    first = next(iter(keys.values()))
    if all(len(k) == len(first) and np.array_equal(k, first) for k in keys.values()):
        return
    labels = report.labels()
    sizes = ", ".join(f"{labels[k]} {len(v)}" for k, v in keys.items())
    raise MetaError(f"--sig needs every metric on the same items, but their item sets differ "
                    f"({sizes} items): drop --own-items")


def compare(report: MetaReport, coefficient: str, method: str = "paired-bootstrap"
            ) -> list[MetricComparison]:
    """Every pair of metrics: is the better one (by point estimate) significantly better?

    Refused when the metrics' item sets differ (--own-items).  paired-bootstrap reuses the
    report's resamples (the same units for every metric); permutation runs PERM-BOTH on the
    items, with the task's seed and as many permutations as the task has resamples.
    """
    task = report.task
    choice("significance test", method, SIG_TESTS, MetaChoiceError)
    if coefficient not in task.coefs:
        raise MetaError(f"coefficient {coefficient!r} was not computed ({', '.join(task.coefs)})")
    if task.n_resamples == 0:
        raise MetaError("significance tests need resamples (--bootstrap above 0)")
    if all(np.isnan(report.value(m, v, coefficient)) for m, v in report.metrics()):
        raise MetaError(f"{coefficient} is undefined for every metric here (see the warnings): "
                        "test another with --sig-coef")
    _check_same_items(report)
    ranked = sorted(report.metrics(), key=lambda mv: -np.nan_to_num(
        report.value(mv[0], mv[1], coefficient), nan=-np.inf))
    out = []
    for a, b in combinations(ranked, 2):
        va, vb = report.value(a[0], a[1], coefficient), report.value(b[0], b[1], coefficient)
        if method == "paired-bootstrap":
            result = stats.koehn_paired_bootstrap(va, vb, report.replicates[(*a, coefficient)],
                                            report.replicates[(*b, coefficient)], task.seed)
        else:
            items = report.items[a]
            result = stats.permutation_test(_statistic(task, coefficient, items), items.score,
                                            report.items[b].score, task.n_resamples, task.seed)
        out.append(MetricComparison(a, b, coefficient, result))
    return out
