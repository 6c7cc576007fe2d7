"""WMT23 and WMT24 metrics-task meta-evaluation (``ulcdb meta --protocol wmt23|wmt24``).

The tasks of mt-metrics-eval's ``tasks.WMT23`` and ``tasks.WMT24``, run on stored scores with
the ports of ``ulcdb.stats.mt_metrics_eval``:

- wmt23: system-level pairwise accuracy (Kocmi et al. 2021; pooled over every test bed given,
  MTME's global accuracy), and per test bed system-level Pearson, segment-level Pearson
  (flat) and segment-level acc-t (acc23 with epsilon search, averaged over items).
- wmt24: per test bed system-level soft pairwise accuracy (SPA, from segment scores) and
  segment-level acc-t.

Every column ranks the metrics as MTME does: metrics sorted best first, every pair tested
(PERM-BOTH, or for acc-t the pairwise permutation test, ``perm_test='pairs'``), ranks from
``assign_ranks`` at p <= 0.05.  MTME's Task defaults: k=1000 resamples, block size 100,
early stop when p < 0.02 or p > 0.5; SPA with 1000 permutations, seed 4.  MTME draws from the
unseeded global generator; here each column draws from ``np.random.RandomState(seed)``.

Data: the items of ``fetch_items`` (views meta_items / meta_human), the items every metric
scores (``common``), human translations left out; arrays are (n_systems, n_segments) with
NaN where a score is missing, systems by name, segments by id.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace

import numpy as np

from ulcdb.errors import MetaChoiceError, MetaError, choice
from ulcdb.meta.checks import JudgedTargets, unmatched_targets, variant_notes
from ulcdb.meta.evaluate import fetch_items, prepare, tuned_here
from ulcdb.meta.report import Items, metric_labels
from ulcdb.meta.select import human_translations
from ulcdb.meta.task import MetaTask
from ulcdb.stats import mt_metrics_eval as wmt23
from ulcdb.stats.score_pairs import FloatArray
from ulcdb.store.database import Store

PROTOCOLS = ("wmt23", "wmt24")
# mt-metrics-eval's tasks.WMT23 / tasks.WMT24 score human translations as systems
# (Task(human=True)) for these language pairs only (their lps_with_multiple_refs).
MTME_HUMAN_LPS = {"wmt23": ("en-he", "he-en"), "wmt24": ("en-de",)}
Key = tuple[str, str]  # (metric, variant)
STAT_LABELS = {"accuracy": "sys acc", "pearson": "Pearson", "acc_t": "acc-t", "spa": "SPA"}


@dataclass(frozen=True)
class Settings:
    """The protocol and MTME's Task defaults for its significance tests."""

    protocol: str
    k: int = 1000  # resamples per pair of metrics (0: no ranks)
    seed: int = 1234
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5
    pval: float = 0.05
    spa_permutations: int = 1000
    spa_seed: int = 4

    def __post_init__(self) -> None:
        choice("protocol", self.protocol, PROTOCOLS, MetaChoiceError)
        if self.k < 0:
            raise MetaError("the number of resamples cannot be negative")

    @property
    def params(self) -> wmt23.PermParams:
        return wmt23.PermParams(self.block_size, self.early_min, self.early_max)


@dataclass(frozen=True)
class Column:
    """One task of the protocol: a statistic at a level on one test bed (or several)."""

    key: str  # record field, e.g. seg_acc_t or ende:seg_acc_t
    label: str  # table header
    statistic: str  # accuracy, pearson, acc_t or spa
    level: str  # the level of the arrays: seg or sys
    testbeds: tuple[str, ...]

    @property
    def perm_test(self) -> str:
        return "pairs" if self.statistic == "acc_t" else "scores"


@dataclass(frozen=True)
class Pearson(wmt23.Statistic):
    """Pearson's r over the entries where both scores are present (MTME's flat scipy
    pearsonr, avg_by='none')."""

    def __call__(self, human: FloatArray, metric: FloatArray, rs: object = None) -> float:
        h, m = np.ravel(human), np.ravel(metric)
        keep = ~(np.isnan(h) | np.isnan(m))
        if keep.sum() < 2:
            return float("nan")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a constant vector: NaN, as scipy says
            import scipy.stats  # lazily: `ulcdb --help` stays quick
            return float(scipy.stats.pearsonr(h[keep], m[keep])[0])


