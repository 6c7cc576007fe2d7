"""`ulcdb set ...`: define and delete named sets of metrics, systems, references, segments."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ulcdb.cli.common import open_store
from ulcdb.ingest.load import delete_set, save_set
from ulcdb.ingest.model import NamedSet
from ulcdb.names import check_name
from ulcdb.selection import check_set

app = typer.Typer(help="Named sets of metrics, systems, references or segments.",
                  no_args_is_help=True)


class Kind(str, Enum):
    metric = "metric"
    system = "system"
    reference = "reference"
    segment = "segment"


@app.command("define")
def define(
    kind: Annotated[Kind, typer.Argument(help="metric, system, reference or segment.")],
    name: Annotated[str, typer.Argument(help="Set name.")],
    members: Annotated[list[str], typer.Argument(help="Members (segments: ids or ranges).")],
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (metric sets are global).")] = None,
) -> None:
    """Create or redefine a named set.

    Example: ulcdb set define metric my_lex BLEU NIST RG-L
    """
    with open_store() as store:
        tid = None if kind == Kind.metric else store.testbed_id(testbed or store.only_testbed())
        check_name(f"{kind.value} set", name, "the command line")
        items = check_set(store, tid, kind.value, name, list(members))
        with store.transaction():
            changed = save_set(store, tid, NamedSet(kind.value, name, items), "cli")
    typer.echo(f"{kind.value} set {name!r}: {'saved' if changed else 'unchanged'}")


@app.command("delete")
def delete(
    kind: Annotated[Kind, typer.Argument(help="metric, system, reference or segment.")],
    name: Annotated[str, typer.Argument(help="Set name.")],
) -> None:
    """Delete a named set.  Example: ulcdb set delete metric my_lex"""
    with open_store() as store:
        delete_set(store, kind.value, name)
    typer.echo(f"deleted {kind.value} set {name!r}")
