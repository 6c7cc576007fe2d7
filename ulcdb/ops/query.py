"""`ulcdb sql` and ``Database.sql``: any query over the store, DuckDB's errors as
``QueryError`` in one line."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from ulcdb.errors import QueryError
from ulcdb.store.database import Store

if TYPE_CHECKING:  # `ulcdb sql` prints rows: Arrow (0.1-0.2 s to import) only for table()
    import pyarrow as pa

Params = Sequence[Any] | Mapping[str, Any] | None


def _error(exc: duckdb.Error) -> QueryError:
    """DuckDB's message on one line, its did-you-mean included (not the quoted query)."""
    lines = str(exc).strip().splitlines()
    cut = next((i for i, line in enumerate(lines) if line.startswith("LINE ")), len(lines))
    text = " ".join(line.strip() for line in lines[:cut] if line.strip())
    return QueryError(f"SQL error: {text or type(exc).__name__}")


def execute(store: Store, query: str, params: Params = None) -> duckdb.DuckDBPyConnection:
    """The cursor of ``query`` run with ``params``."""
    try:
        cur = store.con.execute(query, params or None)
    except duckdb.Error as exc:
        raise _error(exc) from exc
    if cur is None:  # DuckDB returns no cursor for an empty statement
        raise QueryError(EMPTY)
    return cur


EMPTY = "no SQL statement given (the query is empty or only comments)"


def result(store: Store, query: str, params: Params = None
           ) -> tuple[list[str], duckdb.DuckDBPyConnection] | None:
    """The columns and the open cursor of ``query`` (its rows for the caller to fetch, in
    batches where it writes them); None for a statement that returns none."""
    store.con.execute("set enable_progress_bar = false")  # DuckDB draws it into stdout
    cur = execute(store, query, params)
    if cur.description is None:
        return None
    return [d[0] for d in cur.description], cur


def batches(cur: duckdb.DuckDBPyConnection, size: int | None
            ) -> Iterator[list[tuple[Any, ...]]]:
    """The cursor's rows, ``size`` at a time (None: all at once); errors as QueryError."""
    while True:
        try:
            chunk = cur.fetchall() if size is None else cur.fetchmany(size)
        except duckdb.Error as exc:
            raise _error(exc) from exc
        if not chunk:
            return
        yield chunk
        if size is None:
            return


def rows(store: Store, query: str, params: Params = None
         ) -> tuple[list[str], list[tuple[Any, ...]]] | None:
    """The columns and rows of ``query``; None for a statement that returns none."""
    found = result(store, query, params)
    if found is None:
        return None
    return found[0], next(batches(found[1], None), [])


def table(store: Store, query: str, params: Params = None) -> pa.Table:
    """The result of ``query`` as an Arrow table (a statement's count for one without)."""
    try:
        relation = store.con.sql(query, params=params or None)
        if relation is None:  # an empty statement
            raise QueryError(EMPTY)
        return relation.to_arrow_table()
    except duckdb.Error as exc:
        raise _error(exc) from exc