@dataclass
class Bed:
    """One test bed's arrays at one level: the items every selected metric scores."""

    testbed: str
    level: str
    systems: list[str]
    units: list[str]
    human: FloatArray  # (n_systems, n_units), NaN where missing
    metrics: dict[Key, FloatArray]
    n_items: int
    human_source: str
    left_out: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, str] = field(default_factory=dict)  # asked for, not correlated: why
    humans: tuple[str, ...] = ()  # the human translations among the systems


@dataclass
class ColumnResult:
    column: Column
    values: dict[Key, float]
    ranks: dict[Key, int] | None  # None: no significance tests (k = 0)
    epsilons: dict[Key, float] | None  # acc-t only
    order: list[Key]  # best first
    sig: FloatArray  # [i, j], j > i: p-value that order[j] is as good as order[i]
    # acc-t only: the value at the largest epsilon, where every pair is a metric tie (the
    # share of pairs the human scores tie, averaged over segments), which acc-t never falls
    # below
    all_ties: dict[Key, float] | None = None

    def at_all_ties(self) -> list[Key]:
        """The metrics (best first) whose acc-t is the all-ties baseline: the epsilon search
        found nothing better than calling every pair a tie (equal to 1e-12: the two are
        sums of the same terms in another order)."""
        if self.all_ties is None:
            return []
        return [k for k in self.order if not math.isnan(self.all_ties[k])
                and math.isclose(self.values[k], self.all_ties[k], rel_tol=0, abs_tol=1e-12)]


@dataclass
class ProtocolReport:
    settings: Settings
    criterion: str
    tasks: list[MetaTask]  # one per test bed (segment level), as resolved
    beds: dict[tuple[str, str], Bed]
    results: list[ColumnResult]
    keys: list[Key]  # metrics, in row order (best first on the first column)
    warnings: list[str] = field(default_factory=list)
    language_pairs: dict[str, str | None] = field(default_factory=dict)  # test bed -> 'en-de'


def language_pair(store: Store, testbed: str) -> str | None:
    """``src-tgt`` of a test bed, None when a language is not recorded."""
    rows = store.query("select src_lang, tgt_lang from testbed where name = ?", [testbed])
    src, tgt = rows[0] if rows else (None, None)
    return f"{src}-{tgt}" if src and tgt else None


def column_items(col: Column, bed: Bed) -> int:
    """The items a column's statistic uses: SPA only the segments every system has (a
    segment with any score missing is left out), the others every item."""
    if col.statistic != "spa":
        return bed.n_items
    missing = np.isnan(bed.human).any(axis=0)
    for m in bed.metrics.values():
        missing |= np.isnan(m).any(axis=0)
    return int((~missing).sum()) * len(bed.systems)


# -- columns -----------------------------------------------------------------------------------


def columns(protocol: str, testbeds: Sequence[str]) -> list[Column]:
    """The protocol's tasks, in MTME's order; several test beds prefix per-bed keys."""
    many = len(testbeds) > 1

    def per_bed(tb: str, statistic: str, level: str) -> Column:
        shown = "sys" if statistic == "spa" else level  # SPA ranks systems from segments
        key, label = f"{shown}_{statistic}", f"{shown} {STAT_LABELS[statistic]}"
        return Column(f"{tb}:{key}" if many else key, f"{tb} {label}" if many else label,
                      statistic, level, (tb,))

    out: list[Column] = []
    if protocol == "wmt23":
        out.append(Column("global_accuracy" if many else "sys_accuracy",
                          "global sys acc" if many else "sys acc", "accuracy", "sys",
                          tuple(testbeds)))
        for tb in testbeds:
            out += [per_bed(tb, "pearson", "sys"), per_bed(tb, "pearson", "seg"),
                    per_bed(tb, "acc_t", "seg")]
    else:
        for tb in testbeds:
            out += [per_bed(tb, "spa", "seg"), per_bed(tb, "acc_t", "seg")]
    return out


