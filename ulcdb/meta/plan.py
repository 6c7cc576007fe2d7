"""What a meta-evaluation needs before it runs, planned once for `ulcdb meta` and
``Database.meta``: the test bed, reference set, criterion, metrics and targets resolved on
the store, and the task."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ulcdb.meta import select
from ulcdb.meta.task import MetaTask
from ulcdb.store.database import Store


def meta_task(store: Store, *, testbed: str | None = None, level: str = "sys",
              criterion: str | None = None, refs: str | None = None,
              metrics: str | Sequence[str] | None = None, systems: str | None = None,
              exclude: tuple[str, ...] = (), exclude_human: bool = False,
              **settings: Any) -> tuple[MetaTask, list[str]]:
    """The task of ``metrics`` (names or sets; default every metric scored against the
    reference set; a sequence: metrics already chosen) and the metrics named but not scored
    yet, which are left out.
    ``systems`` and ``exclude`` name translators or their sets; ``settings`` are the other
    fields of MetaTask (coefficients, reading, where, n_resamples, ...)."""
    name = testbed or store.only_testbed()
    tid = store.testbed_id(name)
    refset = select.refset(store, name, refs)
    if metrics is None or isinstance(metrics, str):
        chosen, missing = select.metrics(store, name, refset, level, metrics)
    else:
        chosen, missing = tuple(metrics), []
    names = [n for spec in exclude for n in select.translators(store, tid, spec)]
    if exclude_human:
        names += select.human_translations(store, tid)
    task = MetaTask(
        testbed=name, level=level, criterion=select.criterion(store, name, criterion),
        refset=refset, metrics=chosen,
        systems=tuple(select.translators(store, tid, systems)) if systems else None,
        exclude=tuple(dict.fromkeys(names)), **settings)
    return task, missing
