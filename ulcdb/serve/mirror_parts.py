"""Incremental mirror builds: each mirrored table is made of parts (a whole table, the rows
of one score batch, the rows one analysis macro call gave, the intervals and the segment
means of one test bed's metric), each with a fingerprint of what it was built from.  The
mirror keeps the fingerprints in a manifest table; a rebuild copies the old mirror and
rewrites only the parts whose fingerprint changed, deletes the parts that are gone, and
appends the new ones.

Fingerprints are DuckDB's ``hash`` of every row (doubles rounded to 9 decimals) summed
(order-free, duplicates counted) with the row count: of the rows a part copies (tables,
score batches), or of the scores an analysis reads plus the dimension tables (test beds,
translators, reference sets, segments, schema; an analysis of one test bed reads only that
test bed's rows of them).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import duckdb

MANIFEST = "ulcdb_mirror_parts"


@dataclass(frozen=True)
class Part:
    """The rows of ``table`` whose columns equal ``where`` (all rows when empty)."""

    table: str
    where: tuple[tuple[str, Any], ...]
    fingerprint: str

    @property
    def key(self) -> str:
        return json.dumps([self.table, dict(self.where)], sort_keys=True)


def part(table: str, where: dict[str, Any], fingerprint: str) -> Part:
    return Part(table, tuple(sorted(where.items())), fingerprint)


def digest(*items: object) -> str:
    """A fingerprint of JSON-able items (query, parameters, fingerprints of the inputs)."""
    return hashlib.md5(json.dumps(items, sort_keys=True, default=str).encode()).hexdigest()


def _row_hash(rel: duckdb.DuckDBPyRelation) -> str:
    """``hash`` of a row of the query ``q`` over the columns of ``rel``, doubles rounded to 9
    decimals: DuckDB's parallel sums differ in the last bits from run to run, which must not
    count as a change."""
    cols = []
    for name, dtype in zip(rel.columns, rel.types, strict=True):
        q = 'q."' + name.replace('"', '""') + '"'
        cols.append(f"round({q}, 9)" if str(dtype).upper() in ("DOUBLE", "FLOAT") else q)
    return f"hash({', '.join(cols)})" if cols else "0"


def rows_fingerprint(con: duckdb.DuckDBPyConnection, sql: str,
                     params: list[Any] | None = None) -> str:
    """Row count and the sum of the rows' hashes of a query."""
    rel = con.sql(sql, params=params) if params else con.sql(sql)
    rows = con.execute(f"select count(*), sum({_row_hash(rel)})::varchar "
                       f"from ({sql}) q", params or []).fetchall()
    return f"{rows[0][0]}:{rows[0][1]}"


def grouped_sums(con: duckdb.DuckDBPyConnection, sql: str, keys: str,
                 params: list[Any] | None = None, skip: tuple[str, ...] = ()
                 ) -> list[tuple[Any, ...]]:
    """Per group of the query's rows by the columns ``keys``: the keys, the row count and
    the exact sum of the rows' hashes over the query's columns but ``skip`` (those the
    fingerprint is not of, such as a grouping column the query adds).  Groups add up: the
    count and the sum over several groups make the fingerprint of their rows
    (``fingerprint``)."""
    rel = con.sql(sql, params=params) if params else con.sql(sql)
    hashed = rel.project(", ".join('"' + c.replace('"', '""') + '"' for c in rel.columns
                                   if c not in skip))
    rows = con.execute(f"select {keys}, count(*), sum({_row_hash(hashed)}) "
                       f"from ({sql}) q group by all", params or []).fetchall()
    return [tuple(r) for r in rows]


def fingerprint(count: int, total: int | None) -> str:
    """The fingerprint of rows from their count and hash sum, as ``rows_fingerprint`` says."""
    return f"{count}:{total}"


def read_manifest(lite: sqlite3.Connection) -> dict[str, str] | None:
    """Part key -> fingerprint of a mirror; None when it has no manifest (an old mirror)."""
    try:
        return dict(lite.execute(f"select key, fingerprint from {MANIFEST}").fetchall())
    except sqlite3.Error:
        return None


