"""WMT metrics-task score files, read (fast: millions of rows) and written.

One line per score, tab-separated, plain or gzipped, one file per metric and level::

    sys:  METRIC  LP  TESTSET  REFSET  SYSTEM                 SCORE
    doc:  METRIC  LP  TESTSET  REFSET  SYSTEM  DOCID          SCORE
    seg:  METRIC  LP  TESTSET  REFSET  SYSTEM  DOCID  SEG     SCORE

The level is the number of columns (checked against ``.sys.``/``.doc.``/``.seg.`` in the
file name where present); SEG is the segment's position in DOCID; ``None`` is a missing
score.  REFSET names the reference set: ``refsets`` maps it to members (``WMT20_REFSETS``
holds WMT20's names: newstest2020 = reference A, newstestB2020 = B, newstestP2020 = P,
newstestM2020 = A and B); any other name is read as members joined with ``+``.  TESTSET and
LP select the test bed (see ``ulcdb.interchange.importer``).

Files are parsed by Arrow's CSV reader, several at a time; a file it refuses (wrong column
count, a word where a number belongs, blank lines, bad UTF-8) is read again line by line,
which either reports the exact file and line or, for blank lines, reads it.

``input_details/<lp>.txt`` (``SID TESTSET LP DOCID SEGID``) gives the segment layout of a
scores-only test bed (``read_details``).
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ulcdb.errors import InputError
from ulcdb.ingest.model import Document, SourceSegment, TestbedData
from ulcdb.interchange.fetch import ExportSelection, check_selection
from ulcdb.interchange.model import (
    FRAME_SCHEMA,
    Advance,
    MetricInfo,
    ScoreFrame,
    Source,
    numbered_lines,
    parse_position,
    parse_score,
    read_bytes,
    safe_file_name,
)
from ulcdb.scoring.progress import Tick
from ulcdb.store.database import Store, named_query

KEYS = ("metric", "lp", "testset", "refset", "system")
LEVEL_OF = {6: "sys", 7: "doc", 8: "seg"}
COLUMNS = {"sys": (*KEYS, "value"), "doc": (*KEYS, "doc_id", "value"),
           "seg": (*KEYS, "doc_id", "seg", "value")}
# names are dictionary-encoded from the parse on: a release repeats a few hundred names over
# millions of rows, so a row costs about 40 bytes in memory instead of 200
NAME = pa.dictionary(pa.int32(), pa.string())
RAW_SCHEMA = pa.schema([("file_no", pa.int32()), ("line", pa.int32()), ("level", NAME),
                        *[(k, NAME) for k in KEYS], ("doc_id", NAME),
                        ("seg", pa.int32()), ("value", pa.float64())])
WMT20_REFSETS: dict[str, tuple[str, ...]] = {
    "newstest2020": ("ref-A",),
    "newstestB2020": ("ref-B",),
    "newstestP2020": ("ref-P",),
    "newstestM2020": ("ref-A", "ref-B"),
}


@dataclass
class WmtRaw:
    """WMT rows as read (``RAW_SCHEMA``), before names are mapped to the store's."""

    table: pa.Table
    sources: list[Source]

    def path(self, row: FirstRow) -> str:
        """The file ``row`` is in (for error messages)."""
        return self.sources[row.file_no].path


class FirstRow(NamedTuple):
    """Where a value first occurs: its file (index into ``WmtRaw.sources``) and line."""

    file_no: int
    line: int


def level_from_name(path: Path) -> str | None:
    parts = path.name.split(".")
    found = [p for p in parts[1:] if p in LEVEL_OF.values()]
    return found[-1] if found else None


def _first_line(data: bytes) -> tuple[int, bytes]:
    """The first non-blank line and its number."""
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if data[start:end].strip():
            return number, data[start:end].rstrip(b"\r")
        start, number = end + 1, number + 1
    return 1, b""


