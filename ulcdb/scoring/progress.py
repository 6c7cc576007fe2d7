"""The shape every long library call takes to show its progress (the CLI draws a bar, a
notebook what it likes): given the number of steps, a context whose callback advances the
display by n steps of the named part.  Calls without a display run ``silent``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

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