def levels(protocol: str) -> tuple[str, ...]:
    """The levels whose scores the protocol needs."""
    return ("sys", "seg") if protocol == "wmt23" else ("seg",)


# -- arrays ------------------------------------------------------------------------------------


def _unit_order(unit: str) -> tuple[int, int, str]:
    return (0, int(unit), "") if unit.isdigit() else (1, 0, unit)


def _matrix(it: Items, values: FloatArray, sys_index: dict[str, int],
            unit_index: dict[str, int]) -> FloatArray:
    out = np.full((len(sys_index), len(unit_index)), np.nan)
    rows = [sys_index[str(t)] for t in it.translator]
    cols = [unit_index[str(u)] for u in it.unit]
    out[rows, cols] = values
    return out


def bed_arrays(testbed: str, level: str, items: dict[Key, Items], human_source: str,
               left_out: dict[str, str]) -> Bed:
    """(n_systems, n_units) arrays of the items: systems by name, units by id."""
    systems = sorted({str(t) for it in items.values() for t in it.translator})
    units = sorted({str(u) for it in items.values() for u in it.unit}, key=_unit_order)
    sys_index = {s: i for i, s in enumerate(systems)}
    unit_index = {u: i for i, u in enumerate(units)}
    human = np.full((len(systems), len(units)), np.nan)
    metrics: dict[Key, FloatArray] = {}
    for key, it in items.items():
        h = _matrix(it, it.human, sys_index, unit_index)
        human = np.where(np.isnan(human), h, human)
        metrics[key] = _matrix(it, it.score, sys_index, unit_index)
    n_items = max((len(it.human) for it in items.values()), default=0)
    return Bed(testbed, level, systems, units, human, metrics, n_items, human_source, left_out)


def fetch_bed(store: Store, task: MetaTask) -> tuple[MetaTask, Bed]:
    """The task resolved (targets) and its common items as arrays."""
    task, left_out, _scale, _notes = prepare(store, replace(task, items="common"))
    own, human_source = fetch_items(store, task)
    used = {k: it.subset(it.common) for k, it in own.items()}
    if not any(len(it.human) for it in used.values()):
        raise MetaError(f"no {task.level}-level item (target and unit) of {task.testbed!r} is "
                        f"scored by every metric of the run: choose metrics with -m")
    bed = bed_arrays(task.testbed, task.level, used, human_source, left_out)
    bed.dropped = _dropped(store, task, own, used, left_out)
    bed.humans = tuple(t for t in human_translations(store, store.testbed_id(task.testbed))
                       if t in bed.systems)
    return task, bed


def _dropped(store: Store, task: MetaTask, own: dict[Key, Items], used: dict[Key, Items],
             left_out: dict[str, str]) -> dict[str, str]:
    """The targets asked for that no common item holds, and why (as ``ulcdb meta`` says):
    no score or judgment, or not scored by every metric of the run."""
    out = unmatched_targets(store, task, own, left_out, JudgedTargets.of(store, task))
    kept = {str(t) for it in used.values() for t in it.translator}
    scored = {k: {str(t) for t in it.translator} for k, it in own.items()}
    named = metric_labels(own)
    for t in sorted(set().union(*scored.values()) - kept):
        out[t] = "not scored by " + ", ".join(named[k] for k, ts in scored.items()
                                              if t not in ts)
    return out


# -- statistics --------------------------------------------------------------------------------


def _inputs(col: Column, beds: dict[tuple[str, str], Bed], keys: Sequence[Key], settings: Settings
            ) -> tuple[FloatArray, dict[Key, FloatArray], wmt23.Statistic]:
    """Human array, metric arrays and the statistic of a column."""
    if col.statistic == "accuracy":
        vecs = [beds[tb, "sys"] for tb in col.testbeds]
        human, sizes = wmt23.concat_lps([b.human[:, 0] for b in vecs])
        metrics = {k: wmt23.concat_lps([b.metrics[k][:, 0] for b in vecs])[0] for k in keys}
        return human, metrics, wmt23.GlobalAccuracy(sizes)
    bed = beds[col.testbeds[0], col.level]
    metrics = {k: bed.metrics[k] for k in keys}
    if col.statistic == "pearson":
        return bed.human, metrics, Pearson()
    if col.statistic == "spa":
        return bed.human, metrics, wmt23.SoftPairwiseAccuracy(settings.spa_permutations,
                                                              settings.spa_seed)
    return bed.human, metrics, wmt23.TiesOpt("acc23", "item", 1.0)


