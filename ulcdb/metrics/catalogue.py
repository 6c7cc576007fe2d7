"""The metric catalogue and the named sets as users browse them: `ulcdb list metrics`,
`ulcdb describe METRIC`, `ulcdb list sets`, and the "did you mean" of an unknown name.

Built-in metrics come from the registry's catalogue (nothing is written to the store to list
them; the shipped catalogue spares importing every metric module); imported metrics from the
store's ``metric`` table.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ulcdb.errors import NotFound
from ulcdb.metrics import registry
from ulcdb.metrics.base import MetricSpec
from ulcdb.store.names import suggest

if TYPE_CHECKING:
    from ulcdb.store.database import Store

COMPACT = ("name", "family", "level", "languages", "range", "computed")
LONG = ("name", "family", "level", "languages", "higher_better", "range_min", "range_max",
        "computed", "origin", "description")


@dataclass(frozen=True)
class Entry:
    """One metric of the catalogue."""

    spec: MetricSpec
    origin: str  # builtin or imported
    computed: bool
    languages: str

    def row(self, long: bool) -> tuple[object, ...]:
        s = self.spec
        if long:
            return (s.name, s.family, s.linguistic_level, self.languages, s.higher_is_better,
                    s.range_min, s.range_max, self.computed, self.origin, s.description)
        return (s.name, s.family, s.linguistic_level, self.languages, _range(s),
                "yes" if self.computed else "")


def _range(s: MetricSpec) -> str:
    low = "-inf" if s.range_min is None else f"{s.range_min:g}"
    high = "inf" if s.range_max is None else f"{s.range_max:g}"
    return f"{low}..{high} ({'higher' if s.higher_is_better else 'lower'} is better)"


def entries(store: Store | None) -> list[Entry]:
    """Every built-in metric, then every imported one, in catalogue order."""
    computed: set[str] = set()
    imported: list[MetricSpec] = []
    builtin = registry.catalogue()
    index = {s.name for s in builtin.specs}
    if store is not None:
        computed = {r[0] for r in store.query(
            "select distinct metric from scored_metrics")}
        imported = [MetricSpec(name, family, description or "", level, bool(higher), low, high)
                    for name, family, level, higher, low, high, description in store.query(
                        "select name, family, linguistic_level, higher_is_better, range_min, "
                        "range_max, description from metric order by metric_id")
                    if name not in index]
    out = [Entry(spec, "builtin", spec.name in computed, builtin.languages[spec.name])
           for spec in builtin.specs]
    return out + [Entry(spec, "imported", spec.name in computed, "as imported")
                  for spec in imported]


def select(all_entries: list[Entry], pattern: str | None = None, family: str | None = None,
           computed: bool = False) -> list[Entry]:
    """Entries matching a name pattern (shell wildcards, case-insensitive; without wildcards a
    substring), a family (case-insensitive) and, with ``computed``, having scores."""
    out = [e for e in all_entries if not computed or e.computed]
    if family is not None:
        families = {e.spec.family.lower() for e in all_entries}
        if family.lower() not in families:
            raise NotFound(f"no metric family named {family!r}{_hint(family, families)} "
                           f"(families: {', '.join(sorted({e.spec.family for e in all_entries}))})")
        out = [e for e in out if e.spec.family.lower() == family.lower()]
    if pattern:
        glob = pattern.lower() if any(c in pattern for c in "*?[") else f"*{pattern.lower()}*"
        out = [e for e in out if fnmatch.fnmatchcase(e.spec.name.lower(), glob)]
    return out


def describe(store: Store | None, name: str) -> dict[str, object]:
    """Everything ulcdb knows about one metric: its catalogue entry and the sets holding it."""
    found = {e.spec.name: e for e in entries(store)}
    if name not in found:
        raise NotFound(f"no metric named {name!r}{suggest(name, list(found))} "
                       "(see `ulcdb list metrics`)")
    e = found[name]
    sets = [s for s, members in registry.catalogue().sets.items() if name in members]
    if store is not None:
        from ulcdb.store.database import named_query

        sets += [r[0] for r in store.query(named_query("metric_sets_of"), [name])]
    return {"name": name, "family": e.spec.family, "level": e.spec.linguistic_level,
            "languages": e.languages, "range": _range(e.spec), "origin": e.origin,
            "computed": "yes" if e.computed else "no",
            "sets": ", ".join(dict.fromkeys(sets)) or "none",
            "reference implementation": e.spec.reference_implementation or "",
            "description": e.spec.description}


SET_COLUMNS = ("origin", "testbed", "kind", "name", "size", "members")


def set_rows(store: Store | None, shorten: int | None = None) -> list[tuple[object, ...]]:
    """(origin, test bed, kind, name, size, members) of every named set: built-in metric sets
    (their members ulcdb computes), then the store's sets.  ``shorten``: at most that many
    members shown, then '... (N more)'."""
    builtin = registry.catalogue()
    index = {s.name for s in builtin.specs}
    sets = [("builtin", "*", "metric", name, [m for m in members if m in index])
            for name, members in builtin.sets.items()]
    if store is not None:
        from ulcdb.store.database import named_query

        sets += [("stored", *r) for r in store.query(named_query("list_sets"))]
    return [(*head, len(members), _members(members, shorten)) for *head, members in sets]


def _members(members: list[str], shorten: int | None) -> str:
    if shorten is None or len(members) <= shorten:
        return " ".join(members)
    return " ".join(members[:shorten]) + f" ... ({len(members) - shorten} more)"


def _hint(name: str, known: set[str]) -> str:
    return suggest(name, known, 1)