def write_manifest(lite: sqlite3.Connection, fingerprints: dict[str, str]) -> None:
    lite.execute(f"drop table if exists {MANIFEST}")
    lite.execute(f"create table {MANIFEST} (key text primary key, fingerprint text)")
    lite.executemany(f"insert into {MANIFEST} values (?, ?)", sorted(fingerprints.items()))


def tables_of(lite: sqlite3.Connection) -> set[str]:
    return {r[0] for r in lite.execute("select name from sqlite_master where type = 'table'")}


def _delete(lite: sqlite3.Connection, table: str, wheres: list[dict[str, Any]]) -> None:
    """Delete the rows of parts, one statement per column set (``in`` over JSON values)."""
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for w in wheres:
        by_columns.setdefault(tuple(sorted(w)), []).append(w)
    for cols, group in by_columns.items():
        if len(cols) == 1:
            lite.execute(f'delete from "{table}" where "{cols[0]}" in '
                         "(select value from json_each(?))",
                         [json.dumps([w[cols[0]] for w in group])])
            continue
        cond = " and ".join(f'"{c}" is ?' for c in cols)
        lite.executemany(f'delete from "{table}" where {cond}',
                         [[w[c] for c in cols] for w in group])


Writer = Callable[[list[Part]], set[str]]  # writes the parts' rows, returns the failed keys


def apply(lite: sqlite3.Connection, parts: Iterable[Part], writers: dict[str, Writer],
          old: dict[str, str]) -> tuple[dict[str, str], set[str], int]:
    """Bring the mirror to ``parts``: tables of no part dropped, parts gone deleted, parts
    whose fingerprint is not ``old``'s rewritten (a table all of whose parts changed is
    dropped and written anew).  Tables that share one writer (the same object: the
    analysis tables, written a test bed at a time) get one call with the stale parts of
    them all, in table order.  Returns the new manifest, the tables changed and the number
    of parts written."""
    by_table: dict[str, list[Part]] = {}
    for p in parts:
        by_table.setdefault(p.table, []).append(p)
    old_tables: dict[str, list[str]] = {}
    for key in old:
        old_tables.setdefault(json.loads(key)[0], []).append(key)
    changed: set[str] = set()
    for table in set(old_tables) - set(by_table):
        lite.execute(f'drop table if exists "{table}"')
        changed.add(table)
    manifest: dict[str, str] = {}
    to_write: dict[int, tuple[Writer, list[Part]]] = {}
    for table, tparts in by_table.items():
        stale = _cleared(lite, table, tparts, old, old_tables.get(table, []))
        rewritten = {p.key for p in stale or []}  # (a set: tables of thousands of parts)
        manifest.update((p.key, p.fingerprint) for p in tparts if p.key not in rewritten)
        if stale is not None:
            changed.add(table)
            to_write.setdefault(id(writers[table]), (writers[table], []))[1].extend(stale)
    written = 0
    for write, stale in to_write.values():
        failed = write(stale) if stale else set()
        written += len(stale)
        manifest.update((p.key, p.fingerprint) for p in stale if p.key not in failed)
    return manifest, changed, written


def _cleared(lite: sqlite3.Connection, table: str, tparts: list[Part], old: dict[str, str],
             old_keys: list[str]) -> list[Part] | None:
    """The parts of ``table`` to write, their old rows and those of parts gone deleted (the
    table dropped when all its parts changed); None when the table is unchanged."""
    keys = {p.key for p in tparts}
    stale = [p for p in tparts if old.get(p.key) != p.fingerprint]
    gone = [k for k in old_keys if k not in keys]
    if not stale and not gone:
        return None
    whole = len(stale) == len(tparts) or any(not p.where for p in stale)
    if whole or table not in tables_of(lite):
        lite.execute(f'drop table if exists "{table}"')
        return tparts
    _delete(lite, table, [dict(p.where) for p in stale] + [json.loads(k)[1] for k in gone])
    return stale
