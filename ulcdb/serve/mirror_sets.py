"""What the serve mirror holds of a store: the metric sets ULC, QUEEN and KING are
materialised for, the metrics metric_corr pairs, and the metrics whose segment and document
scores fit in the mirror's budgets of rows (the others are read from the store on demand)."""

from __future__ import annotations

from collections.abc import Collection

import duckdb

from ulcdb.metrics import backoff_interpolation, registry
from ulcdb.store.database import named_query

Con = duckdb.DuckDBPyConnection


def metric_sets(con: Con) -> dict[str, list[str]]:
    """The metric sets ULC, QUEEN and KING are materialised for: the built-in default set
    (metrics_LEX), every stored metric set, the widest built-in sets the scores cover (LEX
    after `score -m LEX`, see _widest_builtin_sets), each restricted to metrics with system
    scores, and "all" scored metrics (up to MAX_ALL_METRICS); identical lists once."""
    scored = [r[0] for r in con.execute(named_query("mirror_sys_metrics")).fetchall()]
    have = set(scored)
    have |= {d for d in backoff_interpolation.derived_names()  # x-b / x-i: computed by ling_backoff
             if all(r in have for r in backoff_interpolation.requirements(d))}
    sets: dict[str, list[str]] = {}
    default = [m for m in registry.BUILTIN_SETS[registry.DEFAULT_SET] if m in have]
    if default:
        sets[registry.DEFAULT_SET] = default
    for name, stored in con.execute(named_query("mirror_metric_sets")).fetchall():
        members = [m for m in dict.fromkeys(stored) if m in have]
        if members and members not in sets.values():
            sets[name] = members
    for name, members in _widest_builtin_sets(have).items():
        if set(members) not in map(set, sets.values()):  # LEX's order is not the store's
            sets[name] = members
    if scored and set(scored) not in map(set, sets.values()) and len(scored) <= MAX_ALL_METRICS:
        sets["all"] = scored
    return sets


def stored_set_names(con: Con) -> set[str]:
    """The names of the store's own metric sets (read as defined in every test bed)."""
    return {name for name, _ in con.execute(named_query("mirror_metric_sets")).fetchall()}


def testbed_sets(sets: dict[str, list[str]], stored: set[str],
                 scored: Collection[tuple[str, str]], testbed: str) -> dict[str, list[str]]:
    """The metric sets as one test bed's ULC, QUEEN and KING parts read them: a stored set
    (``stored``: their names) as it was defined; a set the mirror made (metrics_LEX, the
    widest built-in sets, "all": restricted to the metrics the store has) restricted further
    to the metrics the test bed has scores of (``scored``: (test bed, metric)), so that a
    test bed which brings a metric changes no other test bed's rows.  ULC needs every member:
    the sample's ULC of "all" fell from 2516 to 1184 rows when a test bed with one more
    metric was added.  Metrics no test bed has stored (backoff and interpolation, computed
    from others) are kept."""
    anywhere = {m for _, m in scored}
    out = {}
    for name, members in sets.items():
        own = members if name in stored else [
            m for m in members if (testbed, m) in scored or m not in anywhere]
        if own:
            out[name] = own
    return out


def _widest_builtin_sets(have: set[str]) -> dict[str, list[str]]:
    """The built-in metric sets restricted to the metrics in ``have`` that no other such set
    contains, with at most MAX_ALL_METRICS members: a store scored with `-m LEX` gets "LEX"
    (its family sets GTM, ROUGE, ... are inside it), one scored with the default set gets
    only metrics_LEX."""
    restricted = {name: [m for m in members if m in have]
                  for name, members in registry.BUILTIN_SETS.items()}
    fits = {name: ms for name, ms in restricted.items() if 0 < len(ms) <= MAX_ALL_METRICS}
    return {name: ms for name, ms in fits.items()
            if not any(set(ms) < set(other) for other in fits.values())}


