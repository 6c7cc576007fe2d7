"""Store a ScoreFrame: every row checked against the test bed, then one insert per level.

Checks, each reported as one line naming the file and line of the first offending row:
NaN or infinite values, unknown test beds, targets, references, documents and segments,
a segment in another document than the file says, duplicate scores, values outside the
catalogue range of their metric.  Then coverage: the segment (document) scores of a metric,
target and reference set must cover every segment (document) of the test bed; the error
names the file and the first unit without a score.  A row whose value is null is a score
the file marks missing (``None``): it covers its unit but is not stored; an import whose
every score is missing is refused (the whole import: a part of it may hold only ``None``,
as a metric's file all ``None`` in a release where others have scores).  Scores already
stored for the same metric, target, reference set, variant and level with exactly the file's
values are left as they are ("already there"); with other values they are a Conflict unless
``replace``; then they are replaced (all units of that level, not only the ones the file
has).

A metric the catalogue lacks is added: a built-in name gets its built-in entry, any other
name an ``imported`` entry from the facts the file and the command line give.  Each source
file gets one ``score_batch`` row (``origin`` = the file) that its scores point to.

All of it runs in the caller's transaction (``store_frame``) or in one of its own
(``load_scores``): on any error nothing is written.  The checks run in DuckDB, so millions
of rows take seconds.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ulcdb import __version__
from ulcdb.errors import Conflict, InputError
from ulcdb.ingest.units import unit_problem
from ulcdb.interchange.model import LEVELS, Advance, MetricInfo, ScoreFrame, SqlFrame
from ulcdb.metrics import registry
from ulcdb.metrics.base import Family, MetricSpec
from ulcdb.scoring.rows import hand_over_stats
from ulcdb.scoring.scorer import ensure_refset, sync_catalogue
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import check_name, lookalike

DEFAULT_VARIANT = "case:mixed"
IMPORTED_LEVEL = "other"  # linguistic level of imported metrics: unknown to ulcdb
TABLES = {"seg": "seg_score", "doc": "doc_score", "sys": "sys_score"}
# the loader's steps, as a progress display names them (one step each)
STAGES = ("checking rows", "resolving names", "checking units", "checking duplicates",
          "checking coverage", "comparing with the store", "storing")


@dataclass
class ScoreImportReport:
    files: int = 0
    stored: dict[str, int] = field(default_factory=dict)  # level -> rows
    replaced: int = 0
    unchanged: int = 0  # scores already stored with the same values: left as they are
    metrics_added: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        levels = ", ".join(f"{lvl} {n}" for lvl, n in self.stored.items() if n) or "none"
        text = f"{self.files} file(s): stored scores {levels}"
        if self.unchanged:
            text += f"; {self.unchanged} already there"
        if self.replaced:
            text += f"; replaced {self.replaced} earlier scores"
        if self.metrics_added:
            text += f"; new metrics: {', '.join(self.metrics_added)}"
        for note in self.notes:
            text += f"; {note}"
        return text


def load_scores(store: Store, frame: ScoreFrame, variant: str = DEFAULT_VARIANT,
                replace: bool = False, flags: MetricInfo | None = None) -> ScoreImportReport:
    """Check and store ``frame`` in one transaction.  ``flags``: catalogue facts from the
    command line (its name is ignored); they override what the files say."""
    with store.transaction():
        return store_frame(store, frame, variant, replace, flags)


def store_frame(store: Store, frame: ScoreFrame | SqlFrame, variant: str = DEFAULT_VARIANT,
                replace: bool = False, flags: MetricInfo | None = None,
                advance: Advance | None = None) -> ScoreImportReport:
    """``load_scores`` inside a transaction the caller holds; ``advance`` is told each of
    the ``STAGES`` as it ends.  A ``SqlFrame``'s rows are the store's view ``_imp`` already;
    with ``parts``, each part in turn (``advance`` told the stages of the last).  Some score
    must have a value in the whole import, not in each part (a part may hold only ``None``):
    checked before the first part where the reader counted them (``SqlFrame.scored``), and
    after the last."""
    if not isinstance(frame, SqlFrame) or not frame.parts:
        return _load(store, frame, variant, replace, flags, advance)[0]
    if frame.scored is not None:
        _check_scored(frame, *frame.scored)
    total = ScoreImportReport(files=len(frame.sources))
    rows = valued = 0
    for number, make_part in enumerate(frame.parts, 1):
        make_part()
        last = number == len(frame.parts)
        report, (n_rows, n_valued) = _load(store, frame, variant, replace, flags,
                                           advance if last else None, part=True)
        rows, valued = rows + n_rows, valued + n_valued
        for level, n in report.stored.items():
            total.stored[level] = total.stored.get(level, 0) + n
        total.replaced += report.replaced
        total.unchanged += report.unchanged
        total.metrics_added += report.metrics_added
    _check_scored(frame, rows, valued)
    return total


def _load(store: Store, frame: ScoreFrame | SqlFrame, variant: str, replace: bool,
          flags: MetricInfo | None, advance: Advance | None, part: bool = False
          ) -> tuple[ScoreImportReport, tuple[int, int]]:
    """The report of ``frame`` (or of one ``part`` of it, which may hold no valued score)
    loaded, and its rows and rows with a value."""
    loader = _Loader(store, frame, variant, replace, flags, advance, part)
    try:
        return loader.run(), loader.scored
    finally:
        loader.close()


def _check_scored(frame: ScoreFrame | SqlFrame, rows: int, valued: int) -> None:
    """An import of no rows, or whose every score is marked missing, refused: the error
    names its first file."""
    if rows == 0 or valued == 0:
        where = frame.sources[0].path if frame.sources else "input"
        raise InputError(where, None, "no scores found" if rows == 0
                         else "no scores found: every score is marked missing")


def is_builtin_name(name: str) -> bool:
    """Whether ``name`` may be a built-in metric, without importing the metric families."""
    return any(name in members for members in registry.BUILTIN_SETS.values())


def builtin_entry(name: str) -> tuple[Family, MetricSpec] | None:
    """(family, spec) of a built-in metric; families are imported (slowly) only when needed."""
    if not is_builtin_name(name):
        return None
    return registry.metric_index().get(name)


def _refuse_lookalike(origin: str, name: str, stored: Collection[str],
                      sets: Collection[str]) -> None:
    """A new metric named like a stored or built-in one but for case or Unicode
    normalisation ('bleu' beside BLEU) is refused: it became a metric of its own, which
    ``-m BLEU`` never shows and no table tells apart.  So is one named like a metric set
    (``sets``): ``-m GTM`` would choose the metric, no longer the set's members."""
    builtin = {m for members in registry.BUILTIN_SETS.values() for m in members}
    other = lookalike(name, [*stored, *sorted(builtin)])
    if other is not None:
        whose = "a metric ulcdb computes" if other in builtin else "a stored metric"
        raise InputError(origin, None, f"the metric name {name!r} differs from {other!r} "
                         f"({whose}) only by case or Unicode normalisation: name it {other!r} "
                         f"(--rename {name}={other} or --metric) or otherwise")
    clash = name if name in sets else lookalike(name, sets)
    if clash is not None:
        how = (f"is the name of a metric set: -m {name} would choose this metric, no longer "
               "the set's members" if clash == name else
               f"differs from the metric set {clash!r} only by case or Unicode normalisation: "
               f"-m {name} and -m {clash} would differ by that alone")
        raise InputError(origin, None, f"the metric name {name!r} {how}; name it otherwise "
                         f"(--rename {name}=NEW or --metric)")


