"""The SQLite mirror Datasette serves: every table, every view, and default instances of the
table macros (ULC, QUEEN, KING, meta-evaluation) materialised from the DuckDB store.

The mirror is written to a temporary file next to the store and renamed over the old mirror
in one step, so a server reading the old one never sees a half-written file.  The store is
opened read-only for as long as the copy takes, and not at all while Datasette serves.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from ulcdb import __version__
from ulcdb.errors import StoreError
from ulcdb.metrics import backoff_interpolation
from ulcdb.qarla.measures import (
    KING_MIN_REFS,
    KING_QUEEN_MIN_REFS,
    QUEEN_MIN_REFS,
    compared_systems,
)
from ulcdb.serve import mirror_sets
from ulcdb.serve.mirror_analyses import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    pairs_slice,
    refset_slice,
    testbed_slice,
    write_intervals,
)
from ulcdb.serve.mirror_copy import copy_into
from ulcdb.serve.mirror_parts import (
    MANIFEST,
    Part,
    Writer,
    apply,
    digest,
    fingerprint,
    grouped_sums,
    part,
    read_manifest,
    rows_fingerprint,
    tables_of,
    write_manifest,
)
from ulcdb.serve.mirror_sets import DERIVED_VIEWS, DOC_BUDGETED, NOT_MIRRORED
from ulcdb.serve.status import mirror_is_fresh as mirror_is_fresh
from ulcdb.serve.status import mirror_path as mirror_path
from ulcdb.store.database import Store, named_query, schema_hash

SqlParams = list[Any]  # parameters of a DuckDB query
Con = duckdb.DuckDBPyConnection
Lite = sqlite3.Connection

# Indexes that make the facets (test bed, system, reference, metric, level) and the canned
# queries fast on the full WMT test beds; a facet on a column without one scans a covering
# index or the table (under 0.3 s for the WMT21 en-de LEX store's 0.7M score rows).  Each
# index of the score and ULC tables costs 5-27 MB there: those of facets that scan fast
# without them (scores by reference set or segment, ULC by role, test bed or system, the
# segment means by system, QUEEN by test bed) are left out.
INDEXES: dict[str, list[tuple[str, ...]]] = {
    "scores": [("metric", "level", "refset", "translator", "seg_id"), ("level", "translator"),
               ("level", "refset"), ("testbed",), ("translator",)],
    "translations": [("seg_id", "translator"), ("translator",), ("testbed",), ("role",),
                     ("doc_id",)],
    "assessments": [("criterion", "level", "translator", "seg_id"), ("testbed",),
                    ("level", "seg_id")],
    "ulc": [("metric_set", "level", "refset"), ("level", "seg_id")],
    "queen": [("metric_set", "level"), ("translator",), ("role",)],
    "king": [("metric_set", "level"), ("measure",), ("testbed",)],
    "meta_corr": [("criterion", "level", "refset"), ("metric",), ("testbed",)],
    "metric_corr": [("level", "refset", "metric_a"), ("testbed",)],
    "sys_interval": [("metric", "refset"), ("translator",)],
    "scores_mean": [("metric", "level", "refset")],
}


@dataclass
class MirrorReport:
    path: Path
    tables: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    parts: int = 0  # tables, score batches, analysis macro calls, intervals and means
    rewritten: int = 0  # parts written by this build (all of them on a full build)


Job = tuple[str, str, SqlParams, dict[str, str], dict[str, str]]

# The table macro calls of the analysis tables' parts; every value is a parameter.  ULC,
# metric_corr, QUEEN and KING are computed per test bed (their rows of one test bed depend on
# its scores alone), each call inside its test bed's slice of `scores` (testbed_slice, made
# once per build for all the test bed's parts) when the store holds several.  QUEEN and KING
# compare the test bed's systems but the references' own texts ($4 and $5: as `ulcdb queen`
# and `ulcdb king` do by default, ulcdb.qarla.measures.compared_systems).
ULC_CALL = "select * from ulc($1::varchar[], $2) where testbed = $3"
# QUEEN's three levels come from one computation of its hits (level 'all'), $2 the levels kept.
QUEEN_CALL = ("select * from queen($1::varchar[], 'all', systems := $4::varchar[], "
              "testbeds := [$3]) where list_contains($2::varchar[], level)")
KING_CALL = ("select * from king($1::varchar[], $2, measures := $3::varchar[], "
             "systems := $5::varchar[], testbeds := [$4])")
META_CORR_CALL = "select * from meta_corr($1, $2, $3, $4, grouping_by := $5)"
METRIC_CORR_CALL = "select * from metric_corr($1::varchar[], $2) where testbed = $3"


def _testbeds(con: Con) -> list[str]:
    return [r[0] for r in con.execute("select name from testbed order by name").fetchall()]


def _jobs(con: Con, sets: dict[str, list[str]], testbeds: list[str],
          scored: Collection[tuple[str, str]]) -> list[Job]:
    """The analysis tables' parts: (table, macro query, parameters, constant leading columns,
    the column values that tell the part's rows in the table, its test bed among them).
    The first parameter is the metric set's members, or meta_corr's test bed: what the
    part's fingerprint reads.  metric_corr pairs the metrics of its pool the test bed has
    scores of (``scored``: (test bed, metric)), by name: a metric it has none of adds no row,
    so a test bed that brings a new metric rewrites no other test bed's part."""
    jobs: list[Job] = []
    stored = mirror_sets.stored_set_names(con)  # read once for every test bed
    own_sets = {tb: mirror_sets.testbed_sets(sets, stored, scored, tb) for tb in testbeds}
    for tb in testbeds:
        for name, members in own_sets[tb].items():
            levels = ("sys", "doc") if name == "all" else ("sys", "doc", "seg")  # seg: sets
            jobs += [("ulc", ULC_CALL, [members, lvl, tb], {"metric_set": name},
                      {"metric_set": name, "level": lvl, "testbed": tb}) for lvl in levels]
    for tb, systems, refs in con.execute(named_query("mirror_translators")).fetchall():
        if tb in testbeds:
            jobs += _qarla_jobs(con, own_sets[tb], tb, systems, refs)
    criteria = dict(con.execute(named_query("mirror_criteria")).fetchall())
    for tb in testbeds:
        crits = criteria.get(tb, [])
        refsets = [r[0] for r in con.execute(named_query("mirror_refsets"), [tb]).fetchall()]
        for crit in crits:
            for refset in refsets:
                for lvl in ("seg", "doc", "sys"):
                    for grouping in (("flat", "item") if lvl != "sys" else ("flat",)):
                        extra = {"testbed": tb, "criterion": crit, "level": lvl,
                                 "refset": refset, "grouping_by": grouping}
                        jobs.append(("meta_corr", META_CORR_CALL,
                                     [tb, lvl, crit, refset, grouping], extra, extra))
    for lvl in ("sys", "doc", "seg"):  # segment level: among the segment-level metrics
        pool = (mirror_sets.corr_metrics(sets) if lvl != "seg"
                else mirror_sets.seg_metrics(con)[:mirror_sets.MAX_CORR_METRICS])
        for tb in testbeds:
            own = sorted(m for m in pool if (tb, m) in scored)
            jobs.append(("metric_corr", METRIC_CORR_CALL, [own, lvl, tb], {},
                         {"level": lvl, "testbed": tb}))
    return jobs


