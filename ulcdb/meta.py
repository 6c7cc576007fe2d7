"""Meta-evaluation: how well stored metric scores agree with stored human judgments.

What is SQL and what is Python:
- SQL (schema/views): ``meta_human`` (human scores per unit: ingested or derived by averaging
  segment assessments), ``meta_metric`` (metric scores per unit, incl. the DR' reading),
  ``meta_items`` (the two joined), ``meta_corr`` (Pearson and Spearman, flat or averaged per
  item or system), ``darr_pairs`` and ``darr_tau`` (the WMT DARR Kendall-like tau).
- Python, pure functions: ``ulcdb.stats`` (the Kendall family and pairwise accuracy, grouped
  averages, DARR pairs for resampling, Fisher intervals, the tests comparing two metrics) and
  ``ulcdb.bootstrap`` (every bootstrap replicate, vectorised).  This module only runs the
  macros, hands the vectors to those functions and collects the results.

A task is a frozen ``MetaTask``; its fields name the result and it records the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from ulcdb import bootstrap, stats
from ulcdb.errors import UlcdbError
from ulcdb.store import Store

LEVELS = ("seg", "doc", "sys")
GROUPINGS = ("flat", "item", "system")
READINGS = ("metric", "seg_mean", "doc_mean")
HUMAN_FROM = ("auto", "ingested", "derived")
DARR = ("darr_tau", "darr_tau_noties")
COEFFICIENTS = ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", *DARR, "accuracy")
DEFAULT_COEFFICIENTS = {
    "seg": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "darr_tau", "accuracy"),
    "doc": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "darr_tau", "accuracy"),
    "sys": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "accuracy"),
}
# Units a level's items can be resampled by: segments, documents or systems.
RESAMPLE_UNITS = {"seg": ("seg", "doc", "sys"), "doc": ("doc", "sys"), "sys": ("sys",)}
UNIT_NAMES = {"seg": "segments", "doc": "documents", "sys": "systems"}
HUMAN_SET = "human"  # a stored system set of human translations submitted as systems


class MetaError(UlcdbError):
    """A meta-evaluation that cannot be run as asked."""


def _choice(value, allowed, what: str) -> None:
    if value not in allowed:
        raise MetaError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")


@dataclass(frozen=True)
class MetaTask:
    """One meta-evaluation: which scores are compared with which judgments, and how."""

    testbed: str
    level: str
    criterion: str
    refset: str
    metrics: tuple[str, ...] | None = None  # None: every metric scored against refset
    systems: tuple[str, ...] | None = None  # targets kept; None: every scored target
    variant: str | None = None  # None: every variant
    coefficients: tuple[str, ...] = ()  # (): DEFAULT_COEFFICIENTS[level]
    grouping: str = "flat"
    threshold: float = 25.0  # DARR: minimum difference of human scores
    accuracy_ties: str = "acc_eq"
    reading: str = "metric"  # metric, seg_mean or doc_mean (DR')
    human_from: str = "auto"
    min_segments: int = 1
    resample: str | None = None  # unit: seg, doc or sys; None: the level's own
    n_resamples: int = 1000
    seed: int = 1234
    ci_levels: tuple[float, ...] = (0.95, 0.99)

    def __post_init__(self) -> None:
        _choice(self.level, LEVELS, "level")
        _choice(self.grouping, GROUPINGS, "grouping")
        _choice(self.reading, READINGS, "reading")
        _choice(self.human_from, HUMAN_FROM, "human source")
        _choice(self.accuracy_ties, stats.ACCURACY_TIES, "accuracy ties")
        for c in self.coefs:
            _choice(c, COEFFICIENTS, "coefficient")
        _choice(self.resample_unit, RESAMPLE_UNITS[self.level],
                f"resampling unit at {self.level} level")
        if self.n_resamples < 0:
            raise MetaError("the number of resamples cannot be negative")
        if not all(0 < c < 1 for c in self.ci_levels):
            raise MetaError("confidence levels must lie between 0 and 1 (e.g. 0.95)")
        if self.threshold < 0:
            raise MetaError("the DARR threshold cannot be negative")
        if self.level == "sys" and self.grouping != "flat":
            raise MetaError("at system level there is one item per system: use grouping flat")

    @property
    def coefs(self) -> tuple[str, ...]:
        return self.coefficients or DEFAULT_COEFFICIENTS[self.level]

    @property
    def resample_unit(self) -> str:
        return self.resample or self.level

    def macro_args(self) -> tuple[str, list]:
        """Argument list and parameters shared by the meta_* macros."""
        sql = ("?, ?, ?, ?, systems := ?::varchar[], metrics := ?::varchar[], "
               "variant_name := ?, reading := ?, human_from := ?, min_segments := ?")
        params = [self.testbed, self.level, self.criterion, self.refset,
                  list(self.systems) if self.systems is not None else None,
                  list(self.metrics) if self.metrics is not None else None,
                  self.variant, self.reading, self.human_from, self.min_segments]
        return sql, params


@dataclass(frozen=True)
class Interval:
    level: float
    lo: float
    hi: float
    method: str  # bootstrap or fisher


@dataclass(frozen=True)
class Estimate:
    metric: str
    variant: str
    coefficient: str
    value: float
    n_items: int
    n_groups: int | None = None  # groups averaged (grouping item or system)
    n_pairs: int | None = None  # DARR pairs
    intervals: tuple[Interval, ...] = ()

    def interval(self, level: float, method: str = "bootstrap") -> Interval | None:
        return next((i for i in self.intervals if i.level == level and i.method == method),
                    None)


@dataclass(frozen=True)
class Items:
    """One metric's item vectors, aligned: human and oriented metric scores per target/unit."""

    translator: np.ndarray
    unit: np.ndarray
    doc: np.ndarray
    human: np.ndarray
    score: np.ndarray

    def key(self) -> np.ndarray:
        return np.char.add(np.char.add(self.translator.astype(str), "\x1f"),
                           self.unit.astype(str))


