"""What to do about scores that are missing: the end of every message saying a metric has no
scores against a reference set (compare, meta, meta protocol, QARLA).

ulcdb computes the metrics of its catalogue (``ulcdb list metrics``) from the test bed's
texts; any other metric name (COMET-22, BLEURT-20, a WMT release's chrF in a scores-only test
bed) has only the scores imported for it, which `ulcdb score` cannot add.  ``remedy`` tells
each its own way: "run `ulcdb score ...` first" for the first, and for the others the import
they come from, that it holds none against the reference set asked, and the reference sets
it does hold scores against.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ulcdb.metrics import registry
from ulcdb.store.database import Store, named_query

MAX_FILES = 3  # files named per group of imported metrics; the rest counted


@cache
def catalogue_names() -> frozenset[str]:
    """The metrics ulcdb computes (its catalogue), by name."""
    return frozenset(spec.name for spec in registry.catalogue().specs)


@cache
def catalogue_families() -> frozenset[str]:
    return frozenset(spec.family for spec in registry.catalogue().specs)


def has_texts(store: Store, testbed: str) -> bool:
    """Whether ulcdb can compute metrics in ``testbed``: a scores-only test bed has no texts."""
    return bool(store.scalar(named_query("testbed_has_texts"), [store.testbed_id(testbed)]))


def remedy(store: Store, testbed: str, metrics: Sequence[str], refsets: Sequence[str],
           level: str | None = None, spec: str | None = None) -> str:
    """One line's clause on how to get scores of ``metrics`` against ``refsets`` (names; any
    of them) in ``testbed`` at ``level`` (None: any level).  Metrics ulcdb computes: run
    `ulcdb score` (``-m spec``, as the user named them, when every one is computed; no
    metrics: the default selection).  The others: the files their scores were imported from,
    which hold none there, and the reference sets they do hold scores against (``-r``)."""
    texts = has_texts(store, testbed)
    names = list(dict.fromkeys(metrics))
    known = [m for m in names if m in catalogue_names()]
    computed = known if texts else []
    if not names and not texts:
        return (f"test bed {testbed!r} has no texts (scores only), so ulcdb computes no "
                f"metric there: import scores against {_against(refsets)}")
    clauses = []
    if computed or not names:
        which = spec if spec and len(computed) == len(names) else ",".join(computed)
        clauses.append(f"run `ulcdb score -t {testbed}{f' -m {which}' if which else ''}` "
                       "first")
    imported = [m for m in names if m not in known]
    if imported:
        clauses += _imported(store, testbed, imported, refsets, level,
                             "imported only, not computed by ulcdb")
    if known and not texts:
        clauses += _imported(store, testbed, known, refsets, level,
                             "not computable here (the test bed has no texts)")
    return "; ".join(clauses)


def _imported(store: Store, testbed: str, metrics: list[str], refsets: Sequence[str],
              level: str | None, why: str) -> list[str]:
    """One clause per group of metrics with the same files and reference sets."""
    files: dict[str, set[str]] = {m: set() for m in metrics}
    held: dict[str, set[str]] = {m: set() for m in metrics}
    for metric, refset, at, origin in store.query(named_query("metric_import_refsets"),
                                                  [store.testbed_id(testbed), metrics]):
        files[metric].add(origin)
        if level is None or at == level:
            held[metric].add(refset)
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for m in metrics:
        key = (tuple(sorted(files[m])), tuple(sorted(held[m] - set(refsets))))
        groups.setdefault(key, []).append(m)
    return [_clause(ms, origins, others, refsets, level, testbed, why)
            for (origins, others), ms in groups.items()]


def _clause(metrics: list[str], origins: tuple[str, ...], others: tuple[str, ...],
            refsets: Sequence[str], level: str | None, testbed: str, why: str) -> str:
    one = len(metrics) == 1
    head = f"{', '.join(metrics)} {'is' if one else 'are'} {why}"
    scores = f"{level}-level scores" if level else "scores"
    if not origins:
        return (f"{head} and no import holds {scores} of {'it' if one else 'them'} in test bed "
                f"{testbed!r}: import a file that has them")
    shown = ", ".join(origins[:MAX_FILES]) + (
        f" and {len(origins) - MAX_FILES} more" if len(origins) > MAX_FILES else "")
    out = (f"{head}: {'its' if one else 'their'} import{'' if len(origins) == 1 else 's'} "
           f"({shown}) {'holds' if len(origins) == 1 else 'hold'} no {scores} against "
           f"{_against(refsets)} in test bed {testbed!r}; import a file that has them")
    if others:
        out += (f", or name a reference set {'it has' if len(origins) == 1 else 'they have'} "
                f"with -r ({', '.join(others)})")
    return out


def _against(refsets: Sequence[str]) -> str:
    if not refsets:
        return "any reference set"
    if len(refsets) == 1:
        return repr(refsets[0])
    return "any of " + ", ".join(map(repr, refsets))