def _qarla_jobs(con: Con, sets: dict[str, list[str]], testbed: str, systems: list[str],
                refs: list[str]) -> list[Job]:
    """QUEEN's and KING's parts of one test bed, over all its references (QUEEN from 3, KING
    from 2, KING's QUEEN measure from 4), comparing its systems but the references' texts."""
    compared = list(compared_systems(con, testbed, systems, refs).systems)
    measures = ["single", "ulc", "queen"][:3 if len(refs) >= KING_QUEEN_MIN_REFS else 2]
    jobs: list[Job] = []
    for name, members in sets.items():
        levels = ["sys", "doc"] if name == "all" else ["sys", "doc", "seg"]
        if len(refs) >= QUEEN_MIN_REFS:
            jobs.append(("queen", QUEEN_CALL, [members, levels, testbed, compared],
                         {"metric_set": name}, {"metric_set": name, "testbed": testbed}))
        if len(refs) >= KING_MIN_REFS:
            jobs += [("king", KING_CALL, [members, lvl, measures, testbed, compared],
                      {"metric_set": name}, {"metric_set": name, "level": lvl,
                                             "testbed": testbed}) for lvl in ("sys", "doc")]
    return jobs


# The analysis tables with their columns, for stores where they cannot be computed (fewer
# than 3 references for QUEEN, 2 for KING, no human scores for meta_corr, no test bed).
EMPTY_ANALYSES: tuple[tuple[str, str, SqlParams, dict[str, str]], ...] = (
    ("ulc", ULC_CALL + " limit 0", [["-"], "sys", ""], {"metric_set": ""}),
    ("metric_corr", METRIC_CORR_CALL + " limit 0", [["-"], "sys", ""], {}),
    ("queen", QUEEN_CALL + " limit 0", [["-"], ["sys"], "", []], {"metric_set": ""}),
    ("king", KING_CALL + " limit 0", [["-"], "sys", ["single"], "", []], {"metric_set": ""}),
    ("meta_corr", META_CORR_CALL + " limit 0", ["", "seg", "", "", "flat"],
     {"testbed": "", "criterion": "", "level": "", "refset": "", "grouping_by": ""}),
)


