"""The WMT20 metrics-task release (``wmt20_metrics/``) into one store, in one transaction.

Per language pair (``input_details/<lp>.txt`` lists them) a scores-only test bed
``newstest2020:<lp>`` (documents and segments, source ``''``, no texts) with:

- references ``ref-A``, ``ref-B`` (and ``ref-P`` for en-de) from the metric files' refsets
  (newstest2020 = A, newstestB2020 = B, newstestP2020 = P, newstestM2020 = A and B);
- every system of the metric and DA files (``Human-*`` outputs are systems too);
- DA from ``human/da_{seg,doc,sys}.<lp>.tsv`` as criteria ``DA-raw`` and ``DA-z``;
- system sets ``outliers`` (``human/outliers.tsv`` and the ``is_outlier`` flags) and ``human``
  (``is_human_translation`` and ``Human-*`` systems), for meta-evaluation to leave out;
- every metric file of ``metrics/{sys,doc,seg}`` (``ABSENT_in_snapshot.txt`` lists the
  segment files the release lacks).  All of them are higher-is-better as stored (TER,
  CharacTER and EED negated); metrics whose names are ulcdb built-ins (BLEU, chrF, chrF++)
  are stored as ``wmt20:BLEU`` etc., since they are other implementations on other scales.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ulcdb.errors import InputError
from ulcdb.formats.wmt import metrics_fast, metrics_task
from ulcdb.formats.wmt.wmt20_da import read_da_fast
from ulcdb.ingest.load import save_set
from ulcdb.ingest.load_assessments import store_assessments
from ulcdb.ingest.model import Assessment, NamedSet, TestbedData
from ulcdb.ingest.textio import check_file
from ulcdb.interchange.fast import fast_or_exact
from ulcdb.interchange.load import (
    DEFAULT_VARIANT,
    STAGES,
    ScoreImportReport,
    is_builtin_name,
    store_frame,
)
from ulcdb.interchange.model import (
    Advance,
    MetricInfo,
    Progress,
    ScoreFrame,
    SqlFrame,
    numbered_lines,
    parse_position,
    parse_score,
    steps,
)
from ulcdb.interchange.testbeds import ensure_testbed, ensure_translators
from ulcdb.store.database import Store

TESTSET = "newstest2020"
CRITERIA = {"da_raw": "DA-raw", "da_z": "DA-z"}
PREFIX = "wmt20:"


@dataclass
class Wmt20Pair:
    """What one language pair brings: layout, DA judgments and flags."""

    lp: str
    testbed: TestbedData
    human: dict[str, list[Assessment] | pa.Table] = field(default_factory=dict)  # file -> rows
    outliers: set[str] = field(default_factory=set)
    human_systems: set[str] = field(default_factory=set)
    da_systems: set[str] = field(default_factory=set)


def language_pairs(root: Path) -> list[str]:
    found = sorted(p.stem for p in (root / "input_details").glob("*.txt"))
    if not found:
        raise InputError(root / "input_details", None, "no <lp>.txt files: is this the WMT20 "
                         "metrics-task release?")
    return found


def read_pair(root: Path, lp: str) -> Wmt20Pair:
    """Layout, DA and flags of one language pair (no store needed)."""
    data = metrics_task.read_details(root / "input_details" / f"{lp}.txt")
    if data.name != f"{TESTSET}:{lp}":
        raise InputError(data.origin, 1, f"expected test set {TESTSET} {lp}, found {data.name}")
    pair = Wmt20Pair(lp, data)
    layout = {(s.doc_id, s.seg_in_doc): s.seg_id for s in data.segments}
    human = root / "human"
    for level in ("seg", "doc", "sys"):
        path = human / f"da_{level}.{lp}.tsv"
        if path.exists():
            pair.human[str(path)] = _read_da(path, lp, level, layout, pair)
    outliers = human / "outliers.tsv"
    if outliers.exists():
        for _line, row in _tsv_rows(outliers, ("lp", "system")):
            if row["lp"] == lp:
                pair.outliers.add(row["system"])
    return pair


def _tsv_rows(path: Path, needed: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, column -> field) of each row under the header line."""
    lines = numbered_lines(path)
    header_line, header = lines[0]
    names = header.split("\t")
    missing = [n for n in needed if n not in names]
    if missing:
        raise InputError(path, header_line, f"header lacks {missing}: {names}")
    for line, text in lines[1:]:
        fields = next(csv.reader([text], delimiter="\t", quoting=csv.QUOTE_NONE))
        if len(fields) != len(names):
            raise InputError(path, line, f"expected {len(names)} columns, found {len(fields)}")
        yield line, dict(zip(names, fields, strict=True))