def _read_one(number: int, path: Path) -> pa.Table:
    data = read_bytes(path)
    if not data.strip():
        raise InputError(path, None, "empty file: no scores")
    first, line = _first_line(data)
    columns = line.count(b"\t") + 1
    level = LEVEL_OF.get(columns)
    if level is None:
        raise InputError(path, first, f"expected 6 (sys), 7 (doc) or 8 (seg) tab-separated "
                         f"columns, found {columns}")
    named = level_from_name(path)
    if named is not None and named != level:
        raise InputError(path, first, f"the file name says {named} level, the lines have "
                         f"{columns} columns ({level} level)")
    try:
        table = _arrow_parse(data, level)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        table = _python_parse(path, data, level)
    n = table.num_rows
    return pa.table({
        "file_no": pa.array(np.full(n, number, dtype=np.int32)),
        "line": table["line"] if "line" in table.column_names
        else pa.array(np.arange(1, n + 1, dtype=np.int32)),
        "level": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int32)),
                                                pa.array([level])),
        **{k: table[k] for k in KEYS},
        "doc_id": table["doc_id"] if level != "sys" else pa.nulls(n, NAME),
        "seg": table["seg"] if level == "seg" else pa.nulls(n, pa.int32()),
        "value": table["value"],
    }, schema=RAW_SCHEMA)


def _arrow_parse(data: bytes, level: str) -> pa.Table:
    names = list(COLUMNS[level])
    types = {"value": pa.float64(), "seg": pa.int32(),
             **{k: NAME for k in (*KEYS, "doc_id")}}
    return pcsv.read_csv(
        io.BytesIO(data),
        read_options=pcsv.ReadOptions(column_names=names, use_threads=False),
        parse_options=pcsv.ParseOptions(delimiter="\t", quote_char=False, escape_char=False,
                                        ignore_empty_lines=False),
        convert_options=pcsv.ConvertOptions(
            column_types={k: v for k, v in types.items() if k in names},
            null_values=["None"], strings_can_be_null=False, quoted_strings_can_be_null=False))


def _python_parse(path: Path, data: bytes, level: str) -> pa.Table:
    """Line by line: exact errors, blank lines skipped."""
    names = COLUMNS[level]
    cols: dict[str, list[object]] = {k: [] for k in (*names, "line")}
    for line, text in numbered_lines(path, data):
        fields = text.split("\t")
        if len(fields) != len(names):
            raise InputError(path, line, f"expected {len(names)} tab-separated columns "
                             f"({' '.join(names).upper()}), found {len(fields)}")
        for key, field in zip(names, fields, strict=True):
            if key == "value":
                cols[key].append(parse_score(path, line, field, {"None"}))
            elif key == "seg":
                cols[key].append(parse_position(path, line, field, "segment number"))
            else:
                if not field.strip():
                    raise InputError(path, line, f"empty {key} column")
                cols[key].append(field.strip())
        cols["line"].append(line)
    types = {"value": pa.float64(), "seg": pa.int32(), "line": pa.int32()}
    return pa.table({k: pa.array(v, types[k]) if k in types
                     else pa.array(v, pa.string()).dictionary_encode() for k, v in cols.items()})


def read_wmt_raw(paths: list[Path], jobs: int | None = None,
                 advance: Advance | None = None) -> WmtRaw:
    """Read WMT files in parallel (decompression and parsing release the GIL); ``advance``
    is told each file read."""
    if not paths:
        raise InputError(".", None, "no WMT score files given")
    workers = max(1, min(jobs or os.cpu_count() or 1, len(paths)))
    tables = []
    with ThreadPoolExecutor(workers) as pool:
        for path, table in zip(paths, pool.map(_read_one, range(len(paths)), paths),
                               strict=True):
            tables.append(table)
            if advance is not None:
                advance(path.name, 1)
    table = pa.concat_tables(tables).unify_dictionaries()  # one dictionary a column
    return WmtRaw(table, [Source(str(p), "wmt") for p in paths])


def check_raw_values(raw: WmtRaw) -> None:
    """Numbers Arrow read but the store refuses: NaN, infinities, segment 0 or below."""
    con = duckdb.connect()
    try:
        con.register("raw", raw.table)
        rows = con.execute(named_query("wmt_raw_problem"), ["seg"]).fetchall()
    finally:
        con.close()
    if rows:
        number, line, value, seg = rows[0]
        path = raw.sources[number].path
        if value is not None and (value != value or abs(value) == float("inf")):
            raise InputError(path, line, f"score {value!r} is NaN or infinite")
        raise InputError(path, line, f"segment number {seg!r} is not a whole number >= 1")