def remove_stale_temps(out: Path) -> list[Path]:
    """Delete temporary mirrors left by builds that were killed (their process is gone)."""
    removed = []
    for path in out.parent.glob(f".{out.name}.*.tmp"):
        pid = path.name[len(out.name) + 2:-len(".tmp")]
        if pid.isdigit() and not _running(int(pid)):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# Tables every analysis depends on, besides the scores it reads (an analysis of one test bed
# on that test bed's rows of them, mirror_testbed_sources.sql).  Not schema_info: the
# shipped schema the parts are computed with is SCHEMA (a read-only open of a store whose
# views are older runs the shipped ones), and a store migrated by a write must not count as
# changed.
DIMENSIONS = ("testbed", "translator", "refset", "refset_member", "segment", "document")
JUDGED = ("assessment", "criterion")  # what meta_corr reads besides the scores
# Changes whenever what a mirror holds or how it is written changes: older mirrors are then
# rebuilt in full.
MIRROR_FORMAT = f"5:{__version__}"
SCHEMA = schema_hash()  # the views and macros the parts are computed with


SEGMENTS = "segment"  # the table of a segment row's document (mirror_scores_kept.sql)


def _scores_fingerprints(con: Con, params: SqlParams, names: dict[str, str]
                         ) -> tuple[dict[Any, str], dict[tuple[str, str], str]]:
    """Fingerprints of the mirrored `scores` rows per batch and of all `scores` rows per
    (test bed, metric), from one pass over the rows with their names (``names``: the
    fingerprint of each test bed's rows of the segment table, folded into each)."""
    kept: dict[Any, list[int]] = {}
    every: dict[tuple[str, str], list[int]] = {}
    batch_testbeds: dict[Any, set[str]] = {}
    for testbed, metric, batch, is_kept, n, total in grouped_sums(
            con, named_query("mirror_scores_kept"), "testbed, metric, batch_id, mirror_kept",
            params, skip=("mirror_kept",)):
        for acc in [every.setdefault((testbed, metric), [0, 0])] + (
                [kept.setdefault(batch, [0, 0])] if is_kept else []):
            acc[0] += n
            acc[1] += int(total)
        batch_testbeds.setdefault(batch, set()).add(testbed)
    return ({b: digest([names.get(t) for t in sorted(batch_testbeds[b])], fingerprint(*acc))
             for b, acc in kept.items()},
            {k: digest(names.get(k[0]), fingerprint(*acc)) for k, acc in sorted(every.items())})