class _Loader:
    def __init__(self, store: Store, frame: ScoreFrame | SqlFrame, variant: str, replace: bool,
                 flags: MetricInfo | None, advance: Advance | None = None,
                 part: bool = False) -> None:
        self.store = store
        self.part = part  # one part of an import: store_frame checks the whole has scores
        self.scored = (0, 0)  # rows, rows with a value
        self.advance = advance
        self.con = store.con
        self.frame = frame
        self.variant = variant
        self.replace = replace
        self.flags = flags
        self.report = ScoreImportReport(files=len(frame.sources))
        self.names: dict[str, list[str | None]] = {}  # metric, testbed, target -> names

    # -- driver -------------------------------------------------------------------------------
    def run(self) -> ScoreImportReport:
        if isinstance(self.frame, ScoreFrame):
            rows = self.frame.table
            rid = pa.array(np.arange(rows.num_rows, dtype=np.int64))
            self.store.register("_imp", rows.append_column("rid", rid))  # scanned in place
        self._check_names()
        for stage, steps in zip(STAGES, (
                (self._check_rows,),
                (self._resolve_refsets, self._catalogue, self._resolve),
                (self._check_resolved,),
                (self._check_duplicates, self._check_ranges),
                (self._check_coverage,),
                (self._clear_existing,),
                # and the provenance of the scores --replace replaced
                (self._insert, self._drop_replaced_batches)), strict=True):
            for step in steps:
                step()
            if self.advance is not None:
                self.advance(stage, 1)
        return self.report

    def close(self) -> None:
        """Drop the work tables (after an error the rollback drops them)."""
        try:
            self.con.execute("select 1").fetchall()
            if isinstance(self.frame, ScoreFrame):
                self.con.unregister("_imp")
            for name in ("_imp_refset", "_imp_res", "_imp_batch", "_imp_keys",
                         "_imp_keyset"):
                self.con.execute(f"drop table if exists {name}")
        except duckdb.Error:
            pass

    # -- helpers ------------------------------------------------------------------------------
    def _first(self, table: str, where: str, cols: str = "1",
               params: Sequence[Any] | None = None) -> tuple[Any, ...] | None:
        """First offending row (file order, then line) of ``table``; ``where`` and ``cols``
        are constants of this module, values come as ``params``."""
        rows = self.con.execute(
            f"select file_no, line, {cols} from {table} where {where} "
            "order by file_no, line nulls first, rid limit 1", params or []).fetchall()
        return rows[0] if rows else None

    def _fail(self, row: tuple[Any, ...] | None, message: str) -> InputError:
        """The error for a row a check found (its file and line)."""
        assert row is not None  # the check that failed found it
        return InputError(self.frame.sources[row[0]].path, self._line(row[0], row[1]), message)

    def _line(self, file_no: int, line: int | None) -> int | None:
        """The line a row's ``line`` stands for in file ``file_no``: itself, or for a
        ``SqlFrame`` with ``line_of``, what that says."""
        line_of = self.frame.line_of if isinstance(self.frame, SqlFrame) else None
        return line if line is None or line_of is None else line_of(file_no, line)

    def _check_names(self) -> None:
        """Some rows with a value (unless a part); metric, test bed and target names the
        store can hold."""
        if isinstance(self.frame, ScoreFrame):  # names in the order the rows have them
            table = self.frame.table
            rows, valued = table.num_rows, table.num_rows - table["value"].null_count
            names = [pc.unique(table[c]).to_pylist() for c in ("metric", "testbed", "target")]
        else:
            rows, valued, *names = self.store.query(named_query("import_frame_facts"))[0]
        self.scored = (int(rows), int(valued))
        if not self.part:
            _check_scored(self.frame, *self.scored)
        where = self.frame.sources[0].path if self.frame.sources else "input"
        self.names = dict(zip(("metric", "testbed", "target"), names, strict=True))
        for what, column in (("metric", "metric"), ("test bed", "testbed"), ("target", "target")):
            for name in self.names[column]:
                check_name(what, name or "", where)

    # -- checks on the rows as read -----------------------------------------------------------
    def _check_rows(self) -> None:
        """One scan: the first row with a bad level, value, name or reference set (when a
        quick look finds one may be there)."""
        if not self._may_have_row_problem():
            return
        rows = self.store.query(named_query("import_row_problem"))
        if not rows:
            return
        row = rows[0]
        problem, level, target = row[2:]
        raise self._fail(row, {
            "level": f"level must be seg, doc or sys, not {level!r}",
            "value": "score is NaN or infinite",
            "metric": "no metric name",
            "target": "no target named",
            "testbed": "no test bed named",
            "refs": f"no reference set given for target {target!r}",
            "self": f"{target!r} is scored against a reference set holding itself",
        }[problem])

    def _may_have_row_problem(self) -> bool:
        """Whether ``import_row_problem`` may find a row: names checked on their distinct
        values (trimming each row's names costs most of that scan), the rest in one pass."""
        for column in ("metric", "target"):
            if any(name is None or not name.strip() for name in self.names[column]):
                return True
        return bool(self.store.scalar(named_query("import_may_have_problem"),
                                      list(LEVELS)))

    def _resolve_refsets(self) -> None:
        """Test beds and reference sets (created when missing) of the rows: ``_imp_refset``
        maps (test bed name, refs) to their ids."""
        keys = self.store.query("select distinct testbed, refs from _imp order by all")
        cols: dict[str, list[object]] = {k: [] for k in ("testbed", "refs", "testbed_id",
                                                         "refset_id")}
        tids, names, stored = self._stored_names(sorted({k[0] for k in keys}))
        for testbed, refs in keys:
            tid = tids.get(testbed)
            if tid is None:
                known = [r[0] for r in self.store.query("select name from testbed order by 1")]
                row = self._first("_imp", "testbed = ?", params=[testbed])
                raise self._fail(row, f"unknown test bed {testbed!r} (store has: "
                                 f"{', '.join(known) or 'none'})")
            ids = names[tid]
            unknown = [r for r in refs if r not in ids]
            if unknown:
                row = self._first("_imp", "testbed = ? and list_contains(refs, ?)",
                                  params=[testbed, unknown[0]])
                raise self._fail(row, f"unknown reference {unknown[0]!r} in the reference set "
                                 f"{'+'.join(refs)!r} (test bed {testbed!r})")
            if len(set(refs)) != len(refs):
                row = self._first("_imp", "testbed = ? and refs = ?", params=[testbed, refs])
                raise self._fail(row, f"reference set {'+'.join(refs)!r} repeats a member")
            cols["testbed"].append(testbed)
            cols["refs"].append(list(refs))
            cols["testbed_id"].append(tid)
            rid = stored.get((tid, "+".join(refs)))
            cols["refset_id"].append(rid if rid is not None
                                     else ensure_refset(self.store, tid, tuple(refs), ids))
        table = pa.table({"testbed": pa.array(cols["testbed"], pa.string()),
                          "refs": pa.array(cols["refs"], pa.list_(pa.string())),
                          "testbed_id": pa.array(cols["testbed_id"], pa.int32()),
                          "refset_id": pa.array(cols["refset_id"], pa.int32())})
        with self.store.registered("_ulcdb_refsets", table):
            self.con.execute("create or replace temp table _imp_refset as "
                             "select * from _ulcdb_refsets")

    def _stored_names(self, testbeds: list[str]) -> tuple[
            dict[str, int], dict[int, dict[str, int]], dict[tuple[int, str], int]]:
        """Of the test beds named ``testbeds`` the store has: their ids, their translators
        (name -> id) and their reference sets ((test bed id, name) -> id), in two queries."""
        tids: dict[str, int] = {}
        names: dict[int, dict[str, int]] = {}
        for testbed, tid, name, translator_id in self.store.query(
                named_query("import_testbed_translators"), {"names": testbeds}):
            tids[testbed] = int(tid)
            if name is not None:
                names.setdefault(int(tid), {})[name] = int(translator_id)
            names.setdefault(int(tid), {})
        stored = {(int(t), name): int(r) for t, name, r in self.store.query(
            named_query("import_testbed_refsets"), {"names": testbeds})}
        return tids, names, stored

    # -- catalogue ----------------------------------------------------------------------------
    def _catalogue(self) -> None:
        first_file = dict(self.store.query(named_query("import_metric_first_file")))
        known = {r[0]: r[1:] for r in self.store.query(
            "select name, higher_is_better, range_min, range_max from metric")}
        sets: list[str] | None = None  # metric set names, read for a new metric
        for name, file_no in first_file.items():
            info = self._info(name)
            builtin = None if name in known else builtin_entry(name)
            if name in known:
                self._check_entry(name, info, known[name])
            elif builtin is not None:
                family, spec = builtin
                self._check_entry(name, info, (spec.higher_is_better, spec.range_min,
                                               spec.range_max))
                sync_catalogue(self.store, family.specs())
            else:
                origin = self.frame.sources[file_no].path
                if sets is None:
                    sets = [*registry.BUILTIN_SETS, *(r[0] for r in self.store.query(
                        named_query("metric_set_names")))]
                _refuse_lookalike(origin, name, known, sets)
                self._add_imported(info, origin)

    def _info(self, name: str) -> MetricInfo:
        info = self.frame.metrics.get(name, MetricInfo(name))
        if self.flags is None:
            return info
        given = {k: getattr(self.flags, k) for k in ("higher_is_better", "range_min",
                                                      "range_max", "description",
                                                      "reference_implementation")
                 if getattr(self.flags, k) is not None}
        return replace(info, **given)

    def _check_entry(self, name: str, info: MetricInfo,
                     entry: tuple[bool, float | None, float | None]) -> None:
        """``info`` must agree with the catalogue's (higher is better, range min, max)."""
        higher, lo, hi = entry
        if info.higher_is_better is not None and info.higher_is_better != higher:
            raise Conflict(
                f"metric {name!r} is in the catalogue as "
                f"{'higher' if higher else 'lower'} is better, the import says the opposite; "
                "store the scores under another name (--metric / --rename)")
        for what, given, have in (("minimum", info.range_min, lo), ("maximum", info.range_max,
                                                                   hi)):
            if given is not None and have is not None and given != have:
                raise Conflict(
                    f"metric {name!r} has range {what} {have} in the catalogue, the import "
                    f"says {given}; store the scores under another name (--metric / --rename)")

    def _add_imported(self, info: MetricInfo, origin: str) -> None:
        description = info.description or f"imported from {origin}"
        self.con.execute(
            "insert into metric (name, family, linguistic_level, higher_is_better, range_min, "
            "range_max, description, reference_implementation, origin) "
            "values (?, ?, ?, ?, ?, ?, ?, ?, 'imported')",
            [info.name, info.name, IMPORTED_LEVEL,
             True if info.higher_is_better is None else info.higher_is_better,
             info.range_min, info.range_max, description, info.reference_implementation])
        self.report.metrics_added.append(info.name)

    # -- resolution ---------------------------------------------------------------------------
    def _resolve(self) -> None:
        """One pass: ids of metric, target and reference set, and the unit each score
        belongs to (``_imp_res``); a frame that resolves its rows itself does."""
        if isinstance(self.frame, SqlFrame) and self.frame.resolve is not None:
            self.frame.resolve()
        else:
            self.con.execute(named_query("import_resolved"))

    def _original(self, rid: int) -> dict[str, Any]:
        names = ("testbed", "target", "level", "doc_id", "seg", "in_doc")
        row = self.store.query(f"select {', '.join(names)} from _imp where rid = ?", [rid])[0]
        return dict(zip(names, row, strict=True))

    def _check_resolved(self) -> None:
        row = self._first("_imp_res", "translator_id is null or not unit_ok",
                          "rid, translator_id")
        if row is None:
            return
        if row[2] is None:  # a frame without row ids (its caller reads the lines to say more)
            raise self._fail(row, "unknown system, reference, segment or document")
        got = self._original(row[2])
        if row[3] is None:
            raise self._fail(row, f"unknown system or reference {got['target']!r} in test bed "
                             f"{got['testbed']!r}")
        raise self._fail(row, unit_problem(self.store, self.store.testbed_id(got["testbed"]),
                                           got["level"], got["doc_id"], got["seg"],
                                           got["in_doc"]))

    def _check_duplicates(self) -> None:
        # a segment score's unit is its seg_id, any other's its level and doc_id (the other
        # is null)
        dup = self.store.scalar(named_query("import_duplicate_count"), ["seg"])
        if not dup:
            return
        row = self.store.query(named_query("import_duplicate"))[0]
        first, line = self.frame.sources[row[2]].path, self._line(row[2], row[3])
        where = f"line {line}" if row[2] == row[0] else f"{first}:{line}"
        raise self._fail(row, f"duplicate score (first at {where})")

    def _check_ranges(self) -> None:
        rows = self.store.query(named_query("import_out_of_range"))
        if not rows:
            return
        row = rows[0]
        span = (f"[{'-inf' if row[4] is None else row[4]}, "
                f"{'inf' if row[5] is None else row[5]}]")
        if row[2] in self.report.metrics_added:
            raise self._fail(row, f"score {row[3]} is outside the range {span} given for the "
                             f"new metric {row[2]!r} (--range-min / --range-max)")
        raise self._fail(row, f"score {row[3]} is outside the range {span} of metric "
                         f"{row[2]!r} in the catalogue (name the metric otherwise with "
                         "--metric / --rename)")

    def _check_coverage(self) -> None:
        """The first (metric, target, reference set) whose segment or document scores leave
        a unit of the test bed out: its file and the first unit missing."""
        rows = self.store.query(named_query("import_coverage"))
        if rows:
            raise self._coverage_error(rows[0])

    def _coverage_error(self, row: tuple[Any, ...]) -> InputError:
        file_no, _, metric_id, translator_id, refset_id, level, n, total, tid = row
        metric, target, refset = self.store.query(
            "select m.name, t.name, r.name from metric m, translator t, refset r "
            "where m.metric_id = ? and t.translator_id = ? and r.refset_id = ?",
            [metric_id, translator_id, refset_id])[0]
        seg, doc, k = self.store.query(named_query("import_first_uncovered"), {
            "tid": tid, "level": level, "metric_id": metric_id,
            "translator_id": translator_id, "refset_id": refset_id})[0]
        unit, units = ((f"segment {seg} (segment {k} of document {doc!r})", "segments")
                       if level == "seg" else (f"document {doc!r}", "documents"))
        return InputError(self.frame.sources[file_no].path, None,
                          f"{metric} scores of {target!r} against {refset} lack {unit}: "
                          f"only {n} of the test bed's {total} {units} have one")

    # -- writing ------------------------------------------------------------------------------
    def _clear_existing(self) -> None:
        """Keys already stored with exactly the file's values are left out ("already
        there"); keys stored with other values are a Conflict, or replaced with --replace."""
        self.con.execute("create or replace temp table _imp_keyset as select distinct "
                         "metric_id, translator_id, refset_id, level from _imp_res")
        for level, table in TABLES.items():
            if not self._stored_any(table, level):
                continue  # nothing of this import stored yet (a fresh import): no comparison
            self.con.execute(named_query("import_stored_keys"),
                             {"level": level, "variant": self.variant})
            if not self.store.scalar("select count(*) from _imp_keys"):
                continue
            differ = self.store.scalar("select count(*) from _imp_keys where differs")
            if differ and not self.replace:
                raise self._conflict(level)
            same = ("exists (select 1 from _imp_keys k where not k.differs and "
                    "k.metric_id = r.metric_id and k.translator_id = r.translator_id and "
                    "k.refset_id = r.refset_id)")
            self.report.unchanged += int(self.store.scalar(
                f"select count(value) from _imp_res r where level = ? and {same}", [level]))
            self.con.execute(f"delete from _imp_res r where level = ? and {same}", [level])
            replaced = ("s.variant = ? and exists (select 1 from _imp_keys k where k.differs "
                        "and k.metric_id = s.metric_id and k.translator_id = s.translator_id "
                        "and k.refset_id = s.refset_id)")
            match = f"from {table} s where {replaced}"
            self.report.replaced += int(self.store.scalar(f"select count(*) {match}",
                                                          [self.variant]))
            if table == "seg_score":  # a computed key kept may read a carrier replaced
                hand_over_stats(self.store, replaced, [self.variant])
            self.con.execute(f"delete {match}", [self.variant])

    def _stored_any(self, table: str, level: str) -> bool:
        """Whether ``table`` holds a score under a key (metric, target, reference set,
        variant) of this import at ``level``: a join of the import's few distinct keys."""
        return bool(self.store.scalar(
            f"select exists (select 1 from {table} s join _imp_keyset k using (metric_id, "
            "translator_id, refset_id) where k.level = ? and s.variant = ?)",
            [level, self.variant]))

    def _conflict(self, level: str) -> Conflict:
        """The Conflict naming the file and line of the first score that differs from the
        stored one (the key's first row where the stored scores cover other units)."""
        n = self.store.scalar("select count(*) from _imp_keys where differs")
        metric, target, refset, file_no, line, stored, value = self.store.query(
            named_query("import_conflict_example"), {"level": level, "variant": self.variant})[0]
        path, line = self.frame.sources[file_no].path, self._line(file_no, line)
        where = f"{path}:{line}" if line is not None else path
        what = (f"stored {stored!r}, here {value!r}" if stored is not None
                else "the stored scores cover other units")
        return Conflict(
            f"{where}: {level}-level scores of {n} metric/target/reference-set keys of this "
            f"import are already stored with other values (e.g. {metric} of {target} against "
            f"{refset}, variant {self.variant}: {what}); use --replace to replace them")

    def _drop_replaced_batches(self) -> None:
        """The provenance rows no score points to any more, when this import replaced
        scores (only a replacement leaves one: issue 30, the scan of every stored score
        after each part of a fresh import grew with the store)."""
        if self.report.replaced:
            self.store.drop_orphan_batches()

    def _insert(self) -> None:
        batches: dict[str, list[int]] = {"file_no": [], "batch_id": []}
        per_file: dict[int, list[str]] = {}
        for number, name in self.store.query(named_query("import_file_metrics")):
            per_file.setdefault(number, []).append(name)
        for number, source in enumerate(self.frame.sources):
            if number not in per_file:
                continue
            metrics = per_file[number]
            family = metrics[0] if len(metrics) == 1 else source.fmt
            signature = source.signature or f"imported|format:{source.fmt}"
            params = json.dumps({"format": source.fmt, "variant": self.variant,
                                 "metrics": metrics})
            bid = self.store.scalar(
                "insert into score_batch (family, signature, parameters, "
                "implementation_version, ulcdb_version, origin) values (?, ?, ?, ?, ?, ?) "
                "returning batch_id",
                [family, signature, params, source.version, __version__, source.path])
            batches["file_no"].append(number)
            batches["batch_id"].append(int(bid))
        batch_table = pa.table({"file_no": pa.array(batches["file_no"], pa.int32()),
                                "batch_id": pa.array(batches["batch_id"], pa.int32())})
        with self.store.registered("_ulcdb_batches", batch_table):
            self.con.execute("create or replace temp table _imp_batch as "
                             "select * from _ulcdb_batches")
        for level, table in TABLES.items():
            unit = {"seg": "seg_id, ", "doc": "doc_id, ", "sys": ""}[level]
            key = {"seg": ", r.seg_id", "doc": ", r.doc_id", "sys": ""}[level]
            self.con.execute(
                f"insert into {table} (metric_id, translator_id, refset_id, variant, {unit}"
                "value, batch_id) "
                f"select r.metric_id, r.translator_id, r.refset_id, ?, {unit}r.value, "
                "b.batch_id from _imp_res r join _imp_batch b using (file_no) "
                # key order: the primary-key index builds about twice as fast
                "where r.level = ? and r.value is not null "
                f"order by r.metric_id, r.translator_id, r.refset_id{key}",
                [self.variant, level])
            self.report.stored[level] = int(self.store.scalar(
                "select count(value) from _imp_res where level = ?", [level]))
