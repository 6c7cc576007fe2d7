"""Taking things out of the store: a test bed, a system or reference, scores.

Each deletion is planned first (`Deletion.what` says what goes, for the user to confirm),
then done in one transaction; score provenance left without scores goes with it.
Annotations stay: they are keyed by text and shared by every test bed holding that text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ulcdb.errors import NotFound
from ulcdb.ingest.load import contents, drop_testbed, drop_translator_scores
from ulcdb.scoring.rows import hand_over_stats
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import suggest

SCORE_TABLES = ("seg_score", "doc_score", "sys_score")


@dataclass
class Deletion:
    """A planned deletion: what it removes (one line) and how to do it."""

    what: str
    run: Callable[[Store], None]

    def apply(self, store: Store) -> str:
        """Delete, then give the space back (``Store.compact``); says what that freed."""
        with store.transaction():
            self.run(store)
            store.drop_orphan_batches()
        before, after = store.compact()
        mb = 1e6
        return (f"store file {before / mb:.1f} MB -> {after / mb:.1f} MB "
                f"({max(0, before - after) / mb:.1f} MB freed)")


def plan_testbed(store: Store, name: str) -> Deletion:
    tid = store.testbed_id(name)
    return Deletion(f"test bed {name!r} with its {contents(store, tid)}",
                    lambda s: drop_testbed(s, tid))


def plan_translator(store: Store, testbed: str, name: str, role: str) -> Deletion:
    """A system or reference with its texts, its scores (as target, and every score against
    a reference set holding it), its human assessments and its place in named sets."""
    tid = store.testbed_id(testbed)
    rows = store.query("select translator_id from translator where testbed_id = ? and "
                       "name = ? and role = ?", [tid, name, role])
    if not rows:
        have = store.translators(tid, role)
        raise NotFound(f"no {role} named {name!r} in test bed {testbed!r} (have: "
                       f"{', '.join(have) or 'none'})")
    trid = rows[0][0]
    scores, assessments = store.query(named_query("translator_footprint"), [trid])[0]
    what = (f"{role} {name!r} of test bed {testbed!r} with its texts, {scores} scores (its own "
            f"and those against reference sets holding it) and {assessments} human assessments")
    return Deletion(what, lambda s: _drop_translator(s, tid, trid, name, role))


def _drop_translator(store: Store, tid: int, trid: int, name: str, role: str) -> None:
    drop_translator_scores(store, trid)
    refsets = "select refset_id from refset_member where translator_id = ?"
    store.con.execute(f"delete from refset where refset_id in ({refsets})", [trid])
    store.con.execute(f"delete from refset_member where refset_id in ({refsets})", [trid])
    for table in ("assessment", "translation"):
        store.con.execute(f"delete from {table} where translator_id = ?", [trid])
    store.con.execute("delete from translator where translator_id = ?", [trid])
    sets = "select set_id from named_set where testbed_id = ? and kind = ?"
    store.con.execute(f"delete from named_set_member where member = ? and set_id in ({sets})",
                      [name, tid, role])
    empty = ("select set_id from named_set where testbed_id = ? and kind = ? and set_id not "
             "in (select set_id from named_set_member)")
    store.con.execute(f"delete from named_set where set_id in ({empty})", [tid, role])


@dataclass(frozen=True)
class ScoreFilter:
    """Which scores of a test bed: metrics (required), and optionally targets, variant and
    reference set."""

    testbed: str
    metrics: tuple[str, ...]
    targets: tuple[str, ...] = ()
    variant: str | None = None
    refset: str | None = None


def plan_scores(store: Store, f: ScoreFilter) -> Deletion:
    tid = store.testbed_id(f.testbed)
    _check_names(store, tid, f)
    where = ("metric_id in (select metric_id from metric where list_contains($metrics, name)) "
             "and translator_id in (select translator_id from translator where testbed_id = "
             "$tid and (len($targets) = 0 or list_contains($targets, name))) "
             "and ($variant is null or variant = $variant) and ($refset is null or refset_id "
             "in (select refset_id from refset where testbed_id = $tid and name = $refset))")
    params = {"metrics": list(f.metrics), "tid": tid, "targets": list(f.targets),
              "variant": f.variant, "refset": f.refset}
    n = store.scalar(f"select count(*) from stored_scores where {where}", params)
    if n == 0:
        raise NotFound(f"no stored scores of {', '.join(f.metrics)} match in test bed "
                       f"{f.testbed!r}")
    scope = [f"of {', '.join(f.targets)}" if f.targets else "of every translator",
             f"variant {f.variant}" if f.variant else "every variant",
             f"against {f.refset}" if f.refset else "against every reference set"]
    what = f"{n} scores of {', '.join(f.metrics)} in test bed {f.testbed!r} ({', '.join(scope)})"

    def run(s: Store) -> None:
        hand_over_stats(s, where, params)
        for t in SCORE_TABLES:
            s.con.execute(f"delete from {t} where {where}", params)

    return Deletion(what, run)


def _check_names(store: Store, tid: int, f: ScoreFilter) -> None:
    """A typo must not delete nothing silently: every name given must exist."""
    metrics = {r[0] for r in store.query("select name from metric")}
    translators = set(store.translators(tid, "system")) | set(store.translators(tid,
                                                                                "reference"))
    refsets = {r[0] for r in store.query("select name from refset where testbed_id = ?", [tid])}
    for given, known, what in ((f.metrics, metrics, "metric"),
                               (f.targets, translators, "system or reference"),
                               ((f.refset,) if f.refset else (), refsets, "reference set")):
        for name in given:
            if name not in known:
                raise NotFound(f"no {what} named {name!r}{suggest(name, known)} in test bed "
                               f"{f.testbed!r}")
