"""Meta-evaluation: how well stored metric scores agree with stored human judgments.

What is SQL and what is Python:
- SQL (schema/views): ``meta_human`` (human scores per unit: ingested or derived by averaging
  segment assessments), ``meta_metric`` (metric scores per unit, incl. the DR' reading),
  ``meta_items`` (the two joined; ``common`` marks the items every metric of the call
  scores), ``meta_corr`` (Pearson and Spearman, flat or averaged per item or system),
  ``darr_pairs`` and ``darr_tau`` (the WMT DARR Kendall-like tau), ``criterion_scale``.
- Python, pure functions: ``ulcdb.stats.correlations`` and ``ulcdb.stats.bootstrap``.  This package
resolves the
  task (``select``), runs the macros and hands the vectors to those functions (``evaluate``),
  and renders the result (``report``: text cells, CSV, JSON, LaTeX).

Comparability, as mt-metrics-eval: by default every metric and variant of a run is correlated
on the same items (the intersection of their (target, unit) sets), human translations are not
among the targets, and DARR's threshold of 25 is used only on the raw DA 0..100 scale.

A task is a frozen ``MetaTask``; its fields name the result and it records the seed.
"""

from ulcdb.errors import MetaError
from ulcdb.meta.evaluate import compare, evaluate, fetch_items, prepare, sql_estimates
from ulcdb.meta.report import (
    LABELS,
    ConfidenceInterval,
    Coverage,
    Estimate,
    Items,
    MetaReport,
    MetricComparison,
    comparison_records,
    records_csv,
)
from ulcdb.meta.select import (
    criteria,
    criterion_scale,
    human_translations,
    scored_metrics,
    scored_refsets,
)
from ulcdb.meta.task import (
    COEFFICIENTS,
    DARR,
    DEFAULT_COEFFICIENTS,
    LEVELS,
    UNIT_NAMES,
    MetaTask,
    Scale,
)

__all__ = [
    "COEFFICIENTS", "DARR", "DEFAULT_COEFFICIENTS", "LABELS", "LEVELS", "UNIT_NAMES", "Coverage",
    "Estimate", "ConfidenceInterval", "Items", "MetaError", "MetaReport", "MetaTask",
           "MetricComparison",
    "Scale", "compare", "comparison_records", "criteria", "criterion_scale", "evaluate",
    "fetch_items", "human_translations", "prepare", "records_csv", "scored_metrics",
    "scored_refsets", "sql_estimates",
]