def _plan(con: Con, lite: Lite, report: MirrorReport, progress: Callable[[str], None],
          analyses: bool = True, tick: Callable[[int], None] = lambda n: None
          ) -> tuple[list[Part], dict[str, Writer]]:
    """The parts of the mirror with their fingerprints, and how each table writes them
    (without the analysis tables and intervals unless ``analyses``; their writer tells
    ``tick`` how many parts it wrote, a test bed at a time)."""
    parts: list[Part] = []
    writers: dict[str, Writer] = {}
    objects = [r[0] for r in con.execute(
        "select table_name from information_schema.tables where table_schema = 'main' "
        "order by table_type, table_name").fetchall()]
    fps: dict[str, str] = {}
    doc_metrics = mirror_sets.doc_metrics(con)
    whole = {name: f'select * from "{name}"' for name in objects}  # names the catalogue gave
    for name in objects:
        if name in NOT_MIRRORED or name in DERIVED_VIEWS or name in DOC_BUDGETED:
            continue
        progress(f"fingerprints: {name}")
        fps[name] = rows_fingerprint(con, whole[name])
        parts.append(part(name, {}, fps[name]))
        writers[name] = _whole(con, lite, name, whole[name], None, progress)
    sets = mirror_sets.metric_sets(con)
    wanted = {m for members in sets.values() for m in members}
    params = [[m for m in backoff_interpolation.derived_names() if m not in wanted],
              mirror_sets.seg_metrics(con), doc_metrics]
    by_testbed: dict[str, list[str]] = {}
    groups: dict[tuple[str, str], str] = {}
    own = _testbed_sources(con)
    if "scores" in objects:
        progress("fingerprints: scores")
        batches, groups = _scores_fingerprints(con, params, {
            tb: of.get(SEGMENTS, "") for tb, of in own.items()})
        parts += [part("scores", {"batch_id": b}, fp) for b, fp in batches.items()] or [
            part("scores", {}, "no scores")]
        writers["scores"] = _in_parts(con, lite, "scores", DERIVED_VIEWS["scores"], params,
                                      ("batch_id",), len(batches), progress)
        for (tb, _), fp in groups.items():
            by_testbed.setdefault(tb, []).append(fp)
        for name in DOC_BUDGETED.keys() & set(objects):
            parts += _per_metric(name, groups, doc_metrics)
            writers[name] = _in_parts(con, lite, name, whole[name] + DOC_BUDGETED[name],
                                      [doc_metrics], TESTBED_METRIC, len(groups), progress)
    if not analyses:
        return parts, writers
    jobs: dict[str, tuple[str, SqlParams, dict[str, str]]] = {}
    testbeds = _testbeds(con)
    analyses_writer = _analyses(con, lite, jobs, report, progress, tick,
                                sliced=len(testbeds) > 1)
    dims_of = {tb: digest(MIRROR_FORMAT, SCHEMA, [of.get(d) for d in DIMENSIONS])
               for tb, of in own.items()}  # what a part of one test bed is computed on
    for table, sql, job_params, extra, where in _jobs(con, sets, testbeds, groups.keys()):
        bed = where["testbed"]
        inputs: list[Any]  # the fingerprints of what the part reads
        if table == "meta_corr":
            on, inputs = dims_of[bed], [*by_testbed.get(bed, []),
                                        *(own[bed].get(s) for s in JUDGED)]
        else:
            on, inputs = dims_of[bed], [groups.get((bed, m)) for m in job_params[0]]
        p = part(table, where, digest(on, sql, job_params, extra, inputs))
        parts.append(p)
        jobs[p.key] = (sql, job_params, extra)
        writers[table] = analyses_writer
    constants = (BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED)
    parts += [part("sys_interval", {"testbed": tb, "metric": m},
                   digest(dims_of.get(tb), constants, fp))
              for (tb, m), fp in groups.items()] or [part("sys_interval", {}, "no scores")]
    writers["sys_interval"] = _intervals(con, lite, len(groups), progress)
    return parts, writers


