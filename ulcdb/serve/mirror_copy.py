"""Writing the result of a DuckDB query into a SQLite table of the serve mirror: the SQLite
type of each column, the expressions that turn DuckDB values into ones SQLite stores (lists
and structs as JSON text, timestamps as text), and the copy itself, a batch of rows at a
time (ulcdb.serve.mirror decides what is copied)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any

import duckdb

SqlParams = list[Any]  # parameters of a DuckDB query
Row = tuple[Any, ...]  # a row DuckDB returns
Con = duckdb.DuckDBPyConnection
Lite = sqlite3.Connection

BATCH = 50_000


def sqlite_type(duck_type: str) -> str:
    t = duck_type.upper()
    if any(k in t for k in ("INT", "BOOL")) and "[]" not in t and "INTERVAL" not in t:
        return "INTEGER"
    if any(k in t for k in ("DOUBLE", "FLOAT", "REAL", "DECIMAL")) and "[]" not in t:
        return "REAL"
    return "TEXT"


def select_list(rel: duckdb.DuckDBPyRelation) -> tuple[list[str], list[str], list[str]]:
    """Columns, SQLite types, and DuckDB expressions that turn each value into one SQLite
    stores (lists and structs as JSON text, timestamps as ISO text, decimals as doubles)."""
    names, types, exprs = [], [], []
    for name, dtype in zip(rel.columns, rel.types, strict=True):
        t = str(dtype).upper()
        q = '"' + name.replace('"', '""') + '"'
        if "[]" in t or t.startswith(("STRUCT", "MAP")):
            exprs.append(f"to_json({q})::varchar")
        elif t.startswith(("TIMESTAMP", "DATE", "TIME", "INTERVAL", "UUID", "HUGEINT")):
            exprs.append(f"{q}::varchar")
        elif t.startswith("DECIMAL"):
            exprs.append(f"{q}::double")
        else:
            exprs.append(q)
        names.append(name)
        types.append(sqlite_type(t))
    return names, types, exprs


def query_batches(con: Con, sql: str, params: SqlParams | None
                  ) -> tuple[list[str], list[str], Iterator[list[Row]]]:
    rel = con.sql(sql, params=params) if params else con.sql(sql)
    names, types, exprs = select_list(rel)
    cur = con.execute(f"select {', '.join(exprs)} from ({sql})", params or [])

    def rows() -> Iterator[list[Row]]:
        while chunk := cur.fetchmany(BATCH):
            yield chunk

    return names, types, rows()


def create_table(lite: Lite, table: str, names: list[str], types: list[str]) -> None:
    cols = ", ".join(f'"{n}" {t}' for n, t in zip(names, types, strict=True))
    lite.execute(f'create table if not exists "{table}" ({cols})')


def copy_into(con: Con, lite: Lite, table: str, sql: str, params: SqlParams | None = None,
              extra: Mapping[str, object] | None = None) -> int:
    """Append the result of one DuckDB query to a SQLite table (created on first use);
    ``extra`` adds constant leading columns (e.g. the metric set it was computed for)."""
    names, types, chunks = query_batches(con, sql, params)
    extra = extra or {}
    lead = list(extra)
    lead_types = ["TEXT" if isinstance(v, str) else "INTEGER" for v in extra.values()]
    create_table(lite, table, lead + names, lead_types + types)
    marks = ", ".join("?" * (len(lead) + len(names)))
    const = tuple(extra.values())
    n = 0
    for chunk in chunks:
        if const:
            chunk = [const + r for r in chunk]
        lite.executemany(f'insert into "{table}" values ({marks})', chunk)
        n += len(chunk)
    return n