def _read_da(path: Path, lp: str, level: str, layout: dict[tuple[str, int], int],
             pair: Wmt20Pair) -> list[Assessment] | pa.Table:
    """DA of one level; ``layout``: (document, position in it) -> test-bed segment."""
    needed = {"seg": ("lp", "system", "doc_id", "seg_in_doc", "line_id"),
              "doc": ("lp", "system", "doc_id"),
              "sys": ("lp", "system", "is_human_translation", "is_outlier")}[level]
    fast = read_da_fast(path, lp, level, layout, (*needed, *CRITERIA), CRITERIA)
    if fast is not None:  # a well-formed file, read at once; else line by line, to the error
        found, flags = fast
        pair.da_systems |= flags.systems
        pair.human_systems |= flags.human
        pair.outliers |= flags.outliers
        return found
    return _read_da_lines(path, lp, level, layout, pair, needed)


def _read_da_lines(path: Path, lp: str, level: str, layout: dict[tuple[str, int], int],
                   pair: Wmt20Pair, needed: tuple[str, ...]) -> list[Assessment]:
    """``_read_da`` line by line: the exact line of a problem."""
    items = []
    for line, row in _tsv_rows(path, (*needed, *CRITERIA)):
        if row["lp"] != lp:
            raise InputError(path, line, f"language pair {row['lp']!r} in the {lp} file")
        system = row["system"].strip()
        pair.da_systems.add(system)
        seg_id = doc_id = None
        if level == "seg":
            seg_id = parse_position(path, line, row["line_id"], "line_id")
            where = (row["doc_id"], parse_position(path, line, row["seg_in_doc"], "seg_in_doc"))
            if layout.get(where) != seg_id:
                raise InputError(path, line, f"line_id {seg_id} is not segment {where[1]} of "
                                 f"{where[0]!r} in input_details/{lp}.txt")
        elif level == "doc":
            doc_id = row["doc_id"]
        else:
            if row["is_human_translation"].strip() == "1":
                pair.human_systems.add(system)
            if row["is_outlier"].strip() == "1":
                pair.outliers.add(system)
        for column, criterion in CRITERIA.items():
            value = parse_score(path, line, row[column], {"", "None"})
            if value is not None:
                items.append(Assessment(system, criterion, value, level, seg_id, doc_id, "",
                                        line))
    return items


def metric_files(root: Path) -> list[Path]:
    return sorted(p for level in ("sys", "doc", "seg")
                  for p in (root / "metrics" / level).glob(f"*.{level}.tsv*"))


@dataclass
class Wmt20Report(ScoreImportReport):
    testbeds: dict[str, dict[str, int]] = field(default_factory=dict)


def ingest_wmt20(store: Store, root: str | Path, lps: list[str] | None = None,
                 replace: bool = False, variant: str = DEFAULT_VARIANT,
                 rename: dict[str, str] | None = None,
                 progress: Progress | None = None) -> Wmt20Report:
    """Everything of the release (or of ``lps``) in one transaction; ``progress`` shows
    each pair's DA, each metric file and each of the loader's stages."""
    root = Path(root)
    known = language_pairs(root)
    lps = lps or known
    for lp in lps:
        if lp not in known:
            raise InputError(root / "input_details", None, f"no language pair {lp!r} here "
                             f"(found: {', '.join(known)})")
    files = metric_files(root)
    with steps(progress, len(lps) + len(files) + len(STAGES)) as advance:
        return _ingest(store, root, lps, known, files, replace, variant, rename or {},
                       advance)


def _ingest(store: Store, root: Path, lps: list[str], known: list[str], files: list[Path],
            replace: bool, variant: str, rename: dict[str, str], advance: Advance
            ) -> Wmt20Report:
    pairs = {}
    for lp in lps:
        pairs[lp] = read_pair(root, lp)
        advance(f"{lp} layout and DA", 1)
    args = (store, root, pairs, replace, variant, rename, advance)

    def fast() -> Wmt20Report | None:
        rows = metrics_fast.read_wmt_sql(store, files, lps)
        if rows is None:
            return None
        advance(f"{len(files)} metric files", len(files))
        return _store(*args, rows.keys, partial(metrics_fast.sql_frame, store, rows))

    def exact() -> Wmt20Report:
        raw = metrics_task.read_wmt_raw(files, advance=advance)
        if set(lps) != set(known):  # a copy of the rows: only when some pairs are left out
            raw = metrics_task.WmtRaw(raw.table.filter(pc.is_in(raw.table["lp"], pa.array(lps))),
                                      raw.sources)
        metrics_task.check_raw_values(raw)
        return _store(*args, metrics_task.WmtKeys.of(raw), partial(metrics_task.wmt_frame, raw))

    report = fast_or_exact(store, fast, exact, metrics_fast.WORK_TABLES)
    report.notes.append(f"{len(lps)} test beds ({', '.join(lps)})")
    absent = root / "metrics" / "ABSENT_in_snapshot.txt"
    if absent.exists():
        check_file(absent)
        n = sum(1 for ln in absent.read_text(encoding="utf-8").splitlines() if ln.strip())
        report.notes.append(f"{n} metric files absent from the release ({absent.name})")
    return report


