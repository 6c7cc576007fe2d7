"""What to do about scores that are missing: the end of every message saying a metric has no
scores against a reference set (compare, meta, meta protocol, QARLA).

ulcdb computes the metrics of its catalogue (``ulcdb list metrics``) from the test bed's
texts; any other metric name (COMET-22, BLEURT-20, a WMT release's chrF in a scores-only test
bed) has only the scores imported for it, which `ulcdb score` cannot add.  ``remedy`` tells
each its own way: "run `ulcdb score ...` first" for the first, and for the others the import
they come from, that it holds none against the reference set asked, and the reference sets
it does hold scores against; a metric imported for other test beds only: those test beds and
their files, and that the test bed asked has none of its scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ulcdb.metrics import registry
from ulcdb.metrics.base import Params
from ulcdb.metrics.languages import language_problems
from ulcdb.store.database import Store, named_query

MAX_FILES = 3  # files named per group of imported metrics; the rest counted
Elsewhere = tuple[tuple[str, tuple[str, ...]], ...]  # (test bed, its files) of an import


@cache
def catalogue_names() -> frozenset[str]:
    """The metrics ulcdb computes (its catalogue), by name."""
    return frozenset(spec.name for spec in registry.catalogue().specs)


def has_texts(store: Store, testbed: str) -> bool:
    """Whether ulcdb can compute metrics in ``testbed``: a scores-only test bed has no texts."""
    return bool(store.scalar(named_query("testbed_has_texts"), [store.testbed_id(testbed)]))


@dataclass(frozen=True)
class Wanted:
    """The scores asked for: against any of ``refsets`` (names) in ``testbed``, at ``level``
    and under ``variant`` (None: any); ``jack``: system-vs-system scores (the refsets are
    systems), which `ulcdb score --jack` computes."""

    testbed: str
    refsets: tuple[str, ...]
    level: str | None = None
    variant: str | None = None
    jack: bool = False

    def scores(self) -> str:
        return " ".join(filter(None, (f"{self.level}-level" if self.level else "", "scores",
                                      f"({self.variant})" if self.variant else "")))

    def against(self) -> str:
        if not self.refsets:
            return "any reference set"
        if len(self.refsets) == 1:
            return repr(self.refsets[0])
        return "any of " + ", ".join(map(repr, self.refsets))


def remedy(store: Store, testbed: str, metrics: Sequence[str], refsets: Sequence[str],
           level: str | None = None, *, spec: str | None = None, variant: str | None = None,
           jack: bool = False) -> str:
    """One line's clause on how to get scores of ``metrics`` (see ``Wanted`` for the rest).
    Metrics ulcdb computes: run `ulcdb score` (``-m spec``, as the user named them, when
    every one is computed; no metrics: the default selection), except those that cannot score
    the test bed's target language with `ulcdb score`'s defaults: why, as scoring says it (for
    the linguistic metrics, a model of the language to give).  The others: the files their
    scores were imported from, which hold none there, and the reference sets they do hold
    scores against (``-r``)."""
    wanted = Wanted(testbed, tuple(refsets), level, variant, jack)
    texts = has_texts(store, testbed)
    names = list(dict.fromkeys(metrics))
    known = [m for m in names if m in catalogue_names()]
    computed = known if texts else []
    check = language_problems(store, store.testbed_id(testbed), computed, Params())
    computed = check.kept
    if not names and not texts:
        return (f"test bed {testbed!r} has no texts (scores only), so ulcdb computes no "
                f"metric there: import scores against {wanted.against()}")
    clauses = []
    if computed or not names:
        which = spec if spec and len(computed) == len(names) else ",".join(computed)
        clauses.append(f"run `ulcdb score{' --jack' if jack else ''} -t {testbed}"
                       f"{f' -m {which}' if which else ''}` first")
    clauses += [f"{names} cannot score target language {check.lang!r} ({why})"
                for names, why in check.grouped()]
    imported = [m for m in names if m not in known]
    if imported:
        clauses += _imported(store, wanted, imported, "imported only, not computed by ulcdb")
    if known and not texts:
        clauses += _imported(store, wanted, known,
                             "not computable here (the test bed has no texts)")
    return "; ".join(clauses)


def _imported(store: Store, wanted: Wanted, metrics: list[str], why: str) -> list[str]:
    """One clause per group of metrics with the same reference sets, naming their files
    (at most ``MAX_FILES``: a release has a file or two per metric); for metrics without an
    import in the test bed, the test beds they were imported for and their files."""
    files: dict[str, set[str]] = {m: set() for m in metrics}
    held: dict[str, set[str]] = {m: set() for m in metrics}
    for metric, refset, level, variant, origin in store.query(
            named_query("metric_import_refsets"), [store.testbed_id(wanted.testbed), metrics]):
        files[metric].add(origin)
        if wanted.level in (None, level) and wanted.variant in (None, variant):
            held[metric].add(refset)
    elsewhere = _elsewhere(store, wanted, [m for m in metrics if not files[m]])
    groups: dict[tuple[bool, tuple[str, ...], Elsewhere], list[str]] = {}
    for m in metrics:
        others = () if wanted.jack else tuple(sorted(held[m] - set(wanted.refsets)))
        groups.setdefault((bool(files[m]), others, elsewhere.get(m, ())), []).append(m)
    return [_clause(ms, tuple(sorted(set().union(*(files[m] for m in ms)))), others, wanted,
                    why, where) for (_, others, where), ms in groups.items()]


def _elsewhere(store: Store, wanted: Wanted, metrics: list[str]) -> dict[str, Elsewhere]:
    """The other test beds each of ``metrics`` holds imported scores in, with their files."""
    if not metrics:
        return {}
    found: dict[str, dict[str, list[str]]] = {}
    for metric, testbed, origin in store.query(named_query("metric_imports_elsewhere"),
                                               [store.testbed_id(wanted.testbed), metrics]):
        found.setdefault(metric, {}).setdefault(testbed, []).append(origin)
    return {m: tuple((bed, tuple(files)) for bed, files in beds.items())
            for m, beds in found.items()}


def _files(origins: Sequence[str]) -> str:
    return ", ".join(origins[:MAX_FILES]) + (
        f" and {len(origins) - MAX_FILES} more" if len(origins) > MAX_FILES else "")


def _clause(metrics: list[str], origins: tuple[str, ...], others: tuple[str, ...],
            wanted: Wanted, why: str, elsewhere: Elsewhere = ()) -> str:
    one = len(metrics) == 1
    head = f"{', '.join(metrics)} {'is' if one else 'are'} {why}"
    if not origins:
        return (f"{head} and no import holds {wanted.scores()} of {'it' if one else 'them'} "
                f"in test bed {wanted.testbed!r}" + _imported_for(one, wanted, elsewhere))
    single = len(origins) == 1
    out = (f"{head}: {'its' if one else 'their'} import{'' if single else 's'} "
           f"({_files(origins)}) {'holds' if single else 'hold'} no {wanted.scores()} against "
           f"{wanted.against()} in test bed {wanted.testbed!r}; import a file that has them")
    if others:
        out += (f", or name a reference set {'it has' if single else 'they have'} with -r "
                f"({', '.join(others)})")
    return out


def _imported_for(one: bool, wanted: Wanted, elsewhere: Elsewhere) -> str:
    """The end of the clause on metrics without an import in the test bed asked: the test
    beds they were imported for (from which files), and what to import."""
    if not elsewhere:
        return ": import a file that has them"
    if len(elsewhere) == 1:
        beds = f"test bed {elsewhere[0][0]!r} only (from {_files(elsewhere[0][1])})"
    else:
        beds = "test beds " + ", ".join(f"{bed!r} (from {_files(files)})"
                                        for bed, files in elsewhere) + " only"
    return (f": {'it was' if one else 'they were'} imported for {beds}; import a file that "
            f"has them for {wanted.testbed!r} (`ulcdb ingest scores FILE -t {wanted.testbed}`)")
