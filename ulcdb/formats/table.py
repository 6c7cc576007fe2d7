"""Generic tables in (CSV, TSV, Parquet, JSON with a column mapping) and out (any table,
view or query as CSV, TSV, Parquet or JSON), plus one-score-per-line files.

Import mapping keys (``--map KEY=COLUMN``): ``testbed``, ``metric``, ``target``, ``refset``
(members joined with ``+``), ``level``, ``seg_id`` (test-bed number), ``seg_in_doc``,
``doc_id``, ``value``, ``variant``.  Unmapped keys default to a column of that name (or
``translator``/``system`` for target, ``score`` for value), else to the constant the command
gives (``--testbed``, ``--metric``, ``--target``, ``--ref``, ``--level``).  Without a level,
a row with a segment is seg level, one with only a document doc level, else sys level.  A
seg row with ``seg_id`` and ``doc_id`` checks that the segment is in that document.  So the
``scores`` view, exported with ``ulcdb export table scores``, imports back as it is.
Empty and ``None`` scores mark a missing score: the row must still be valid and counts
towards the coverage of the test bed, but nothing is stored for it.  A doc or sys row
that names a segment, or a sys row that names a document, is refused.  Line numbers
assume one record per line (CSV/TSV) or count records (Parquet, JSON).

``lines``: one score per line, line n = segment n (BLEURT's and many scripts' output).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

from ulcdb.errors import InputError, NotFound
from ulcdb.ingest.textio import MAX_LINE, check_file, decode_utf8
from ulcdb.interchange.model import (
    FRAME_SCHEMA,
    ScoreFrame,
    ScoreSet,
    Source,
    numbered_lines,
    parse_score,
    read_bytes,
    to_arrow,
)
from ulcdb.store.database import Store, named_query

KEYS = ("testbed", "metric", "target", "refset", "level", "seg_id", "seg_in_doc", "doc_id",
        "value", "variant")
ALIASES = {"target": ("target", "translator", "system"), "value": ("value", "score")}
FORMATS = ("csv", "tsv", "parquet", "json")
MISSING = ("", "None", "none", "NA")
BREAKS = r"[\t\n\r]"  # RE2 class: what raw TSV cannot hold in a value


def table_format(path: str | Path) -> str:
    name = Path(path).name.lower().removesuffix(".gz")
    for fmt, suffixes in (("parquet", (".parquet", ".pq")), ("json", (".json", ".jsonl",
                                                                        ".ndjson")),
                          ("tsv", (".tsv", ".tab", ".txt")), ("csv", (".csv",))):
        if name.endswith(suffixes):
            return fmt
    raise InputError(path, None, "cannot tell the table format from the name (.csv, .tsv, "
                     ".parquet, .json)")


def _read_arrow(path: Path) -> tuple[pa.Table, int]:
    """The table as strings where text, and the line of its first record."""
    fmt = table_format(path)
    check_file(path)  # Parquet and JSON are read by pyarrow and DuckDB: not a FIFO or device
    try:
        if fmt == "parquet":
            return pq.read_table(path), 1
        if fmt == "json":
            con = duckdb.connect()
            try:
                return to_arrow(con.read_json(str(path))), 1
            finally:
                con.close()
    except (pa.ArrowException, duckdb.Error, OSError) as exc:
        raise InputError(path, None, f"cannot read {fmt}: {exc}") from None
    data = read_bytes(path).removeprefix(b"\xef\xbb\xbf")
    delimiter = "\t" if fmt == "tsv" else ","
    try:
        try:
            table = _parse_text(data, delimiter, fmt, pcsv.ReadOptions())
        except pa.ArrowInvalid as exc:
            if "straddl" not in str(exc):
                raise
            # a line longer than pyarrow's block (1 MiB): a block as long as the longest line
            # read_bytes allows (MAX_LINE)
            table = _parse_text(data, delimiter, fmt, pcsv.ReadOptions(block_size=MAX_LINE + 1))
    except pa.ArrowInvalid as exc:
        _bad_record(path, data, delimiter, fmt)  # the line, where it can be found
        raise InputError(path, None, f"cannot read the {fmt.upper()} table: {exc}") from None
    return table, 2


def _parse_text(data: bytes, delimiter: str, fmt: str, options: pcsv.ReadOptions) -> pa.Table:
    """The CSV or TSV ``data`` as a table of strings (pyarrow's reader)."""
    return pcsv.read_csv(
        io.BytesIO(data), read_options=options, parse_options=pcsv.ParseOptions(
            delimiter=delimiter, quote_char=False if fmt == "tsv" else '"',
            ignore_empty_lines=False),
        convert_options=pcsv.ConvertOptions(column_types=_all_strings(data, delimiter, fmt),
                                            strings_can_be_null=False))


def _bad_record(path: Path, data: bytes, delimiter: str, fmt: str) -> None:
    """An ``InputError`` naming the first line pyarrow could not read: a byte that is not
    UTF-8 or a NUL, or a record with another number of fields than the header."""
    text = decode_utf8(path, data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter,
                        quoting=csv.QUOTE_NONE if fmt == "tsv" else csv.QUOTE_MINIMAL)
    width = None
    try:
        for record in reader:
            width = len(record) if width is None else width
            if record and len(record) != width:
                raise InputError(path, reader.line_num, f"{len(record)} fields, the header has "
                                 f"{width}")
    except csv.Error as exc:
        raise InputError(path, reader.line_num, f"bad {fmt.upper()} quoting: {exc}") from None


def _all_strings(data: bytes, delimiter: str, fmt: str) -> dict[str, pa.DataType]:
    first = pcsv.read_csv(io.BytesIO(data.split(b"\n", 1)[0] + b"\n"),
                          parse_options=pcsv.ParseOptions(
                              delimiter=delimiter, quote_char=False if fmt == "tsv" else '"'),
                          read_options=pcsv.ReadOptions(autogenerate_column_names=True))
    names = [str(first.column(i)[0]) for i in range(first.num_columns)]
    return {name: pa.string() for name in names}


def _column_of(path: Path, key: str, mapping: Mapping[str, str], columns: list[str]) -> str | None:
    if key in mapping:
        if mapping[key] not in columns:
            raise InputError(path, 1, f"no column {mapping[key]!r} (mapped as {key}); "
                             f"columns: {columns}")
        return mapping[key]
    return next((c for c in ALIASES.get(key, (key,)) if c in columns), None)


def read_table_scores(path: str | Path, mapping: Mapping[str, str] | None = None,
                      testbed: str | None = None, metric: str | None = None,
                      target: str | None = None, refs: tuple[str, ...] | None = None,
                      level: str | None = None, variant: str | None = None) -> ScoreFrame:
    """Scores from a CSV/TSV/Parquet/JSON table (see the module docstring)."""
    path = Path(path)
    mapping = dict(mapping or {})
    unknown = sorted(set(mapping) - set(KEYS))
    if unknown:
        raise InputError(path, None, f"unknown mapping keys {unknown}; use {list(KEYS)}")
    table, first_line = _read_arrow(path)
    columns = table.column_names
    cols = {key: _column_of(path, key, mapping, columns) for key in KEYS}
    constants = {"testbed": testbed, "metric": metric, "target": target,
                 "refset": "+".join(sorted(refs)) if refs else None, "level": level}
    for key in ("testbed", "metric", "target", "refset", "value"):
        if cols[key] is None and constants.get(key) is None:
            raise InputError(path, 1, f"no {key} column and no {key} given (columns: {columns})")
    expr = {k: f"nullif(trim({_ident(col)}::varchar), '')" if (col := cols[k])
            else f"${k}::varchar" for k in KEYS}
    given = {k: constants.get(k) for k in KEYS if not cols[k]}
    con = duckdb.connect()
    try:
        con.register("t", table.append_column("_line", pa.array(
            range(first_line, first_line + table.num_rows), pa.int32())))
        con.execute(f"""
            create temp table rows as select _line as line,
                   {expr['testbed']} as testbed, {expr['metric']} as metric,
                   {expr['target']} as target, {expr['refset']} as refset,
                   {expr['level']} as level, {expr['seg_id']} as seg_id,
                   {expr['seg_in_doc']} as seg_in_doc, {expr['doc_id']} as doc_id,
                   case when not list_contains($missing, {expr['value']}) then {expr['value']} end
                   as value, {expr['variant']} as variant
            from t""", {**given, "missing": list(MISSING)})
        _check(con, path, variant)
        con.execute("""
            create temp view typed as
            select *, coalesce(level, case when seg_id is not null or seg_in_doc is not null
                   then 'seg' when doc_id is not null then 'doc' else 'sys' end) as lvl
            from rows""")
        _check_levels(con, path)
        frame = to_arrow(con.sql(named_query("table_score_frame")))
    finally:
        con.close()
    return ScoreFrame(frame.cast(FRAME_SCHEMA), [Source(str(path), "table")])


def _check(con: duckdb.DuckDBPyConnection, path: Path, variant: str | None) -> None:
    checks = [
        ("value is not null and try_cast(value as double) is null", "value",
         "score {!r} is not a number"),
        ("seg_id is not null and (try_cast(seg_id as integer) is null "
         "or try_cast(seg_id as integer) < 1 or try_cast(seg_id as double) <> "
         "try_cast(seg_id as integer))",  # DuckDB rounds '3.5' to 4
         "seg_id", "seg_id {!r} is not a whole number >= 1"),
        ("seg_in_doc is not null and (try_cast(seg_in_doc as integer) is null "
         "or try_cast(seg_in_doc as integer) < 1 or try_cast(seg_in_doc as double) <> "
         "try_cast(seg_in_doc as integer))", "seg_in_doc",
         "seg_in_doc {!r} is not a whole number >= 1"),
        ("testbed is null or metric is null or target is null or refset is null",
         "coalesce(testbed, metric, target, refset)", "a name column is empty ({!r})"),
    ]
    if variant is not None:
        checks.append(("variant is not null and variant <> $variant", "variant",
                       "variant {!r} differs from the one imported (use --variant)"))
    for where, col, message in checks:
        params = {"variant": variant} if "$variant" in where else {}
        rows = con.execute(f"select line, {col} from rows where {where} order by line limit 1",
                           params).fetchall()
        if rows:
            raise InputError(path, rows[0][0], message.format(rows[0][1]))


def _check_levels(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """A doc or sys row must not name a segment, a sys row no document."""
    rows = con.execute(named_query("table_level_conflict")).fetchall()
    if not rows:
        return
    line, level, seg, doc = rows[0]
    unit = f"segment {seg}" if seg is not None else f"document {doc!r}"
    raise InputError(path, line, f"the row names {unit}, but its level is {level} (--level or "
                     "the level column): the file has "
                     f"{'segment' if seg is not None else 'document'}-level rows")


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def read_score_lines(path: str | Path, testbed: str, metric: str, target: str,
                     refs: tuple[str, ...], n_segments: int | None = None) -> ScoreFrame:
    """One score per line: line n is segment n (``None`` = missing)."""
    if not (metric and target and refs):
        raise InputError(path, None, "one-score-per-line files need --metric, --target and --ref")
    block = ScoreSet(metric, target, refs, "seg")
    lines = numbered_lines(path)
    for position, (line, text) in enumerate(lines, start=1):
        if line != position:
            raise InputError(path, position, "blank line: line n must be segment n")
        block.add(parse_score(path, line, text, {"None"}), seg=position, line=line)
    if n_segments is not None and len(lines) != n_segments:
        raise InputError(path, lines[-1][0], f"{len(lines)} lines, the test bed has "
                         f"{n_segments} segments")
    return ScoreFrame.from_sets([block], Source(str(path), "lines"), testbed)


# --- export -----------------------------------------------------------------------------------


def export_table(store: Store, source: str, path: str | Path, fmt: str | None = None,
                 is_query: bool = False) -> int:
    """Write a table, view or (``is_query``) SQL query to CSV (RFC 4180 quoting), raw TSV
    (no quoting: a value holding a tab or line break is refused), Parquet or JSON (one
    record a line).  Returns the rows written."""
    path = Path(path)
    fmt = fmt or table_format(path)
    if fmt not in FORMATS:
        raise InputError(path, None, f"format must be one of {FORMATS}")
    body = source if is_query else f"select * from {_ident(_known_table(store, source))}"
    options = {"csv": "format csv, header true", "tsv": "format csv, header true, "
               "delimiter '\t', quote '', escape ''", "parquet": "format parquet",
               "json": "format json"}[fmt]
    try:
        if fmt == "tsv":
            _check_tsv(store, body, path)
        path.parent.mkdir(parents=True, exist_ok=True)
        store.con.execute(f"copy ({body}) to $path ({options})", {"path": str(path)})
        return int(store.query(f"select count(*) from ({body})")[0][0])
    except duckdb.Error as exc:
        raise InputError(path, None, f"export failed: {exc}") from None


def _known_table(store: Store, name: str) -> str:
    known = {r[0] for r in store.query(
        "select table_name from information_schema.tables where table_schema = 'main'")}
    if name not in known:
        raise NotFound(f"no table or view named {name!r} (list them with `ulcdb sql \"select "
                       "table_name, table_type from information_schema.tables\"`; or pass a "
                       "query with --query)")
    return name


def _check_tsv(store: Store, body: str, path: Path) -> None:
    """Raw TSV cannot hold a tab or line break in a value or a column name."""
    columns = [d[0] for d in store.con.execute(f"select * from ({body}) limit 0").description]
    for name in columns:
        if re.search(r"[\t\n\r]", name):
            raise InputError(path, None, f"column name {name!r} holds a tab or line break, "
                             "which TSV cannot hold: export as .csv or .parquet")
    broken = [f"regexp_matches({_ident(c)}::varchar, $breaks)" for c in columns]
    picks = ", ".join(f"case when {test} then {i} end" for i, test in enumerate(broken))
    rows = store.query(
        f"select _ulcdb_row, coalesce({picks}) from (select row_number() over () as "
        f"_ulcdb_row, * from ({body})) where {' or '.join(broken)} order by 1 limit 1",
        {"breaks": BREAKS})
    if rows:
        n, column = rows[0]
        raise InputError(path, None, f"row {n}, column {columns[column]!r}: the value holds a "
                         "tab or line break, which TSV cannot hold: export as .csv or .parquet")