def distinct_keys(raw: WmtRaw, column: str | tuple[str, ...]
                  ) -> list[tuple[tuple[str, ...], FirstRow]]:
    """Distinct values of one or more columns (a tuple, one value per column), each with its
    first row (for error messages)."""
    cols = [column] if isinstance(column, str) else list(column)
    table = raw.table.select([*cols, "file_no", "line"])
    position = pc.add(pc.multiply(table["file_no"].cast(pa.int64()), 1 << 32),
                      table["line"].cast(pa.int64()))
    grouped = table.append_column("_pos", position).group_by(cols).aggregate([("_pos", "min")])
    rows = sorted(zip(*[grouped[c].to_pylist() for c in cols], grouped["_pos_min"].to_pylist(),
                      strict=True), key=lambda r: r[:-1])
    return [(r[:-1], FirstRow(r[-1] >> 32, r[-1] & 0xFFFFFFFF)) for r in rows]


@dataclass
class WmtKeys:
    """The distinct (metric, language pair, test set, reference set, system) of WMT rows,
    each with its first row, whichever reader read them."""

    keys: list[tuple[tuple[str, ...], FirstRow]]
    sources: list[Source]

    @classmethod
    def of(cls, raw: WmtRaw) -> WmtKeys:
        return cls(distinct_keys(raw, KEYS), raw.sources)

    def path(self, row: FirstRow) -> str:
        """The file ``row`` is in (for error messages)."""
        return self.sources[row.file_no].path

    def distinct(self, *columns: str) -> list[tuple[tuple[str, ...], FirstRow]]:
        """``distinct_keys`` of these columns: each value with its first row, sorted."""
        index = [KEYS.index(c) for c in columns]
        first: dict[tuple[str, ...], FirstRow] = {}
        for key, row in self.keys:
            value = tuple(key[i] for i in index)
            if value not in first or row < first[value]:
                first[value] = row
        return sorted(first.items())


def _mapped(column: pa.ChunkedArray, values: Mapping[str, object], kind: pa.DataType
            ) -> pa.Array:
    """``column`` with each value replaced by ``values[value]`` (via its dictionary); names
    stay dictionary-encoded (the new dictionary over the old indices), lists are taken.  A
    dictionary may hold names no row has any more (rows filtered out): they map to null."""
    encoded = column.combine_chunks().dictionary_encode()
    lookup = pa.array([values.get(v) for v in encoded.dictionary.to_pylist()], kind)
    if kind == pa.string():
        return pa.DictionaryArray.from_arrays(encoded.indices, lookup)
    return pc.take(lookup, encoded.indices)


def wmt_frame(raw: WmtRaw, testbeds: Mapping[tuple[str, str], str],
              refsets: Mapping[str, tuple[str, ...]], rename: Mapping[str, str] | None = None,
              metrics: Mapping[str, MetricInfo] | None = None) -> ScoreFrame:
    """The rows as a ScoreFrame: (TESTSET, LP) -> test bed, REFSET -> members, metric renames.
    Missing scores (``None``) stay as null values: they cover their unit, are not stored."""
    rename = dict(rename or {})
    table = raw.table
    testsets = table["testset"].combine_chunks().dictionary_encode()
    lps = table["lp"].combine_chunks().dictionary_encode()
    pairs = [(t, lp) for t in testsets.dictionary.to_pylist() for lp in lps.dictionary.to_pylist()]
    index = pc.add(pc.multiply(testsets.indices, len(lps.dictionary)), lps.indices)
    lookup = pa.array([testbeds.get(p) for p in pairs], pa.string())
    metric = table["metric"]
    frame = pa.table({
        "file_no": table["file_no"],
        "line": table["line"],
        "testbed": pa.DictionaryArray.from_arrays(index, lookup),
        "metric": _mapped(metric, {m: rename.get(m, m) for m in pc.unique(metric).to_pylist()},
                          pa.string()),
        "target": table["system"],
        "refs": _mapped(table["refset"], {k: sorted(v) for k, v in refsets.items()},
                        pa.list_(pa.string())),
        "level": table["level"],
        "doc_id": table["doc_id"],
        "seg": table["seg"],
        "in_doc": pa.nulls(table.num_rows, NAME),
        "value": table["value"],
    }, schema=_FRAME)
    return ScoreFrame(frame, raw.sources, dict(metrics or {}))


# FRAME_SCHEMA with the names kept dictionary-encoded (DuckDB reads them as VARCHAR)
_FRAME = pa.schema([pa.field(f.name, NAME) if f.type == pa.string() else f
                    for f in FRAME_SCHEMA])


