"""`ulcdb.cli.options.grouped`: option groups expanded in place, as Typer and Python see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer.testing import CliRunner

from ulcdb.cli.options import SelectionOpts, grouped

SeenOpt = Annotated[int, typer.Option("--seen", help="A number.")]


@dataclass(frozen=True)
class Pair:
    """Two options."""

    first: Annotated[str, typer.Option("--first", help="First.")] = "a"
    second: Annotated[int, typer.Option("--second", help="Second.")] = 1


TWO = Pair(second=2)
calls: list[dict[str, Any]] = []


@grouped
def command(picked: SelectionOpts, seen: SeenOpt = 0, *, pair: Pair = TWO) -> None:
    """A command with two groups."""
    calls.append({"picked": picked, "seen": seen, "pair": pair})


def test_typer_sees_the_groups_options_in_place() -> None:
    app = typer.Typer()
    app.command()(command)
    app.command("other")(lambda: None)  # two commands: `command` is a subcommand
    click = typer.main.get_command(app).commands["command"]
    assert [p.name for p in click.params] == ["testbed", "metrics", "systems", "refs", "seen",
                                              "first", "second"]
    assert [p.default for p in click.params] == [None, None, None, None, 0, "a", 2]
    calls.clear()
    result = CliRunner().invoke(app, ["command", "-t", "tb", "-m", "BLEU", "--seen", "3",
                                      "--first", "x"])
    assert result.exit_code == 0, result.output
    assert calls == [{"picked": SelectionOpts("tb", "BLEU", None, None), "seen": 3,
                      "pair": Pair("x", 2)}]


def test_python_callers_get_the_defaults() -> None:
    calls.clear()
    command(metrics="chrF")
    command(second=5, seen=1)
    assert calls == [
        {"picked": SelectionOpts(metrics="chrF"), "seen": 0, "pair": Pair("a", 2)},
        {"picked": SelectionOpts(), "seen": 1, "pair": Pair("a", 5)}]
