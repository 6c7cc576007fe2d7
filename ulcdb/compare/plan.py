"""What a comparison needs before it runs, planned once for `ulcdb compare` and
``Database.compare``: the systems tested (the baseline first), the scores they need (each
system against the whole reference set) and the task."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ulcdb.compare.data import CompareError
from ulcdb.compare.run import ALPHA, CompareTask
from ulcdb.compare.where import where_segments
from ulcdb.scoring.scorer import Pair, variant_of
from ulcdb.scoring.selection import ScoreSelection, resolve_translators, split_names
from ulcdb.stats.sacrebleu_significance import SACREBLEU_SEED
from ulcdb.store.database import Store
from ulcdb.store.names import suggest

DEFAULT_METRICS = "BLEU,chrF,1-TER"  # sacrebleu's defaults


@dataclass(frozen=True)
class ComparePlan:
    """The resolved selection and the systems compared, the baseline (if any) first."""

    selection: ScoreSelection  # its refs: those the systems are scored against
    systems: tuple[str, ...]
    baseline: str | None
    references_as_systems: tuple[str, ...] = ()

    @property
    def refs(self) -> tuple[str, ...]:
        return tuple(sorted(self.selection.refs))

    @property
    def pairs(self) -> list[Pair]:
        """The scores the tests read: every system against the whole reference set."""
        return [Pair(name, self.refs) for name in self.systems]

    def task(self, store: Store, *, variant: str | None = None, method: str = "bs",
             resamples: int | None = None, seed: int = SACREBLEU_SEED, unit: str = "seg",
             where: str | None = None, alpha: float = ALPHA) -> CompareTask:
        """The task of these systems; ``where`` (an SQL predicate over the segments) is
        resolved to segment ids here."""
        sel = self.selection
        segments = where_segments(store, sel.testbed, where) if where else None
        return CompareTask(sel.testbed, tuple(sel.metrics), self.systems, "+".join(self.refs),
                           variant_of(sel.params), self.baseline, variant, method, resamples,
                           seed, unit, segments, alpha, self.references_as_systems)


def plan(store: Store, sel: ScoreSelection, baseline: str | None = None,
         systems: str | None = None) -> ComparePlan:
    """The systems of ``sel`` (or of ``systems``, names and sets where a reference may stand
    for a system); a ``baseline`` of the test bed outside them is added, an unknown one is an
    error naming the closest names.  References compared as systems (the human-parity
    question) are scored against the other references only, never against themselves."""
    tid = store.testbed_id(sel.testbed)
    references = list(store.translators(tid, "reference"))
    names = list(sel.systems) if systems is None else _systems(store, tid, systems, references)
    if baseline is not None and baseline not in names:
        known = list(store.translators(tid))
        if baseline not in known:
            raise CompareError(f"no system named {baseline!r}{suggest(baseline, known)}")
        names.append(baseline)
    if baseline is not None:
        names = [baseline, *(n for n in names if n != baseline)]
    as_systems = tuple(n for n in names if n in references)
    refs = [r for r in sel.refs if r not in as_systems]
    if as_systems and not refs:
        raise CompareError(f"{', '.join(as_systems)} compared as a system leaves no reference "
                           "to score against: name other references with -r")
    return ComparePlan(replace(sel, refs=refs), tuple(names), baseline, as_systems)


def _systems(store: Store, tid: int, spec: str, references: list[str]) -> list[str]:
    """``-s`` of compare: system names and sets, and reference names."""
    out: list[str] = []
    for item in split_names(spec):
        out += [item] if item in references else resolve_translators(store, tid, "system",
                                                                     item)
    return list(dict.fromkeys(out))
