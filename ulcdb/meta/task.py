"""What a meta-evaluation is: the frozen ``MetaTask`` whose fields name the result."""

from __future__ import annotations

from dataclasses import dataclass

from ulcdb.errors import MetaChoiceError, MetaError, choice
from ulcdb.stats import correlations

LEVELS = ("seg", "doc", "sys")
GROUPINGS = ("flat", "item", "system")
READINGS = ("metric", "seg_mean", "doc_mean")
HUMAN_FROM = ("auto", "ingested", "derived")
ITEMS = ("common", "own")
DARR = ("darr_tau", "darr_tau_noties")
COEFFICIENTS = ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", *DARR, "accuracy")
DEFAULT_COEFFICIENTS = {
    "seg": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "darr_tau", "accuracy"),
    "doc": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "darr_tau", "accuracy"),
    "sys": ("pearson", "spearman", "kendall_tau_b", "kendall_tau_c", "accuracy"),
}
# The WMT DARR threshold: 25 points on the raw DA scale 0..100 (Ma et al. 2018, 2019).
DARR_THRESHOLD = 25.0
DARR_SCALE = (0.0, 100.0)
MIN_DARR_PAIRS = 30  # fewer pairs: the tau is warned about
# Units a level's items can be resampled by: segments, documents or systems.
RESAMPLE_UNITS = {"seg": ("seg", "doc", "sys"), "doc": ("doc", "sys"), "sys": ("sys",)}
SIG_TESTS = ("paired-bootstrap", "permutation")  # tests of pairs of metrics (--sig)
UNIT_NAMES = {"seg": "segments", "doc": "documents", "sys": "systems"}
HUMAN_SET = "human"  # a stored system set of human translations submitted as systems
MacroParam = (str | list[str] | list[int] | int | bool | list[dict[str, object]]
              | None)  # a parameter of the meta_* macros


@dataclass(frozen=True)
class Scale:
    """The scale of a human criterion: bounds (None = unbounded) and where it comes from."""

    lo: float | None = None
    hi: float | None = None
    source: str | None = None  # 'given' (--scale at ingest), 'format', None: unknown

    def describe(self) -> str:
        if self.source is None:
            return "unknown scale"
        if self.lo is None and self.hi is None:
            return "unbounded scale"
        return f"scale {_bound(self.lo)}..{_bound(self.hi)}"

    def fits_darr_default(self) -> bool:
        """WMT's threshold of 25 is defined on the raw DA scale 0..100 only."""
        return self.source is not None and (self.lo, self.hi) == DARR_SCALE


def _bound(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


@dataclass(frozen=True)
class MetaTask:
    """One meta-evaluation: which scores are compared with which judgments, and how.

    ``items``: 'common' (default, as mt-metrics-eval) correlates every metric and variant of
    the run on the same items, the (target, unit) pairs all of them score; 'own' keeps each
    metric's own items.  ``include_human``: without ``systems``, human translations
    (references scored as targets, the system set 'human') are left out unless this is set;
    ``systems`` names the targets exactly.  ``threshold`` None: the DARR default (25), offered
    only for criteria on the raw DA 0..100 scale.
    """

    testbed: str
    level: str
    criterion: str
    refset: str
    metrics: tuple[str, ...] | None = None  # None: every metric scored against refset
    systems: tuple[str, ...] | None = None  # targets kept; None: every scored target
    exclude: tuple[str, ...] = ()  # targets left out
    include_human: bool = False
    items: str = "common"
    variant: str | None = None  # None: every variant
    coefficients: tuple[str, ...] = ()  # (): DEFAULT_COEFFICIENTS[level]
    grouping: str = "flat"
    threshold: float | None = None  # DARR: minimum difference of human scores
    accuracy_ties: str = "acc_eq"
    reading: str = "metric"  # metric, seg_mean or doc_mean (DR')
    human_from: str = "auto"
    min_segments: int = 1
    resample: str | None = None  # unit: seg, doc or sys; None: the level's own
    n_resamples: int = 1000
    seed: int = 1234
    ci_levels: tuple[float, ...] = (0.95, 0.99)
    where: str | None = None  # SQL predicate over segments (ulcdb.meta.slice)
    segments: frozenset[int] | None = None  # the segments it selects (resolved by evaluate)
    # doc/sys scores recomputed on those segments by a corpus formula (metric, variant,
    # target, doc_id, value), filled by evaluate
    rescored: tuple[tuple[str, str, str, str | None, float], ...] | None = None

    def __post_init__(self) -> None:
        choice("level", self.level, LEVELS, MetaChoiceError)
        choice("grouping", self.grouping, GROUPINGS, MetaChoiceError)
        choice("reading", self.reading, READINGS, MetaChoiceError)
        choice("human source", self.human_from, HUMAN_FROM, MetaChoiceError)
        choice("items", self.items, ITEMS, MetaChoiceError)
        choice("accuracy ties", self.accuracy_ties, correlations.ACCURACY_TIES, MetaChoiceError)
        for c in self.coefs:
            choice("coefficient", c, COEFFICIENTS, MetaChoiceError)
        choice("resample", self.resample_unit, LEVELS, MetaChoiceError)
        choice(f"at {self.level} level, resample", self.resample_unit,
               RESAMPLE_UNITS[self.level], MetaChoiceError)
        if self.n_resamples < 0:
            raise MetaError("the number of resamples cannot be negative")
        if not all(0 < c < 1 for c in self.ci_levels):
            raise MetaError("confidence levels must lie between 0 and 1 (e.g. 0.95)")
        if self.threshold is not None and self.threshold < 0:
            raise MetaError("the DARR threshold cannot be negative")
        if self.level == "sys" and self.grouping != "flat":
            raise MetaError("at system level there is one item per system: use grouping flat")

    @property
    def coefs(self) -> tuple[str, ...]:
        return self.coefficients or DEFAULT_COEFFICIENTS[self.level]

    @property
    def resample_unit(self) -> str:
        return self.resample or self.level

    @property
    def common(self) -> bool:
        return self.items == "common"

    def macro_args(self) -> tuple[str, list[MacroParam]]:
        """Argument list and parameters shared by the meta_* macros."""
        sql = ("?, ?, ?, ?, systems := ?::varchar[], metrics := ?::varchar[], "
               "variant_name := ?, reading := ?, human_from := ?, min_segments := ?, "
               "common_items := ?, segments := ?::integer[], rescored := ?")
        keys = ("metric", "variant", "translator", "doc_id", "value")
        rescored: list[dict[str, object]] | None = (
            [dict(zip(keys, r, strict=True)) for r in self.rescored] if self.rescored else None)
        params: list[MacroParam] = [
            self.testbed, self.level, self.criterion, self.refset,
            list(self.systems) if self.systems is not None else None,
            list(self.metrics) if self.metrics is not None else None,
            self.variant, self.reading, self.human_from, self.min_segments, self.common,
            sorted(self.segments) if self.segments is not None else None, rescored]
        return sql, params
