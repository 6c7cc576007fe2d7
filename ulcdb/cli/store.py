"""Commands that create and look into the store: init, info, list ..., sql."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ulcdb.cli.common import Fmt, open_store, render, render_batches, render_listing, state
from ulcdb.cli.options import FmtOpt, TestbedOpt
from ulcdb.ops.access import read_only as refuse_write

if TYPE_CHECKING:  # the store (duckdb) is imported when a command runs, not for --help
    from ulcdb.store.database import Store

SQL_BATCH = 10_000  # rows `ulcdb sql` fetches and writes at a time (csv, tsv, json)

list_app = typer.Typer(help="List what the store holds.", no_args_is_help=True)


def init(
    force: Annotated[bool, typer.Option("--force", help="Delete an existing store first.")] = False,
) -> None:
    """Create an empty store (`ingest` and `demo` also create a missing one; the other commands
    refuse it, but for `list metrics`, `list sets` and `describe`, which need none).

    Example: ulcdb --db my.duckdb init
    """
    from ulcdb.store.database import ensure_unlocked

    if state.read_only:  # before anything is deleted
        raise refuse_write(state.db, "a new store")
    if force and state.db.exists():
        ensure_unlocked(state.db)  # never delete a store another process is writing
        state.db.unlink()
        wal = state.db.with_name(state.db.name + ".wal")
        if wal.exists():
            wal.unlink()
    with open_store(create=True):
        pass
    typer.echo(f"store ready: {state.db}")


def info(fmt: FmtOpt = Fmt.table) -> None:
    """Summarise the store: test beds with their counts, criteria and metrics computed.

    Example: ulcdb info
    """
    with open_store(read_only=True) as store:
        cur = store.con.execute("select * from testbed_summary")
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
        if fmt == Fmt.table:
            version = store.scalar("select value from schema_info where key = 'schema_version'")
            typer.echo(f"store: {state.db} (schema version {version})")
        render(cols, rows, fmt, title="test beds")


def sql(
    query: Annotated[str, typer.Argument(help="Any SQL DuckDB understands.")],
    fmt: FmtOpt = Fmt.table,
) -> None:
    """Run a query against the store and print the result.

    Example: ulcdb sql "select metric, translator, value from scores where level = 'sys'"
    """
    with open_store(read_only=True) as store:
        run_sql(store, query, fmt)


def run_sql(store: Store, query: str, fmt: Fmt) -> None:
    from ulcdb.ops.query import batches, result

    found = result(store, query)
    if found is None:
        typer.echo("ok")
        return
    columns, cur = found
    if fmt == Fmt.table:
        render(columns, next(batches(cur, None), []), fmt)
    else:  # fetched and written in batches: a result larger than memory still fits a file
        render_batches(columns, batches(cur, SQL_BATCH), fmt)


def named_query(name: str) -> str:
    """schema/queries/NAME.sql (the store's module, and duckdb, loaded when a command runs)."""
    from ulcdb.store import database

    return database.named_query(name)


def _list(sql_text: str, params: list[Any], fmt: Fmt, title: str) -> None:
    with open_store(read_only=True) as store:
        cur = store.con.execute(sql_text, params)
        render_listing([d[0] for d in cur.description], cur.fetchall(), fmt, title)


def _tb(store_testbed: str | None) -> str:
    if store_testbed:
        return store_testbed
    with open_store(read_only=True) as store:
        return store.only_testbed()


@list_app.command("testbeds")
def list_testbeds(fmt: FmtOpt = Fmt.table) -> None:
    """Test beds with languages and origin.  Example: ulcdb list testbeds"""
    _list(named_query("list_testbeds"), [], fmt, "test beds")


def _translators(role: str, testbed: str | None, fmt: Fmt) -> None:
    _list(named_query("list_translators"), [_tb(testbed), role], fmt, f"{role}s")


@list_app.command("systems")
def list_systems(testbed: TestbedOpt = None, fmt: FmtOpt = Fmt.table) -> None:
    """MT systems of a test bed.  Example: ulcdb list systems -t sample"""
    _translators("system", testbed, fmt)


@list_app.command("references")
def list_references(testbed: TestbedOpt = None, fmt: FmtOpt = Fmt.table) -> None:
    """Human references of a test bed.  Example: ulcdb list references"""
    _translators("reference", testbed, fmt)


@list_app.command("documents")
def list_documents(testbed: TestbedOpt = None, fmt: FmtOpt = Fmt.table) -> None:
    """Documents with their segment counts.  Example: ulcdb list documents"""
    _list(named_query("list_documents"), [_tb(testbed)], fmt, "documents")


@list_app.command("criteria")
def list_criteria(testbed: TestbedOpt = None, fmt: FmtOpt = Fmt.table) -> None:
    """Human assessment criteria with counts per level.  Example: ulcdb list criteria"""
    _list(named_query("list_criteria"), [_tb(testbed)], fmt, "criteria")


@list_app.command("metrics")
def list_metrics(
    pattern: Annotated[str | None, typer.Argument(
        help="Name pattern: shell wildcards (BLEU*, *STM*), else a substring; any case.")
    ] = None,
    family: Annotated[str | None, typer.Option("--family", help="Only this family (BLEU, "
                                               "METEOR, SP, DP, ...).")] = None,
    computed: Annotated[bool, typer.Option("--computed", help="Only metrics with scores.")] = False,
    long: Annotated[bool, typer.Option("--long", help="Every column, descriptions "
                                       "included.")] = False,
    fmt: FmtOpt = Fmt.table,
) -> None:
    """The metric catalogue: name, family, level, languages, range and whether scores are
    stored, for every built-in and imported metric.  `ulcdb describe METRIC` says all about one.

    Example: ulcdb list metrics 'DP-*' --computed
    """
    from ulcdb.metrics import catalogue

    with _maybe_store() as store:
        found = catalogue.select(catalogue.entries(store), pattern, family, computed)
    columns = catalogue.LONG if long else catalogue.COMPACT
    render_listing(columns, [e.row(long) for e in found], fmt,
                   f"{len(found)} metrics (scores on a 0-1 scale unless their range says "
                   "otherwise)")


@contextmanager
def _maybe_store() -> Iterator[Store | None]:
    """The store, or None when there is none yet: the built-in catalogue needs no store.  A
    store named with --db or ULCDB_DB that does not exist (yet) gets a note on stderr, so a
    mistyped path is still noticed."""
    if not state.db.exists():
        if state.db_given:
            typer.echo(f"note: no store at {state.db}: the built-in catalogue only", err=True)
        yield None
        return
    with open_store(read_only=True) as store:
        yield store


def describe(
    metric: Annotated[str, typer.Argument(help="A metric name, exactly as listed.")],
    fmt: FmtOpt = Fmt.table,
) -> None:
    """Everything about one metric: what it computes, family, level, languages, range, the
    sets holding it, its reference implementation.

    Example: ulcdb describe MTR-wnsyn
    """
    from ulcdb.metrics import catalogue

    with _maybe_store() as store:
        info = catalogue.describe(store, metric)
    if fmt != Fmt.table:
        render(list(info), [tuple(info.values())], fmt)
        return
    for key, value in info.items():
        typer.echo(f"{key + ':':<26}{value}")


@list_app.command("sets")
def list_sets(fmt: FmtOpt = Fmt.table) -> None:
    """Named sets: the built-in metric sets (LEX, metrics_LEX, metrics_SP, ...) and the
    store's sets of metrics, systems, references and segments.  Example: ulcdb list sets"""
    from ulcdb.metrics import catalogue

    with _maybe_store() as store:  # a table shows the first members of a long set
        rows = catalogue.set_rows(store, shorten=12 if fmt == Fmt.table else None)
    render_listing(catalogue.SET_COLUMNS, rows, fmt, "named sets")


def register(app: typer.Typer) -> None:
    app.command()(init)
    app.command()(info)
    app.command()(describe)
    # A query may start with an SQL comment ("-- ..."): not an option.
    app.command(context_settings={"ignore_unknown_options": True})(sql)
