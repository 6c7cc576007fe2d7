"""`ulcdb tune` and ``Database.tune``: TINE's alpha and beta tuned against human scores on a
development test bed (``ulcdb.tune.tine``), the tuned metric stored."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ulcdb.errors import UlcdbError
from ulcdb.meta import select as meta_select
from ulcdb.ops.access import Access
from ulcdb.ops.levels import level_choice
from ulcdb.scoring.progress import Progress
from ulcdb.scoring.scorer import variant_of
from ulcdb.scoring.selection import select
from ulcdb.tune.tine import GENERATIONS, INDIVIDUALS, Tuned
from ulcdb.tune.tine import tune as tune_tine

TUNABLE = ("TINE",)
COLUMNS = ["metric", "alpha", "beta", "kendall_tau_b", "level", "criterion", "seed", "variant"]


@dataclass
class Tuning:
    """The tuned metric, what ran, and the line saying what was stored."""

    tuned: Tuned
    level: str
    criterion: str
    seed: int
    variant: str
    stored: str

    def row(self) -> list[Any]:
        t = self.tuned
        return [t.name, t.alpha, t.beta, t.fitness, self.level, self.criterion, self.seed,
                self.variant]


def tune(access: Access, metric: str, *, criterion: str | None = None, level: str = "seg",
         testbed: str | None = None, systems: str | None = None, refs: str | None = None,
         seed: int = 1234, jobs: int | None = None,
         log: Callable[[str], None] = lambda line: None,
         progress: Progress | None = None) -> Tuning:
    """Tune ``metric`` (TINE) at ``level`` (seg or sys) against ``criterion`` on the systems
    of ``testbed`` but the human translations; ``log`` hears what is about to run,
    ``progress`` the pairs scored and the generations of the search."""
    if metric not in TUNABLE:
        raise UlcdbError(f"cannot tune {metric!r}: tunable metrics are {', '.join(TUNABLE)}")
    level = level_choice(level, ("seg", "sys"))
    with access.read() as store:
        sel = select(store, testbed, "TINE-L,TINE-A", systems, refs, None)
        name = meta_select.criterion(store, sel.testbed, criterion)
        humans = set(meta_select.human_translations(store, store.testbed_id(sel.testbed)))
    targets = [s for s in sel.systems if s not in humans]
    with access.write(f"the tuned metric {metric}") as store:
        log(f"tuning {metric} on {sel.testbed} against {name} ({level} level): "
            f"{len(targets)} systems, references {', '.join(sel.refs)}, "
            f"GA {INDIVIDUALS}x{GENERATIONS}, seed {seed}")
        tuned, report = tune_tine(store, sel.testbed, targets, sel.refs, sel.params, name,
                                  level, seed, jobs, progress)
    return Tuning(tuned, level, name, seed, variant_of(sel.params),
                  f"stored {tuned.name}: {report.summary()}")