# The columns that tell a part of the tables computed per test bed and metric from the
# scores (sys_interval, scores_mean): a part reads its test bed's scores of its metric alone,
# so adding or changing a test bed rewrites no other test bed's.
TESTBED_METRIC = ("testbed", "metric")


def _intervals(con: Con, lite: Lite, n: int, progress: Callable[[str], None]) -> Writer:
    """Writes the intervals of the parts asked for (all of them at once: one resampling per
    series length), the whole table when every part is asked."""
    def write(parts: list[Part]) -> set[str]:
        progress(f"sys_interval ({len(parts)} of {n} parts)")
        wheres = [dict(p.where) for p in parts]
        whole = len(parts) >= n or any(w.keys() != set(TESTBED_METRIC) for w in wheres)
        return write_intervals(con, lite, None if whole else [
            (w["testbed"], w["metric"]) for w in wheres])
    return write


def _testbed_sources(con: Con) -> dict[str, dict[str, str]]:
    """Per test bed, the fingerprints of its rows of the tables its analysis parts read
    besides the scores (DIMENSIONS and JUDGED): a part of one test bed is fingerprinted by
    its own test bed's, so adding or changing a test bed rewrites no other's parts."""
    own: dict[str, dict[str, str]] = {}
    for testbed, source, n, total in con.execute(
            named_query("mirror_testbed_sources")).fetchall():
        own.setdefault(testbed, {})[source] = fingerprint(n, total)
    return own


def _per_metric(view: str, groups: dict[tuple[str, str], str], doc_metrics: list[str]
                ) -> list[Part]:
    """The parts of a view of `scores` computed per test bed and metric (scores_mean),
    fingerprinted by what they are computed from: the test bed's scores of the metric,
    whether the metric's document rows are kept, and the shipped SQL (not by hashing the
    view's rows: that read `scores` a second time)."""
    return [part(view, {"testbed": tb, "metric": m},
                 digest(MIRROR_FORMAT, SCHEMA, view, m in doc_metrics, fp))
            for (tb, m), fp in groups.items()] or [part(view, {}, "no scores")]


def _whole(con: Con, lite: Lite, table: str, sql: str, params: SqlParams | None,
           progress: Callable[[str], None]) -> Writer:
    def write(_parts: list[Part]) -> set[str]:
        progress(table)
        copy_into(con, lite, table, sql, params)
        return set()
    return write


def _in_parts(con: Con, lite: Lite, table: str, sql: str, params: SqlParams,
              columns: tuple[str, ...], n: int, progress: Callable[[str], None]) -> Writer:
    """Writes the rows of the parts asked for (values of ``columns``: one column, or
    TESTBED_METRIC), all of them at once: the whole query when every part is asked, else
    its rows whose column holds the value of a part asked, or the query on the rows of
    ``scores`` of the (test bed, metric) pairs asked (``pairs_slice``: a view of ``scores``,
    scores_mean, is then computed on those only, not on every row and then picked)."""
    def write(parts: list[Part]) -> set[str]:
        progress(f"{table} ({len(parts)} of {n} parts)")
        values: list[list[Any]] = [[dict(p.where).get(c) for c in columns] for p in parts]
        if len(parts) >= n or any(None in v for v in values):
            copy_into(con, lite, table, sql, params)
        elif columns == TESTBED_METRIC:
            with pairs_slice(con, [(tb, m) for tb, m in values]):
                copy_into(con, lite, table, sql, params)
        else:
            k = len(params) + 1
            picked = f"select * from ({sql}) s where list_contains(${k}, s.{columns[0]})"
            copy_into(con, lite, table, picked, [*params, [v[0] for v in values]])
        return set()
    return write


