"""The ulcdb command line: a thin layer over the library; errors become one clean line."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ulcdb import __version__
from ulcdb.cli.common import DEFAULT_DB, state
from ulcdb.cli.lazy import LazyCommands, summary
from ulcdb.errors import ChoiceError, UlcdbError
from ulcdb.scoring.workers import Terminated, terminate_on_sigterm


def reflow(text: str) -> str:
    """Join the source-wrapped lines of each docstring paragraph into one line.

    Typer's rich help keeps single line breaks, which then break again at the terminal's
    width; paragraphs that are lists, examples, indented or marked ``\\b`` keep their lines.
    """
    def keep(par: str) -> bool:
        return par.startswith("\b") or any(
            line.startswith((" ", "- ", "* ", "Example:")) for line in par.splitlines()[1:])

    return "\n\n".join(par if keep(par) else " ".join(x.strip() for x in par.splitlines())
                       for par in inspect.cleandoc(text).split("\n\n"))


def _reflow_command(command: Any) -> None:
    if command.help:
        command.help = reflow(command.help)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _reflow_command(sub)


class _Group(TyperGroup):
    """The root command: its commands are loaded lazily (ulcdb.cli.lazy), and it is the one
    place where ulcdb's exceptions become a clean one-line message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(_reflow_command)
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:  # the names alone: nothing is loaded
        return list(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if self._listing:  # `ulcdb --help` shows one line of each: no module is imported
            return summary(cmd_name) if cmd_name in self.commands else None
        return self.commands.get(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: Any) -> Any:  # Typer's private vendored click.Context; any result
        try:
            return super().invoke(ctx)
        except UlcdbError as exc:  # a bad choice is a usage error: 2, as Typer's own
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(2 if isinstance(exc, ChoiceError) else 1) from exc
        except BrokenPipeError:  # the reader stopped early (`| head`): Typer exits 1 quietly
            raise
        except OSError as exc:  # the last net: I/O the command did not check first
            where = f"{exc.filename}: " if exc.filename else ""
            typer.echo(f"Error: {where}{exc.strerror or exc}", err=True)
            raise typer.Exit(1) from exc
        except (KeyboardInterrupt, Terminated) as exc:
            what = "interrupted" if isinstance(exc, KeyboardInterrupt) else "terminated"
            typer.echo(f"Error: {what}: the store keeps what was committed before; the "
                       "unfinished step was rolled back (run the command again to go on)",
                       err=True)
            raise typer.Exit(130 if what == "interrupted" else 143) from None


app = typer.Typer(
    name="ulcdb",
    cls=_Group,
    help="Evaluate MT systems and MT metrics: test beds, scores, ULC, QARLA and "
    "meta-evaluation in one DuckDB store.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ulcdb {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[Path, typer.Option("--db", envvar="ULCDB_DB",
                                     help="Store file (init, ingest and demo create a missing "
                                     "one).")] = DEFAULT_DB,
    read_only: Annotated[bool, typer.Option(
        "--read-only", help="Never write to the store: a command that must (scores missing, "
        "an ingest) fails instead.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """ulcdb: MT evaluation and meta-evaluation in a DuckDB store."""
    state.db = db
    state.read_only = read_only
    source = ctx.get_parameter_source("db")  # typer's own click: compare by name
    state.db_given = source is not None and source.name != "DEFAULT"



def main() -> None:
    """The `ulcdb` executable: SIGTERM ends a command as Ctrl-C does (one line, rolled back)."""
    terminate_on_sigterm()
    app(prog_name="ulcdb")