@dataclass
class MetaReport:
    task: MetaTask
    estimates: list[Estimate]
    human_source: str
    targets: tuple[str, ...]
    n_units: int  # units of the resampling universe
    items: dict[tuple[str, str], Items] = field(repr=False, default_factory=dict)
    replicates: dict[tuple[str, str, str], np.ndarray] = field(repr=False, default_factory=dict)

    def metrics(self) -> list[tuple[str, str]]:
        return list(dict.fromkeys((e.metric, e.variant) for e in self.estimates))

    def value(self, metric: str, variant: str, coefficient: str) -> float:
        for e in self.estimates:
            if (e.metric, e.variant, e.coefficient) == (metric, variant, coefficient):
                return e.value
        raise KeyError((metric, variant, coefficient))


# -- fetching ----------------------------------------------------------------------------------


def fetch_items(store: Store, task: MetaTask) -> tuple[dict[tuple[str, str], Items], str]:
    """Item vectors per (metric, variant) from meta_items, and the human source used."""
    args, params = task.macro_args()
    cols = store.con.execute(
        f"select metric, variant, translator, unit, coalesce(doc_id, '') as doc_id, human, "
        f"score, human_source from meta_items({args}) "
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
            np.asarray(cols["score"][lo:hi], dtype=float))
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
                f"test bed {task.testbed!r}: run `ulcdb score -t {task.testbed}` first")
    judged = store.scalar(
        "select count(*) from meta_human(?, ?, ?, human_from := ?, min_segments := ?)",
        [task.testbed, task.level, task.criterion, task.human_from, task.min_segments])
    if not judged:
        return (f"no {task.level}-level human scores with criterion {task.criterion!r} in test "
                f"bed {task.testbed!r} (see `ulcdb ingest assessments --help`)")
    return "no target has both a metric score and a human score for the same unit"


def sql_estimates(store: Store, task: MetaTask) -> tuple[dict, dict]:
    """Pearson/Spearman (meta_corr) and DARR (darr_tau) point estimates, computed in SQL."""
    args, params = task.macro_args()
    corr = {(m, v): (p, s, n, g) for m, v, p, s, n, g in store.query(
        f"select metric, variant, pearson, spearman, n_items, n_groups "
        f"from meta_corr({args}, grouping_by := ?)", [*params, task.grouping])}
    darr = {}
    if any(c in DARR for c in task.coefs):
        darr = {(m, v): (c, d, t) for m, v, c, d, t in store.query(
            f"select metric, variant, concordant, discordant, ties "
            f"from darr_tau({args}, threshold := ?)", [*params, task.threshold])}
    return corr, darr


# -- evaluation --------------------------------------------------------------------------------


def _unit_column(items: Items, unit: str) -> np.ndarray:
    return {"seg": items.unit, "doc": items.doc, "sys": items.translator}[unit]


def _groups(items: Items, grouping: str) -> np.ndarray | None:
    return {"flat": None, "item": items.unit, "system": items.translator}[grouping]


def _point(task: MetaTask, key: tuple[str, str], items: Items, corr: tuple,
           darr: tuple | None, coef: str) -> Estimate:
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


def _float(value) -> float:
    return float("nan") if value is None else float(value)


def _replicates(task: MetaTask, items: Items, units: np.ndarray, counts: np.ndarray
                ) -> dict[str, np.ndarray]:
    plain = [c for c in task.coefs if c not in DARR]
    groups = _groups(items, task.grouping)
    out: dict[str, np.ndarray] = {}
    if plain and groups is None:
        out.update(bootstrap.replicates_many(plain, items.human, items.score, units, counts,
                                             task.accuracy_ties))
    elif plain:
        out.update(bootstrap.grouped_replicates_many(plain, items.human, items.score, groups,
                                                     units, counts, task.accuracy_ties))
    darr = [c for c in task.coefs if c in DARR]
    if darr:
        pairs = stats.darr_pairs(items.human, items.score, items.unit, task.threshold)
        for c in darr:
            out[c] = bootstrap.darr_replicates(pairs, units, counts,
                                               "discordant" if c == "darr_tau" else "ignore")
    return out