def _analyses(con: Con, lite: Lite,
              jobs: dict[str, tuple[str, SqlParams, dict[str, str]]], report: MirrorReport,
              progress: Callable[[str], None], tick: Callable[[int], None],
              sliced: bool) -> Writer:
    """Writes the analysis tables' parts (all of them at once, the writer they share), each
    with its own macro call; a call that cannot run on this store is reported, left out of
    the manifest (so retried next time) and the build goes on.  The work goes a test bed at
    a time, then table by table: the parts of one test bed run against its rows alone,
    sliced once for all its tables (``testbed_slice``; not at all unless ``sliced``: a store
    of one test bed, whose views hold its rows alone), and those of one reference set too
    (meta_corr's, ``refset_slice``)."""
    def write(parts: list[Part]) -> set[str]:
        failed: set[str] = set()
        by_testbed: dict[str | None, dict[str | None, list[Part]]] = {}
        for p in parts:
            where = dict(p.where)
            by_testbed.setdefault(where.get("testbed"), {}).setdefault(
                where.get("refset"), []).append(p)
        for testbed, by_refset in by_testbed.items():
            with testbed_slice(con, testbed if sliced else None):
                for refset, group in by_refset.items():
                    with refset_slice(con, testbed, refset):
                        failed |= _run_jobs(con, lite, group, jobs, report, progress)
            tick(sum(map(len, by_refset.values())))
        return failed
    return write


def _run_jobs(con: Con, lite: Lite, group: list[Part],
              jobs: dict[str, tuple[str, SqlParams, dict[str, str]]], report: MirrorReport,
              progress: Callable[[str], None]) -> set[str]:
    """One macro call per part; the keys of those that failed (reported, the build goes on)."""
    failed = set()
    for p in group:
        sql, params, extra = jobs[p.key]
        progress(f"{p.table} {extra.get('metric_set') or extra.get('criterion') or ''}")
        try:
            copy_into(con, lite, p.table, sql, params, extra)
        except duckdb.Error as exc:
            report.skipped[f"{p.table} {extra}"] = str(exc).splitlines()[0]
            failed.add(p.key)
    return failed


def build_mirror(store_path: Path, out: Path | None = None,
                 progress: Callable[[str], None] = lambda _: None,
                 full: bool = False, analyses: bool = True,
                 on_parts: Callable[[int, int], None] = lambda done, total: None
                 ) -> MirrorReport:
    """Write the SQLite mirror of the store at ``store_path``; returns what it holds.  When
    a mirror built by this version is there (and not ``full``), only the parts whose sources
    changed are rewritten; ``on_parts`` hears how many of the parts are done.  Without
    ``analyses`` it holds the tables and views only (the
    first stage `ulcdb serve` shows while the rest is prepared): not fresh, and the next
    build adds the analyses to it."""
    start = time.perf_counter()
    out = out or mirror_path(store_path)
    report = MirrorReport(out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    remove_stale_temps(out)
    old = None if full else _old_manifest(out)
    store = Store(store_path, read_only=True)
    try:
        if old is not None:
            progress("copying the last mirror")
            shutil.copyfile(out, tmp)
        con = store.con
        con.execute("set enable_progress_bar = false")  # serve shows its own
        lite = sqlite3.connect(tmp)
        try:
            lite.execute("pragma journal_mode = off")
            lite.execute("pragma synchronous = off")
            tally = _Tally(on_parts)
            parts, writers = _plan(con, lite, report, progress, analyses, tally.add)
            writers = _counted(writers, parts, old or {}, tally)
            manifest, changed, report.rewritten = apply(lite, parts, writers, old or {})
            present = tables_of(lite)
            for table, sql, params, extra in EMPTY_ANALYSES:  # keep the canned queries runnable
                if analyses and table not in present:
                    copy_into(con, lite, table, sql, params, extra)
            progress("indexes")
            _finish(lite, store_path, report, manifest, analyses)
            report.parts = len(parts)
            lite.commit()
            lite.execute(f"pragma analysis_limit = {ANALYSIS_LIMIT}")
            for name in ["analyze"] if old is None else [
                    f'analyze "{t}"' for t in sorted(changed & tables_of(lite))]:
                lite.execute(name)
            lite.commit()
        finally:
            lite.close()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        store.close()
    try:
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"cannot write the mirror {out}: {exc}") from exc
    report.seconds = time.perf_counter() - start
    return report


