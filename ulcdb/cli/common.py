"""What every command shares: the store option, output formatting, progress."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ulcdb.errors import NotFound, UlcdbError, choice
from ulcdb.ops.access import STORES
from ulcdb.ops.access import read_only as refuse_write

if TYPE_CHECKING:  # the store (duckdb, pyarrow) is imported by the commands that open one
    from ulcdb.scoring.engines import Engine
    from ulcdb.store.database import Store

console = Console(width=None if sys.stdout.isatty() else 200, markup=False)  # names hold [ ]
err_console = Console(stderr=True, markup=False)


def one_of(what: str, allowed: Sequence[str], make: Callable[[str], Any] = str
           ) -> dict[str, Any]:
    """``typer.Option``'s (or ``Argument``'s) keywords for a value of fixed choices (its
    ``Literal`` or Enum annotation, which ``--help`` shows as ``<a|b|c>``): a value outside
    them is refused by the library's ``ulcdb.errors.choice`` (``what`` as the API names it),
    so the command line says the API's one line instead of Typer's usage box; ``make``
    builds the value (an Enum)."""
    def parse(value: str | Enum) -> Any:  # an Enum: the default
        return make(choice(what, value.value if isinstance(value, Enum) else value, allowed))

    return {"parser": parse}


class Fmt(str, Enum):
    table = "table"
    csv = "csv"
    tsv = "tsv"
    json = "json"


DEFAULT_DB = Path("ulcdb.duckdb")


class State:
    """The root options, set by the root callback: the store (--db, else $ULCDB_DB, else
    DEFAULT_DB) and whether it was named."""

    db: Path = DEFAULT_DB
    db_given: bool = False  # --db or ULCDB_DB named the store (else the default path)
    read_only: bool = False  # --read-only: never write to the store


state = State()


@contextmanager
def open_store(read_only: bool = False, create: bool = False) -> Iterator[Store]:
    """The store named by --db / ULCDB_DB.  Only commands that fill a store (init, ingest,
    demo) create a missing one: for the others a mistyped path is an error, not a new empty
    store."""
    from ulcdb.store.database import Store

    if state.read_only and not read_only:
        raise refuse_write(state.db, STORES)
    if not create and not state.db.exists():
        raise NotFound(f"no store at {state.db} (create one with `ulcdb init` or "
                       "`ulcdb ingest testbed`; --db or ULCDB_DB names another)")
    new = not state.db.exists()
    store = Store(state.db, read_only=read_only and state.db.exists())
    try:
        yield store
    except BaseException:
        if new:  # a failed first ingest leaves no empty store behind
            store.close()
            for path in (state.db, state.db.with_name(state.db.name + ".wal")):
                path.unlink(missing_ok=True)
        raise
    finally:
        store.close()


class StoreFile:
    """The store of --db as the library's ``Access``: opened read-only to read, and
    writable only when a command must write (so commands with nothing to store run beside
    other readers)."""

    def read(self) -> AbstractContextManager[Store]:
        return open_store(read_only=True)

    def write(self, what: str) -> AbstractContextManager[Store]:
        if state.read_only:
            raise refuse_write(state.db, what)
        return open_store()


store_file = StoreFile()


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def cell_text(value: Any, digits: int = 4) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        value += 0.0  # -0.0 (WMT21's long TSV writes MQM 0 as "-0.0") shows as 0.0000
        small = 0 < abs(value) < 10.0 ** -digits
        return f"{value:.6g}" if abs(value) >= 1e6 or small else f"{value:.{digits}f}"
    return str(value)


def render(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: Fmt = Fmt.table,
           title: str | None = None, digits: int = 4) -> None:
    """Print a result as a rich table, CSV, TSV or JSON records."""
    if fmt != Fmt.table:
        render_batches(columns, [rows], fmt)
        return
    # Text, not markup: a label like "BLEU [case:lc]" or a translation "[laughs]" is data.
    table = Table(show_lines=False)
    for c in columns:
        table.add_column(Text(str(c)), overflow="fold")
    for r in rows:
        table.add_row(*[Text(cell_text(v, digits)) for v in r])
    if title and len(title) <= console.measure(table).maximum:
        table.title = Text(title)
    elif title:  # a title wider than the table: its own line, not folded into a narrow column
        console.print(Text(title))
    console.print(table)


def render_listing(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: Fmt,
                   title: str) -> None:
    """`ulcdb list ...`: as ``render``, but the table is a rich one only on a terminal it
    fits; piped, or longer than the terminal, it is plain aligned columns (``plain_table``),
    which grep reads a row a line and which prints the 1,735 metrics in milliseconds, where
    rich takes a second to draw them."""
    if fmt != Fmt.table or (console.is_terminal and len(rows) + 6 <= console.size.height):
        render(columns, rows, fmt, title=title)
        return
    typer.echo(plain_table(columns, rows, title), nl=False)


def plain_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str,
                digits: int = 4) -> str:
    """The title, a header, a rule and one line per row, columns two spaces apart, each as
    wide as all but its rare longest cells (at most 1 in 50, which push the rest of their
    line on: one long list of languages does not widen 1,735 lines)."""
    cells = [[cell_text(v, digits).replace("\n", " ") for v in r] for r in rows]
    widths = [_column_width(str(c), [r[j] for r in cells]) for j, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    lines = [title, line([str(c) for c in columns]), line(["-" * w for w in widths])]
    return "\n".join([*lines, *map(line, cells)]) + "\n"


def _column_width(header: str, cells: list[str]) -> int:
    if not cells:
        return len(header)
    lengths = sorted(len(c) for c in cells)
    return max(len(header), lengths[math.ceil(0.98 * len(lengths)) - 1])


def render_batches(columns: Sequence[str], batches: Iterable[Sequence[Sequence[Any]]],
                   fmt: Fmt) -> None:
    """Print CSV, TSV or JSON records batch by batch as they come (a result larger than memory
    is written whole); the same text ``render`` prints for the rows all at once."""
    if fmt == Fmt.table:
        raise ValueError("a rich table is not printed in batches")
    if fmt in (Fmt.csv, Fmt.tsv):
        delimiter = "," if fmt == Fmt.csv else "\t"
        typer.echo(_delimited([columns], delimiter), nl=False)
        for rows in batches:
            typer.echo(_delimited([["" if v is None else v for v in r] for r in rows],
                                  delimiter), nl=False)
        return
    first = True  # strict JSON: NaN and infinities become null; json.dumps(rows, indent=1)'s text
    for rows in batches:
        for r in rows:
            record = json.dumps({c: _json_value(v) for c, v in zip(columns, r, strict=True)},
                                default=str, ensure_ascii=False, indent=1)
            typer.echo(("[\n" if first else ",\n") + " " + record.replace("\n", "\n "),
                       nl=False)
            first = False
    typer.echo("[]" if first else "\n]")


@contextmanager
def progress_bar(total: int, verb: str = "scoring") -> Iterator[Callable[[str, int], None]]:
    """The library's progress callback (``ulcdb.scoring.progress.Progress``) as a rich bar
    on stderr, gone when done; nothing at all is written when stderr is no terminal (piped,
    or a test's runner: rich would still end with a blank line), so scripts read only the
    results."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                        transient=True, disable=not err_console.is_terminal)
    task = progress.add_task(verb, total=total)

    def advance(label: str, n: int) -> None:
        progress.update(task, advance=n, description=f"{verb} {label}".rstrip())

    with progress:
        yield advance


def _delimited(rows: Iterable[Sequence[Any]], delimiter: str) -> str:
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return buf.getvalue()


class EngineName(str, Enum):
    local = "local"
    ray = "ray"


EngineOpt = Annotated[EngineName, typer.Option(
    "--engine", help="Where the heavy work runs: local processes, or Ray (a local cluster of "
    "--jobs CPUs, or the one at --address; pip install 'ulcdb\\[ray]').",
    **one_of("engine", [e.value for e in EngineName], EngineName))]
AddressOpt = Annotated[str | None, typer.Option(
    "--address", help="With --engine ray: the cluster to join (e.g. ray://head:10001, or "
    "auto for a running one); default: start a local one.")]


def engine_for(engine: EngineName, jobs: int | None, address: str | None) -> Engine | None:
    """The engine of --engine/--address; None for local processes (each command's own)."""
    from ulcdb.scoring.engines import make_engine

    runner = make_engine(engine.value, jobs, address)  # checks --address, starts Ray
    return None if engine == EngineName.local else runner


ScaleOpt = Annotated[int, typer.Option(
    "--scale", help="Tables on ulcdb's 0-1 scale (1) or sacrebleu's 0-100 (100) for the "
    "metrics bounded by 1; the store keeps 0-1, csv/json too.")]
WidthOpt = Annotated[int, typer.Option("-w", "--width", help="Decimals in tables.")]


def check_scale(scale: int, width: int) -> None:
    if scale not in (1, 100):
        raise UlcdbError(f"--scale is 1 or 100, not {scale}")
    if not 0 <= width <= 15:
        raise UlcdbError(f"--width is 0 to 15 decimals, not {width}")
