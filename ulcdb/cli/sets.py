"""`ulcdb set ...`: define and delete named sets of metrics, systems, references, segments."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import typer

from ulcdb.cli.common import one_of, open_store

app = typer.Typer(help="Named sets of metrics, systems, references or segments.",
                  no_args_is_help=True)


Kind = Literal["metric", "system", "reference", "segment"]


@app.command("define")
def define(
    kind: Annotated[Kind, typer.Argument(help="metric, system, reference or segment.",
                                         **one_of("kind", get_args(Kind)))],
    name: Annotated[str, typer.Argument(help="Set name.")],
    members: Annotated[list[str], typer.Argument(help="Members (segments: ids or ranges).")],
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (metric sets are global).")] = None,
) -> None:
    """Create or redefine a named set (a redefinition names the members it had).

    Example: ulcdb set define metric my_lex BLEU NIST RG-L
    """
    from ulcdb.ingest.load import save_set
    from ulcdb.ingest.model import NamedSet
    from ulcdb.scoring.selection import check_set
    from ulcdb.store.names import check_name

    with open_store() as store:
        tid = None if kind == "metric" else store.testbed_id(testbed or store.only_testbed())
        check_name(f"{kind} set", name, "the command line")
        items = check_set(store, tid, kind, name, list(members))
        with store.transaction():
            changed, before = save_set(store, tid, NamedSet(kind, name, items), "cli")
    said = "created" if before is None else \
        f"redefined (it held {' '.join(map(str, before))})" if changed else "unchanged"
    typer.echo(f"{kind} set {name!r}: {said}")


@app.command("delete")
def delete(
    kind: Annotated[Kind, typer.Argument(help="metric, system, reference or segment.",
                                         **one_of("kind", get_args(Kind)))],
    name: Annotated[str, typer.Argument(help="Set name.")],
) -> None:
    """Delete a named set.  Example: ulcdb set delete metric my_lex"""
    from ulcdb.ingest.load import delete_set

    with open_store() as store:
        delete_set(store, kind, name)
    typer.echo(f"deleted {kind} set {name!r}")