@dataclass
class _Tally:
    """How many of the build's parts are done, told to ``on_parts`` at each change."""

    on_parts: Callable[[int, int], None]
    done: int = 0
    total: int = 0

    def add(self, n: int) -> None:
        self.done = min(self.done + n, self.total)
        self.on_parts(self.done, self.total)


def _counted(writers: dict[str, Writer], parts: list[Part], old: dict[str, str],
             tally: _Tally) -> dict[str, Writer]:
    """The writers, each telling ``tally`` the parts done when it returns (those unchanged
    from the last mirror count as done; a writer may tell it more often)."""
    tally.total = len(parts)
    tally.add(sum(old.get(p.key) == p.fingerprint for p in parts))

    def counting(write: Writer) -> Writer:
        def run(ps: list[Part]) -> set[str]:
            start = tally.done
            failed = write(ps)
            tally.add(start + len(ps) - tally.done)  # what the writer told it not counted twice
            return failed
        return run
    counted = {id(write): counting(write) for write in writers.values()}  # shared stay shared
    return {table: counted[id(write)] for table, write in writers.items()}


def has_manifest(out: Path) -> bool:
    """True when the mirror at ``out`` holds parts this version can build on."""
    return _old_manifest(out) is not None


def _old_manifest(out: Path) -> dict[str, str] | None:
    """The manifest of the mirror at ``out`` when this version built it."""
    if not out.exists():
        return None
    try:
        lite = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        manifest = read_manifest(lite)
    finally:
        lite.close()
    if not manifest or manifest.pop(FORMAT_KEY, None) != MIRROR_FORMAT:
        return None
    return manifest


FORMAT_KEY = "format"
# Index rows SQLite's ANALYZE reads per index: its statistics from a sample, not every row
# of the score tables (the query planner needs their shape only).
ANALYSIS_LIMIT = 2000


def _finish(lite: sqlite3.Connection, store_path: Path, report: MirrorReport,
            manifest: dict[str, str], complete: bool) -> None:
    """Indexes, row counts, the manifest and what the mirror was built from (with the
    store's time only when ``complete``: a first stage is never fresh)."""
    present = tables_of(lite)
    for table, indexes in INDEXES.items():
        if table not in present:
            continue
        for cols in indexes:
            idx = f"idx_{table}_{'_'.join(cols)}"
            lite.execute(f'create index if not exists "{idx}" on "{table}" '
                         f'({", ".join(chr(34) + c + chr(34) for c in cols)})')
    for table in sorted(t for t in present - {"ulcdb_mirror", MANIFEST}
                        if not t.startswith("sqlite_")):
        report.tables[table] = lite.execute(f'select count(*) from "{table}"').fetchall()[0][0]
    write_manifest(lite, {**manifest, FORMAT_KEY: MIRROR_FORMAT})
    lite.execute("drop table if exists ulcdb_mirror")
    lite.execute("create table ulcdb_mirror (key text primary key, value text)")
    lite.executemany("insert into ulcdb_mirror values (?, ?)", [
        ("store", str(store_path.resolve())),
        ("built_at", time.strftime("%Y-%m-%d %H:%M:%S")),
        ("skipped", json.dumps(report.skipped)),
    ] + [("store_mtime", str(store_path.stat().st_mtime))] * complete)
