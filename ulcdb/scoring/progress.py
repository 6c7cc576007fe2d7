"""The shape every long library call takes to show its progress (the CLI draws a bar, a
notebook what it likes): given the number of steps, a context whose callback advances the
display by n steps of the named part.  Calls without a display run ``silent``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TypeVar

T = TypeVar("T")
Tick = Callable[[str, int], None]
Progress = Callable[[int], AbstractContextManager[Tick]]


@contextmanager
def silent(total: int) -> Iterator[Tick]:
    """No display: every step is dropped."""
    yield lambda label, n: None


def scoring_steps(metrics: list[str], n_pairs: int) -> int:
    """The steps ``Scorer.run`` advances its callback by: each pair once per family computed
    (derived families are read from others, not computed)."""
    from ulcdb.metrics import registry

    fams = {registry.family_of(m).name for m in metrics if m in registry.metric_index()
            and not registry.family_of(m).derived}
    return n_pairs * len(fams)


def ticking(items: Iterable[T], key: Callable[[T], str], tick: Tick | None) -> Iterator[T]:
    """``items`` as they come; ``tick`` hears (key, 1) as each run of items with one key
    ends (an exporter's stream of score blocks, one run per metric)."""
    current: str | None = None
    for item in items:
        name = key(item)
        if tick is not None and current is not None and name != current:
            tick(current, 1)
        current = name
        yield item
    if tick is not None and current is not None:
        tick(current, 1)

