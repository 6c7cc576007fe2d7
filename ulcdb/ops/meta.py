"""`ulcdb meta` and ``Database.meta``: the stored scores correlated with a human criterion
(the task planned by ``ulcdb.meta.plan``, evaluated by ``ulcdb.meta.evaluate``), with the
pairwise significance of the metrics where asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ulcdb.errors import MetaError
from ulcdb.meta import MetaReport, MetricComparison, compare, evaluate
from ulcdb.meta.plan import meta_task
from ulcdb.ops.access import Access
from ulcdb.ops.levels import LEVELS, level_choice
from ulcdb.scoring import imported_metrics


@dataclass
class Meta:
    """The report, the metric comparisons (--sig), and what the CLI tells on stderr."""

    report: MetaReport
    comparisons: list[MetricComparison] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # named, not scored: left out
    imported: list[str] = field(default_factory=list)  # imported scores used as they are

    def notes(self) -> list[str]:
        """The lines `ulcdb meta` prints on stderr, before the table."""
        out = []
        if self.missing:
            out.append("not scored yet, left out (run `ulcdb score` first): "
                       + ", ".join(self.missing))
        if self.imported:
            out.append(f"imported scores used as they are: {', '.join(self.imported)}")
        return out


def meta(access: Access, *, level: str = "sys", sort: str | None = None,
         sig: str | None = None, sig_coef: str | None = None, **selection: Any) -> Meta:
    """Evaluate the task of ``selection`` (``meta.plan.meta_task``'s arguments: testbed,
    criterion, refs, metrics, systems, exclude and MetaTask's fields) at ``level``; ``sort``
    must be one of its coefficients; ``sig`` (paired-bootstrap or permutation) tests every
    pair of metrics on ``sig_coef`` (default ``sort``'s, else the first coefficient)."""
    level = level_choice(level, LEVELS)
    with access.read() as store:
        task, missing = meta_task(store, level=level, **selection)
        report = evaluate(store, task)
        imported = imported_metrics(store, store.testbed_id(task.testbed), task.refset,
                                    list(task.metrics or ()))
    if sort and sort not in report.task.coefs:
        raise MetaError(f"--sort {sort!r} is not among the coefficients "
                        f"({', '.join(report.task.coefs)})")
    comparisons = (compare(report, sig_coef or sort or report.task.coefs[0], sig)
                   if sig else [])
    return Meta(report, comparisons, missing, imported)