def refs_of(token: str, refsets: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Members of a REFSET name: mapped, else the name split on '+'."""
    if token in refsets:
        return tuple(sorted(refsets[token]))
    return tuple(sorted(token.split("+")))


def read_details(path: str | Path, name: str | None = None) -> TestbedData:
    """A scores-only test bed from ``SID TESTSET LP DOCID SEGID`` lines (no texts).

    SID must run 1..n; documents must be contiguous with SEGID 1, 2, ...  The test bed is
    named ``TESTSET:LP`` unless ``name`` is given.
    """
    segments: list[SourceSegment] = []
    documents: list[Document] = []
    testset = lp = None
    for line, text in numbered_lines(path):
        fields = text.split()
        if len(fields) != 5:
            raise InputError(path, line, f"expected 5 fields (SID TESTSET LP DOCID SEGID), "
                             f"found {len(fields)}")
        sid = parse_position(path, line, fields[0], "SID")
        seg = parse_position(path, line, fields[4], "SEGID")
        if (testset, lp) == (None, None):
            testset, lp = fields[1], fields[2]
        elif (fields[1], fields[2]) != (testset, lp):
            raise InputError(path, line, f"test set {fields[1]} {fields[2]} differs from the "
                             f"first line's {testset} {lp}")
        if sid != len(segments) + 1:
            raise InputError(path, line, f"SID {sid} out of order (expected {len(segments) + 1})")
        doc_id = fields[3]
        if not documents or documents[-1].doc_id != doc_id:
            if any(d.doc_id == doc_id for d in documents):
                raise InputError(path, line, f"document {doc_id!r} is not contiguous")
            documents.append(Document(doc_id))
            expected = 1
        else:
            expected = segments[-1].seg_in_doc + 1
        if seg != expected:
            raise InputError(path, line, f"SEGID {seg} out of order in {doc_id!r} "
                             f"(expected {expected})")
        segments.append(SourceSegment(sid, doc_id, seg, ""))
    src, _, tgt = (lp or "").partition("-")
    return TestbedData(name=name or f"{testset}:{lp}", src_lang=src or None,
                       tgt_lang=tgt or None, origin=str(path), documents=documents,
                       segments=segments)


# --- writing ----------------------------------------------------------------------------------


def write_wmt(store: Store, folder: str | Path, sel: ExportSelection | None = None,
              refset_names: Mapping[str, str] | None = None, compress: bool = False,
              tick: Tick | None = None) -> list[Path]:
    """``folder/METRIC.LEVEL.tsv[.gz]`` for every metric and level selected (all test beds
    unless ``sel`` names them).  ``refset_names`` maps stored refset names (``ref-A+ref-B``)
    to the REFSET written (default: the stored name).  Values: shortest exact decimal."""
    sel = sel or ExportSelection()
    check_selection(store, sel)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    params = {"variant": sel.variant, "testbeds": list(sel.testbeds),
              "metrics": list(sel.metrics), "targets": list(sel.targets),
              "refsets": list(sel.refsets), "stored": list(refset_names or {}),
              "written": list((refset_names or {}).values())}
    written = []
    for level in sel.levels:
        metrics = [r[0] for r in store.query(_EXPORT_ROWS.format(cols="distinct metric")
                                             + " order by 1", {**params, "level": level})]
        for metric in metrics:
            safe_file_name(folder, metric, "metric")
            path = folder / f"{metric}.{level}.tsv{'.gz' if compress else ''}"
            unit = {"sys": "", "doc": "doc_id, ", "seg": "doc_id, seg_in_doc, "}[level]
            query = _EXPORT_ROWS.format(cols=f"metric, lp, testset, refset, target, {unit}"
                                        "value::varchar") + " where metric = $metric order by all"
            store.con.execute(f"copy ({query}) to $path (format csv, delimiter '\t', header "
                              f"false, quote '', escape '', compression "
                              f"{'gzip' if compress else 'none'})",
                              {**params, "level": level, "metric": metric, "path": str(path)})
            written.append(path)
            if tick is not None:
                tick(f"{metric}.{level}", 1)
    return written


# the rows of one level, reference sets named as ``refset_names`` says ($stored -> $written)
_EXPORT_ROWS = (
    "select {cols} from (select * replace (coalesce(($written::varchar[])[list_position("
    "$stored::varchar[], refset)], refset) as refset) from wmt_export($variant, $level, "
    "$testbeds::varchar[], $metrics::varchar[], $targets::varchar[], $refsets::varchar[]))")