def _store(store: Store, root: Path, pairs: dict[str, Wmt20Pair], replace: bool, variant: str,
           rename: dict[str, str], advance: Advance, found: metrics_task.WmtKeys,
           frame_of: Callable[..., ScoreFrame | SqlFrame]) -> Wmt20Report:
    """Test beds, translators, system sets, DA and the metric scores (``found``: the distinct
    metric, language pair, test set, reference set and system of the rows, each with its
    first row; ``frame_of`` makes the rows from the test beds, reference sets, renames and
    catalogue facts) in one transaction."""
    keys = [k for k, _ in found.keys]
    names = {k[0] for k in keys}
    renames = {m: PREFIX + m for m in names if is_builtin_name(m)} | rename
    infos = {renames.get(m, m): MetricInfo(
        renames.get(m, m), higher_is_better=True,
        description=f"WMT20 metrics task: {m} as published (TER, CharacTER, EED negated)",
        reference_implementation="WMT20 metrics-task submission") for m in names}
    refs = {tok: metrics_task.refs_of(tok, metrics_task.WMT20_REFSETS)
            for tok in sorted({k[3] for k in keys})}
    testbeds = {(TESTSET, lp): pair.testbed.name for lp, pair in pairs.items()}
    report = Wmt20Report()
    with store.transaction():
        roles = _roles(keys, pairs, refs)
        for lp, pair in pairs.items():
            tid, _ = ensure_testbed(store, pair.testbed)
            ensure_translators(store, pair.testbed.name, roles[lp], str(root),
                               _first_row(found, root, lp))
            systems = [n for n, r in roles[lp].items() if r == "system"]
            for set_name, members in (("outliers", pair.outliers),
                                      ("human", pair.human_systems | {
                                          s for s in systems if s.startswith("Human-")})):
                save_set(store, tid, NamedSet("system", set_name, sorted(members)), str(root))
            for path, items in pair.human.items():
                store_assessments(store, pair.testbed.name, items, path, replace)
        frame = frame_of(testbeds, refs, renames, infos)
        scores = store_frame(store, frame, variant, replace, advance=advance)
        report.files = scores.files + sum(len(p.human) for p in pairs.values())
        report.stored, report.replaced = scores.stored, scores.replaced
        report.metrics_added = scores.metrics_added
        report.testbeds = _counts(store, [p.testbed.name for p in pairs.values()])
    return report


def _first_row(found: metrics_task.WmtKeys, root: Path, lp: str
               ) -> Callable[[str], tuple[str, int | None]]:
    """Where a translator name of pair ``lp`` first occurs: its metric file and line (no line
    where the fast reader scanned the file), else the release's human scores."""
    first = {key[1]: row for key, row in found.distinct("lp", "system") if key[0] == lp}

    def where(name: str) -> tuple[str, int | None]:
        row = first.get(name)
        return (str(root / "human"), None) if row is None else (found.path(row),
                                                                 row.line or None)
    return where


def _roles(keys: list[tuple[str, ...]], pairs: dict[str, Wmt20Pair],
           refs: dict[str, tuple[str, ...]]) -> dict[str, dict[str, str]]:
    roles: dict[str, dict[str, str]] = {lp: {} for lp in pairs}
    for lp, refset, system in sorted({(k[1], k[3], k[4]) for k in keys}):
        for ref in refs[refset]:
            roles[lp][ref] = "reference"
        roles[lp].setdefault(system, "system")
    for lp, pair in pairs.items():
        for system in pair.da_systems | pair.outliers | pair.human_systems:
            roles[lp].setdefault(system, "system")
    return roles


def _counts(store: Store, names: list[str]) -> dict[str, dict[str, int]]:
    keys = ("segments", "documents", "translators", "assessments", "seg_score", "doc_score",
            "sys_score")
    rows = store.query("select testbed, segments, documents, translators, assessments, "
                       "seg_scores, doc_scores, sys_scores from testbed_contents "
                       "where list_contains(?, testbed)", [names])
    found = {name: dict(zip(keys, counts, strict=True)) for name, *counts in rows}
    return {name: found[name] for name in names}
