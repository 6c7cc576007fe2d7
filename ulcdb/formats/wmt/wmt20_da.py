"""The WMT20 release's DA files (``human/da_{seg,doc,sys}.<lp>.tsv``) read at once.

A well-formed file (a header line, then one judgment a line: no blank lines, carriage
returns, byte-order mark or stray spaces, the file's language pair on every line, line ids
that are the layout's segments, plain decimals or ``None``/empty for missing scores) is
parsed by Arrow's CSV reader and checked column by column.  Anything else gives ``None``:
the caller then reads the file line by line (``wmt20._read_da``), which reports the exact
file, line and problem, or reads what this reader left to it.  Both give the same judgments.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ulcdb.ingest.textio import MAX_POSITION, read_bytes

# what parse_number accepts and finds finite, without surrounding spaces (RE2 syntax)
_FINITE = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
_POSITION = r"^[0-9]{1,10}$"
MISSING = ("", "None")


@dataclass
class DaFlags:
    """The systems a DA file names, and those its system-level rows flag."""

    systems: set[str] = field(default_factory=set)
    human: set[str] = field(default_factory=set)
    outliers: set[str] = field(default_factory=set)


def read_da_fast(path: Path, lp: str, level: str, layout: dict[tuple[str, int], int],
                 needed: tuple[str, ...], criteria: dict[str, str]
                 ) -> tuple[pa.Table, DaFlags] | None:
    """The judgments of a well-formed DA file (``ASSESSMENT_ROWS``, in the order the line
    reader gives them: by line, then criterion) and its flags, else ``None``."""
    table = _parse(read_bytes(path, gunzip=True), needed)
    if table is None or table.num_rows == 0:
        return None
    cols = {name: table[name].combine_chunks() for name in table.column_names}
    if not pc.all(pc.equal(cols["lp"], lp)).as_py():
        return None
    n = table.num_rows
    systems = _stripped(cols["system"])
    seg: pa.Array = pa.nulls(n, pa.int32())
    doc: pa.Array = pa.nulls(n, pa.string())
    if level == "seg":
        line_ids, in_doc = _positions(cols["line_id"]), _positions(cols["seg_in_doc"])
        if line_ids is None or in_doc is None:
            return None
        docs = cols["doc_id"].to_pylist()
        if any(layout.get(k) != s for k, s in zip(zip(docs, in_doc.to_pylist(), strict=True),
                                                  line_ids.to_pylist(), strict=True)):
            return None
        seg = line_ids.cast(pa.int32())
    elif level == "doc":
        doc = cols["doc_id"]
    flags = DaFlags(set(systems.dictionary.to_pylist()))
    if level == "sys":
        names = systems.to_pylist()
        for key, into in (("is_human_translation", flags.human), ("is_outlier", flags.outliers)):
            into.update(s for s, f in zip(names, cols[key].to_pylist(), strict=True)
                        if f.strip() == "1")
    parts = []
    for k, (column, criterion) in enumerate(criteria.items()):
        values = _scores(cols[column])
        if values is None:
            return None
        part = pa.table({
            "order": pc.add(pc.multiply(pa.array(range(n), pa.int64()), len(criteria)), k),
            "line": pa.array(range(2, n + 2), pa.int32()),
            "translator": systems.cast(pa.string()),
            "level": pa.array([level] * n, pa.string()),
            "doc_id": doc, "seg": seg,
            "criterion": pa.array([criterion] * n, pa.string()),
            "judge": pa.array([""] * n, pa.string()),
            "value": values})
        parts.append(part.filter(pc.is_valid(values)))
    rows = pa.concat_tables(parts).sort_by("order").drop_columns(["order"])
    return rows, flags


def _parse(data: bytes, needed: tuple[str, ...]) -> pa.Table | None:
    """Every column as text, or ``None`` where the lines are not plain (see the module)."""
    if (data.startswith((b"\n", b"\xef\xbb\xbf")) or b"\r" in data or b"\n\n" in data
            or b"\x00" in data):
        return None
    try:
        header = data.split(b"\n", 1)[0].decode("utf-8").split("\t")
    except UnicodeDecodeError:
        return None
    if len(set(header)) != len(header) or any(n not in header for n in needed):
        return None
    try:
        table = pcsv.read_csv(
            io.BytesIO(data),
            read_options=pcsv.ReadOptions(column_names=header, skip_rows=1, use_threads=False),
            parse_options=pcsv.ParseOptions(delimiter="\t", quote_char=False,
                                            escape_char=False, ignore_empty_lines=False),
            convert_options=pcsv.ConvertOptions(
                column_types=dict.fromkeys(header, pa.string()), strings_can_be_null=False,
                quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    return table if table.num_rows == lines - 1 else None


def _stripped(column: pa.Array) -> pa.DictionaryArray:
    """The names with Python's ``strip`` (applied to the distinct names only)."""
    encoded = column.dictionary_encode()
    names = pa.array([n.strip() for n in encoded.dictionary.to_pylist()], pa.string())
    return pa.DictionaryArray.from_arrays(encoded.indices, names)


def _positions(column: pa.Array) -> pa.Array | None:
    """Whole numbers 1..MAX_POSITION, or ``None`` where any is not one."""
    if not pc.all(pc.match_substring_regex(column, _POSITION)).as_py():
        return None
    numbers = pc.cast(column, pa.int64())
    if pc.any(pc.less(numbers, 1)).as_py() or pc.any(pc.greater(numbers, MAX_POSITION)).as_py():
        return None
    return numbers


def _scores(column: pa.Array) -> pa.Array | None:
    """Finite numbers (-0.0 as 0.0), null for a missing mark; ``None`` where any is neither.
    Arrow's parse rounds correctly, as Python's ``float`` does."""
    missing = pc.is_in(column, pa.array(MISSING))
    plain = pc.or_(pc.match_substring_regex(column, _FINITE), missing)
    if not pc.all(plain).as_py():
        return None
    values = pc.add(pc.cast(pc.if_else(missing, None, column), pa.float64()), 0.0)
    return None if pc.any(pc.is_inf(values)).as_py() else values