def _intervals(task: MetaTask, est: Estimate, reps: np.ndarray | None) -> tuple[Interval, ...]:
    out = []
    for level in task.ci_levels:
        if reps is not None:
            out.append(Interval(level, *stats.percentile_ci(reps, level), "bootstrap"))
        if task.grouping == "flat":
            lo, hi = stats.fisher_ci(est.value, est.n_items, level, est.coefficient)
            if not np.isnan(lo):
                out.append(Interval(level, lo, hi, "fisher"))
    return tuple(out)


def evaluate(store: Store, task: MetaTask) -> MetaReport:
    """Every coefficient of ``task`` for every metric, with bootstrap and Fisher intervals."""
    items, human_source = fetch_items(store, task)
    corr, darr = sql_estimates(store, task)
    unit = task.resample_unit
    universe = np.unique(np.concatenate([_unit_column(it, unit) for it in items.values()])
                         .astype(str))
    counts = stats.bootstrap_counts(len(universe), task.n_resamples, task.seed)
    estimates: list[Estimate] = []
    replicates: dict[tuple[str, str, str], np.ndarray] = {}
    for (metric, variant), it in items.items():
        reps: dict[str, np.ndarray] = {}
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
    targets = tuple(sorted({str(t) for it in items.values() for t in it.translator}))
    return MetaReport(task, estimates, human_source, targets, len(universe), items, replicates)


# -- comparing metrics -------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricComparison:
    better: tuple[str, str]  # (metric, variant) with the higher point estimate
    worse: tuple[str, str]
    coefficient: str
    result: stats.Comparison


def _aligned(a: Items, b: Items) -> tuple[Items, np.ndarray]:
    _, ia, ib = np.intersect1d(a.key(), b.key(), return_indices=True)
    sub = Items(a.translator[ia], a.unit[ia], a.doc[ia], a.human[ia], a.score[ia])
    return sub, b.score[ib]


def _statistic(task: MetaTask, coef: str, items: Items):
    groups = _groups(items, task.grouping)
    h = items.human
    if coef in DARR:
        mode = "discordant" if coef == "darr_tau" else "ignore"
        return lambda m: stats.darr_tau(h, m, items.unit, task.threshold, mode)
    if groups is None:
        return lambda m: stats.coefficient(coef, h, m, task.accuracy_ties)
    return lambda m: stats.grouped(coef, h, m, groups, task.accuracy_ties)[0]


def compare(report: MetaReport, coefficient: str, method: str = "paired-bootstrap"
            ) -> list[MetricComparison]:
    """Every pair of metrics: is the better one (by point estimate) significantly better?

    paired-bootstrap reuses the report's resamples (the same units for every metric);
    permutation runs PERM-BOTH on the items both metrics score, with the task's seed and as
    many permutations as the task has resamples.
    """
    task = report.task
    _choice(method, ("paired-bootstrap", "permutation"), "significance test")
    if coefficient not in task.coefs:
        raise MetaError(f"coefficient {coefficient!r} was not computed ({', '.join(task.coefs)})")
    if task.n_resamples == 0:
        raise MetaError("significance tests need resamples (--bootstrap above 0)")
    ranked = sorted(report.metrics(), key=lambda mv: -np.nan_to_num(
        report.value(*mv, coefficient), nan=-np.inf))
    out = []
    for a, b in combinations(ranked, 2):
        va, vb = report.value(*a, coefficient), report.value(*b, coefficient)
        if method == "paired-bootstrap":
            result = stats.paired_bootstrap(va, vb, report.replicates[(*a, coefficient)],
                                            report.replicates[(*b, coefficient)], task.seed)
        else:
            sub, other = _aligned(report.items[a], report.items[b])
            result = stats.permutation_test(_statistic(task, coefficient, sub), sub.score,
                                            other, task.n_resamples, task.seed)
        out.append(MetricComparison(a, b, coefficient, result))
    return out


# -- selections --------------------------------------------------------------------------------


def human_translations(store: Store, testbed_id: int) -> list[str]:
    """Translators that are human translations: references, and the stored system set
    'human' (human translations submitted as systems, e.g. WMT20's Human-B.0)."""
    from ulcdb.selection import stored_set

    refs = list(store.translators(testbed_id, "reference"))
    return list(dict.fromkeys(refs + (stored_set(store, testbed_id, "system", HUMAN_SET) or [])))


def scored_metrics(store: Store, testbed: str, refset: str, level: str) -> list[str]:
    return [r[0] for r in store.query(
        "select distinct metric from scores where testbed = ? and refset = ? and level = ? "
        "order by metric", [testbed, refset, level])]


def scored_refsets(store: Store, testbed: str) -> list[str]:
    return [r[0] for r in store.query(
        "select distinct refset from scores where testbed = ? and refset_kind = 'reference' "
        "order by refset", [testbed])]


def criteria(store: Store, testbed: str) -> list[str]:
    return [r[0] for r in store.query(
        "select distinct criterion from assessments where testbed = ? order by criterion",
        [testbed])]