def _labelled(metrics: dict[Key, FloatArray]) -> dict[str, FloatArray]:
    """compare_metrics sorts ties by name: metric and variant joined keep that order."""
    return {f"{m}\x1f{v}": a for (m, v), a in metrics.items()}


def _key(name: str) -> Key:
    metric, variant = name.split("\x1f", 1)
    return metric, variant


def run_column(col: Column, beds: dict[tuple[str, str], Bed], keys: Sequence[Key],
               settings: Settings) -> ColumnResult:
    """Scores, significance matrix and ranks of one column (MTME CompareMetrics*)."""
    human, metrics, stat = _inputs(col, beds, keys, settings)
    rs = np.random.RandomState(settings.seed)
    comp = wmt23.compare_metrics(human, _labelled(metrics), stat, settings.k, settings.params,
                                 settings.pval, col.perm_test, rs)
    order = [_key(n) for n in comp.names]
    epsilons = all_ties = None
    if col.statistic == "acc_t":
        found = {k: wmt23.tau_optimization(human, m, "acc23", "item")
                 for k, m in metrics.items()}
        epsilons = {k: r.epsilon for k, r in found.items()}
        all_ties = {k: float(r.taus[-1]) for k, r in found.items()}
    ranks = dict(zip(order, comp.ranks, strict=True)) if settings.k else None
    return ColumnResult(col, dict(zip(order, comp.scores, strict=True)), ranks, epsilons,
                        order, comp.sig_matrix, all_ties)


def _common_keys(beds: dict[tuple[str, str], Bed]) -> tuple[list[Key], list[Key]]:
    """Metrics scored on every array the protocol needs, and those left out."""
    sets = [set(b.metrics) for b in beds.values()]
    every = set.intersection(*sets)
    union = set.union(*sets)
    return sorted(every), sorted(union - every)


# Given the number of steps, a context whose callback advances a display by n steps of the
# named part (the CLI's progress bar); the same shape as ulcdb.ops.score.Progress.
Progress = Callable[[int], AbstractContextManager[Callable[[str, int], None]]]


@contextmanager
def _silent(total: int) -> Iterator[Callable[[str, int], None]]:
    yield lambda label, n: None


def run(store: Store, tasks: Sequence[MetaTask], settings: Settings,
        progress: Progress | None = None) -> ProtocolReport:
    """Run the protocol on seg-level tasks, one per test bed (same criterion); ``progress``
    (given the number of columns) advances a display by one as each column is done."""
    if not tasks:
        raise MetaError("no test bed to evaluate")
    if len({t.testbed for t in tasks}) != len(tasks):
        raise MetaError("a test bed is named twice")
    beds: dict[tuple[str, str], Bed] = {}
    resolved: list[MetaTask] = []
    for task in tasks:
        for level in levels(settings.protocol):
            done, bed = fetch_bed(store, replace(task, level=level, n_resamples=0))
            beds[task.testbed, level] = bed
            if level == "seg":
                resolved.append(done)
    keys, dropped = _common_keys(beds)
    if not keys:
        raise MetaError("no metric is scored on every test bed and level the protocol needs")
    wanted = columns(settings.protocol, [t.testbed for t in tasks])
    results = []
    with (progress or _silent)(len(wanted)) as advance:
        for column in wanted:
            results.append(run_column(column, beds, keys, settings))
            advance(column.key, 1)
    report = ProtocolReport(settings, tasks[0].criterion, resolved, beds, results,
                            results[0].order,
                            language_pairs={t.testbed: language_pair(store, t.testbed)
                                            for t in tasks})
    if dropped:
        report.warnings.append("left out (not scored on every test bed and level the protocol "
                               "needs): " + ", ".join(f"{m} [{v}]" for m, v in dropped))
    report.warnings += [w for t in resolved for w in tuned_here(store, t)]
    report.warnings += variant_notes(store, resolved[0], metric_labels(keys))
    return report