# Stores with linguistic scores hold a thousand metrics (one per part of speech, chunk,
# role...): an "all" set over them, or correlations of every pair, would be huge and useless.
MAX_ALL_METRICS = 60
MAX_CORR_METRICS = 80


def corr_metrics(sets: dict[str, list[str]]) -> list[str]:
    """The metrics metric_corr pairs: those of the materialised sets, at most 80."""
    return list(dict.fromkeys(m for members in sets.values() for m in members))[
        :MAX_CORR_METRICS]


# What the mirror keeps of `scores` (DuckDB's views keep everything): see
# schema/queries/mirror_scores.sql.  For WMT21 en-de with the LEX suite this is 1.5M rows
# instead of 6.3M.  mirror_scores_kept.sql marks the same rows in the whole view.
DERIVED_VIEWS = {"scores": named_query("mirror_scores")}
MAX_SEG_METRICS = 12  # stores scoring at most this many metrics keep all segment scores
# Segment and document rows the mirror holds at most (each about 100 bytes, more with its
# indexes): the metrics browsing shows first are taken whole while they fit; the others'
# scores at that level stay in the store (`ulcdb sql`, and the pages that read the store).
# A campaign of 80M segment scores keeps its mirror under 2 GB; the WMT21 en-de LEX store
# keeps the segment scores of metrics_LEX (517k rows), every document score (as does
# the WMT20 release's).
SEG_ROWS_BUDGET = 600_000
DOC_ROWS_BUDGET = 1_000_000
# Views with document rows of every metric, kept for the metrics whose document scores the
# mirror keeps ($1): the condition appended to their query.
DOC_BUDGETED = {"scores_mean": " where level <> 'doc' or list_contains($1, metric)"}


def seg_metrics(con: Con) -> list[str]:
    """The metrics whose segment scores the mirror keeps: those of the metric sets (all
    scored metrics when at most MAX_SEG_METRICS), in the sets' order, while their segment
    rows fit in SEG_ROWS_BUDGET; a metric too large is passed over for smaller ones after
    it."""
    sets = metric_sets(con)
    scored = sets.get("all") or []
    wanted = scored if 0 < len(scored) <= MAX_SEG_METRICS else list(dict.fromkeys(
        m for name, members in sets.items() if name != "all" for m in members))
    return _within(con, "seg", wanted, SEG_ROWS_BUDGET)


def doc_metrics(con: Con) -> list[str]:
    """The metrics whose document scores the mirror keeps: those of the metric sets first,
    then the others by name, while their document rows fit in DOC_ROWS_BUDGET."""
    sets = metric_sets(con)
    rows = dict(con.execute(named_query("mirror_level_rows"), ["doc"]).fetchall())
    wanted = list(dict.fromkeys([m for members in sets.values() for m in members] + list(rows)))
    return _within(con, "doc", wanted, DOC_ROWS_BUDGET, rows)


def _within(con: Con, level: str, wanted: list[str], budget: int,
            rows: dict[str, int] | None = None) -> list[str]:
    """The metrics of ``wanted``, in order, whose rows at ``level`` fit in ``budget``
    together (metrics with no stored rows there, such as derived ones, always)."""
    if rows is None:
        rows = dict(con.execute(named_query("mirror_level_rows"), [level]).fetchall())
    kept = []
    for metric in wanted:
        n = rows.get(metric, 0)
        if n <= budget:
            kept.append(metric)
            budget -= n
    return kept


# Id-keyed tables and views whose rows the named `scores` view already holds: not mirrored
# (segment scores twice, with their statistics as JSON, tripled the mirror).  sys_score stays:
# it is small and the canned queries read its variants.  scored_keys is a table macro now; a
# store made before keeps its old view of that name, which is not mirrored either.
NOT_MIRRORED = {"score_rows", "stored_scores", "scored_metrics", "imported_keys", "scored_keys",
                "seg_score", "doc_score", "ling_backoff"}
