"""Put human assessments into the store: the one loader of every assessment reader
(``ulcdb ingest assessments``, the human scores of a long TSV, an mt-metrics-eval folder or
the WMT20 release, the Python API).

Every row is checked against the test bed in DuckDB (``schema/queries/assessment_rows.sql``,
fast for WMT's 100,000s of judgments); the first offending row in file order is reported as
one line naming the file, the line and what is wrong.  Row conventions are those of
``ulcdb.formats.assessments``.  Rows already stored with the same value are left alone ("already
there"); other values are a Conflict unless ``replace``.  All or nothing: ``load_assessments``
runs in a transaction of its own, ``store_assessments`` in the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ulcdb.errors import Conflict, InputError
from ulcdb.ingest.model import Assessment
from ulcdb.ingest.units import unit_problem
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import check_name, refuse_lookalike

Scale = tuple[float | None, float | None]  # (MIN, MAX); None = unbounded
# the rows a loader checks and stores: one assessment each (``Assessment``'s fields)
ASSESSMENT_ROWS = pa.schema([("line", pa.int32()), ("translator", pa.string()),
                             ("level", pa.string()), ("doc_id", pa.string()),
                             ("seg", pa.int32()), ("criterion", pa.string()),
                             ("judge", pa.string()), ("value", pa.float64())])

# a stored assessment a loaded row (n) gives again: same translator, unit, criterion, judge
_SAME_KEY = ("a.translator_id = n.translator_id and a.level = n.level and "
             "a.seg_id is not distinct from n.seg_id and a.doc_id is not distinct from n.doc_key "
             "and a.criterion = n.criterion and a.judge = n.judge")


@dataclass
class AssessmentReport:
    read: int
    inserted: int
    unchanged: int
    replaced: int
    skipped: dict[str, int] | None = None  # unknown translator -> rows left out
    criteria: dict[str, int] = field(default_factory=dict)  # criterion -> assessments read
    rows: int | None = None  # lines of the file they came from, where known

    def summary(self) -> str:
        text = (f"{self._read_text()}: {self.inserted} stored, "
                f"{self.unchanged} already there, {self.replaced} replaced")
        if self.skipped:
            names = ", ".join(f"{k} ({v})" for k, v in sorted(self.skipped.items()))
            text += f"; skipped unknown translators: {names}"
        return text

    def _read_text(self) -> str:
        """'120 adequacy assessments read', or per criterion where a row holds several
        ('9832 DA-raw and 9832 DA-z assessments read from 9832 rows'): a sum of two criteria
        read as twice the rows."""
        if not self.criteria:
            return f"{self.read} assessments read"
        counts = [f"{n} {name}" for name, n in self.criteria.items()]
        text = (counts[0] if len(counts) == 1
                else ", ".join(counts[:-1]) + f" and {counts[-1]}")
        text += " assessment read" if self.read == 1 else " assessments read"
        if len(counts) > 1 and self.rows is not None and self.rows != self.read:
            text += f" from {self.rows} rows"
        return text


def load_assessments(
    store: Store, testbed: str, items: list[Assessment], path: Path | str,
    replace: bool = False, skip_unknown: bool = False, scale: Scale | None = None,
) -> AssessmentReport:
    """Check and store ``items`` read from ``path``, all or nothing (one transaction).

    ``skip_unknown`` leaves out rows of translators the test bed does not have (e.g. MQM
    scores of systems whose outputs were not released) instead of refusing the file.
    ``scale`` (MIN, MAX; None = unbounded) is recorded for every criterion of the file
    (table ``criterion``); a value outside it is refused, and so is a scale other than the
    one already recorded unless ``replace``.
    """
    with store.transaction():
        return store_assessments(store, testbed, items, path, replace, skip_unknown, scale)


def store_assessments(
    store: Store, testbed: str, items: list[Assessment] | pa.Table, path: Path | str,
    replace: bool = False, skip_unknown: bool = False, scale: Scale | None = None,
) -> AssessmentReport:
    """``load_assessments`` inside a transaction the caller holds (e.g. a test-bed ingest
    whose file also carries human scores, or a folder of human and metric scores).
    ``items`` may come as a table of ``ASSESSMENT_ROWS`` (a reader that parses columns)."""
    table = items if isinstance(items, pa.Table) else assessment_table(items)
    if not table.num_rows:
        raise InputError(path, None, "no assessments found")
    tid = store.testbed_id(testbed)
    _check_criteria(store, tid, testbed, table, path)
    skipped: dict[str, int] = {}
    if skip_unknown:
        known = pa.array(list(store.translators(tid)), pa.string())
        kept = pc.is_in(table["translator"], known)
        left = table.filter(pc.invert(kept))
        for name in left["translator"].to_pylist():
            skipped[name] = skipped.get(name, 0) + 1
        table = table.filter(kept)
    _resolve(store, tid, table, scale)
    try:
        _check(store, tid, testbed, path, scale)
        if scale is not None:
            criteria = [r[0] for r in store.query(
                "select distinct criterion from _assessment_in order by 1")]
            _record_scale(store, tid, criteria, scale, str(path), replace)
        report = _merge(store, tid, str(path), replace, table.num_rows)
    finally:
        store.con.execute("drop table if exists _assessment_in")
    report.skipped = skipped
    report.criteria, report.rows = _counts(table)
    return report


def _counts(table: pa.Table) -> tuple[dict[str, int], int | None]:
    """Assessments per criterion (in the file's order) and the file lines they came from
    (None where the rows carry no line)."""
    criteria = {str(row["values"]): int(row["counts"])
                for row in pc.value_counts(table["criterion"]).to_pylist()}
    lines = table["line"] if "line" in table.column_names else None
    if lines is None or lines.null_count:
        return criteria, None
    return criteria, len(pc.unique(lines))


def assessment_table(items: list[Assessment]) -> pa.Table:
    """``items`` as a table of ``ASSESSMENT_ROWS``."""
    return pa.table({
        "line": pa.array([a.line for a in items], pa.int32()),
        "translator": pa.array([a.translator for a in items], pa.string()),
        "level": pa.array([a.level for a in items], pa.string()),
        "doc_id": pa.array([a.doc_id for a in items], pa.string()),
        "seg": pa.array([a.seg_id for a in items], pa.int32()),
        "criterion": pa.array([a.criterion for a in items], pa.string()),
        "judge": pa.array([a.judge for a in items], pa.string()),
        "value": pa.array([a.value for a in items], pa.float64()),
    }, schema=ASSESSMENT_ROWS)


def _check_criteria(store: Store, tid: int, testbed: str, table: pa.Table,
                    path: Path | str) -> None:
    """Criterion names (-c or a file's column) are names as a system's are: a tab, a line
    break, surrounding blanks or a comma made a criterion that no table shows as given and
    no option selects; one that differs from one of the test bed's (or another of the file)
    only by case or Unicode form ('da' beside 'DA') made a second criterion that -c DA never
    selects.  The first row of a bad one names its line."""
    criteria = table["criterion"]
    stored = [r[0] for r in store.query(named_query("criterion_names"), {"tid": tid})]
    seen: list[str] = []
    for name in pc.unique(criteria).to_pylist():
        if name is not None:
            first = pc.index(criteria, name).as_py()
            line = table["line"][first].as_py() if "line" in table.column_names else None
            check_name("criterion", name, path, line)
            refuse_lookalike(path, "criterion", name, seen, " of this file", line)
            refuse_lookalike(path, "criterion", name, stored, f" in test bed {testbed!r}",
                             line)
            seen.append(name)


def _resolve(store: Store, tid: int, rows: pa.Table, scale: Scale | None) -> None:
    """The work table ``_assessment_in``: the rows with store ids and their first problem."""
    rid = pa.array(range(rows.num_rows), pa.int64())
    table = rows.cast(ASSESSMENT_ROWS).add_column(0, "rid", rid)
    lo, hi = scale or (None, None)
    with store.registered("_ulcdb_assessment_in", table):
        store.con.execute(named_query("assessment_rows"), {"tid": tid, "lo": lo, "hi": hi})


def _check(store: Store, tid: int, testbed: str, path: Path | str, scale: Scale | None) -> None:
    """The first row with a problem (file order) as one InputError naming its line."""
    rows = store.query(named_query("assessment_first_problem"))
    if not rows:
        return
    line, problem, translator, level, doc_id, seg, value, first = rows[0]
    if problem == "translator":
        elsewhere = _another_testbed(store, tid, testbed)
        message = (f"unknown system or reference {translator!r} in test bed {testbed!r}"
                   + (elsewhere or f" (--rename {translator}=NAME if the test bed holds it "
                                   "under another name, --skip-unknown to leave its rows out)"))
    elif problem == "level":
        message = f"level must be seg, doc or sys, not {level!r}"
    elif problem == "unit":
        message = unit_problem(store, tid, level, doc_id, seg) + _another_testbed(store, tid,
                                                                                  testbed)
    elif problem == "duplicate":
        message = (f"duplicate assessment (first at line {first})"
                   + _finer_rows(level, translator, doc_id))
    elif problem == "value":
        message = "score is NaN or infinite"
    else:  # 'scale': flagged only when a scale is given
        message = (f"score {value:g} lies outside the scale "
                   f"{_scale_text(scale or (None, None))} given with --scale")
    raise InputError(path, line, message)


def _finer_rows(level: str, translator: str, doc_id: str | None) -> str:
    """Why a system (document) would have two rows of a criterion at ``level``: the file
    holds finer units (WMT's da_seg.tsv given with --level sys), and the --level it needs."""
    if level == "sys":
        return (f": the file holds several rows for system {translator!r}, as a file of "
                "segment scores does: give --level seg (--level doc for document scores)")
    if level == "doc":
        return (f": the file holds several rows for document {doc_id!r} of {translator!r}, "
                "as a file of segment scores does: give --level seg")
    return ""


def _another_testbed(store: Store, tid: int, testbed: str) -> str:
    """Where rows of the file name units the test bed lacks, and either names it lacks too or
    more than one such row: that the file seems to be another test bed's, which of its
    names the test bed has and which not, and a stored test bed that has them all."""
    names = store.query(named_query("assessment_names"))
    found = [name for name, known in names if known]
    missing = [name for name, known in names if not known]
    lost = int(store.scalar("select count(*) from _assessment_in where problem = 'unit'"))
    if lost == 0 or (not missing and lost < 2):
        return ""  # names unknown but every unit there, or one stray row: a typo, no more
    others = [r[0] for r in store.query(named_query("testbeds_with_translators"),
                                        [tid, [n for n, _ in names], len(names)])]
    text = (f"; the file seems to belong to another test bed: {lost} of its rows name no "
            f"unit of {testbed!r}, which has its names {_few(found)}")
    text += f" but not {_few(missing)}" if missing else ""
    return text + (f" (test bed {others[0]!r} has them all)" if others else "")


def _few(names: list[str], most: int = 5) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most
                                      else "")


def _merge(store: Store, tid: int, origin: str, replace: bool, n: int) -> AssessmentReport:
    """Insert the new rows; rows stored with other values are a Conflict unless
    ``replace``, then replaced."""
    same, differ = store.query(
        "select count(*) filter (where a.value = n.value), "
        "count(*) filter (where a.value <> n.value) "
        f"from assessment a join _assessment_in n on {_SAME_KEY} where a.testbed_id = ?",
        [tid])[0]
    if differ and not replace:
        line, stored, value = store.query(named_query("assessment_first_conflict"), [tid])[0]
        where = origin if line is None else f"{origin}:{line}"
        raise Conflict(f"{where}: {differ} assessments are already stored with other values "
                       f"(the first: stored {stored:g}, the file says {value:g}); use --replace to "
                       "replace them")
    con = store.con
    if differ:
        con.execute("delete from assessment a where a.testbed_id = ? and exists (select 1 "
                    f"from _assessment_in n where {_SAME_KEY} and a.value <> n.value)", [tid])
    con.execute(
        "insert into assessment (testbed_id, translator_id, level, seg_id, doc_id, criterion, "
        "judge, value, origin) "
        "select ?, n.translator_id, n.level, n.seg_id, n.doc_key, n.criterion, n.judge, "
        "n.value, ? from _assessment_in n where not exists (select 1 from assessment a "
        f"where a.testbed_id = ? and {_SAME_KEY})", [tid, origin, tid])
    return AssessmentReport(read=n, inserted=n - int(same), unchanged=int(same),
                            replaced=int(differ))


def _scale_text(scale: Scale) -> str:
    return ":".join("" if b is None else f"{b:g}" for b in scale)


def _record_scale(store: Store, tid: int, criteria: list[str], scale: Scale, origin: str,
                  replace: bool) -> None:
    """Record ``scale`` for each criterion; a different recorded scale needs ``replace``."""
    for name in criteria:
        row = store.query("select scale_min, scale_max from criterion where testbed_id = ? "
                          "and name = ?", [tid, name])
        if row and tuple(row[0]) == tuple(scale):
            continue
        if row and not replace:
            raise Conflict(f"{origin}: criterion {name!r} has the scale "
                           f"{_scale_text(tuple(row[0]))}, not {_scale_text(scale)}; use "
                           "--replace to change it")
        store.con.execute("delete from criterion where testbed_id = ? and name = ?", [tid, name])
        store.con.execute("insert into criterion values (?, ?, ?, ?, ?)",
                          [tid, name, *scale, origin])
