"""Every command has help ending with an example, and is in the docs' command reference."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import typer
from typer.core import TyperOption
from typer.testing import CliRunner

from ulcdb.cli.main import app, reflow


def _command_reference() -> str:
    """docs/reference/cli.md's generated part (docs/hooks/reference.py)."""
    spec = importlib.util.spec_from_file_location(
        "docs_reference", Path(__file__).resolve().parents[2] / "docs" / "hooks" / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.cli_markdown())


COMMAND_REFERENCE = _command_reference()


def _commands() -> list[tuple[str, ...]]:
    root = typer.main.get_command(app)
    out: list[tuple[str, ...]] = []

    def walk(cmd, path: tuple[str, ...]) -> None:
        if hasattr(cmd, "commands"):  # a group (Typer vendors its own click)
            for name, sub in cmd.commands.items():
                walk(sub, (*path, name))
        else:
            out.append(path)

    walk(root, ())
    return out


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_command_has_help_with_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Example:" in result.output, path


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_every_option_has_help(path: tuple[str, ...]) -> None:
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    undocumented = [p.opts[0] for p in command.params
                    if isinstance(p, TyperOption) and not (p.help or "").strip()]
    assert undocumented == [], path


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_command_is_in_the_command_reference(path: tuple[str, ...]) -> None:
    # The README is a front door now (issue 27): the docs' command reference, generated from
    # this app, documents every command.
    assert f"`ulcdb {' '.join(path)}`" in COMMAND_REFERENCE


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_help_paragraphs_wrap_at_the_terminal_not_at_the_source(path: tuple[str, ...]) -> None:
    # Typer's rich help keeps single line breaks: a docstring wrapped at 100 columns would
    # break twice on an 80-column terminal.  Each prose paragraph must reach Typer as one line.
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    for paragraph in command.help.split("\n\n"):
        if not paragraph.startswith(("Example:", "\b")):
            assert "\n" not in paragraph, (path, paragraph)
    assert "(and the\n" not in result.output  # 'ulcdb score --help' broke there before


def test_reflow_keeps_lists_and_marked_paragraphs() -> None:
    text = "Title.\n\nOne\nparagraph.\n\nA list:\n- a\n- b\n\n\bkept\nas is"
    assert reflow(text) == "Title.\n\nOne paragraph.\n\nA list:\n- a\n- b\n\n\bkept\nas is"


def test_meta_coef_help_names_every_coefficient() -> None:
    # The help is written out (importing ulcdb.meta for it would slow `ulcdb --help`).
    from ulcdb.meta import COEFFICIENTS

    command = typer.main.get_command(app).commands["meta"]
    (coef,) = [p for p in command.params if p.name == "coef"]
    listed = coef.help.split(": ", 1)[1].split(" (default")[0].split(", ")
    assert listed == list(COEFFICIENTS)


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_bracketed_words_of_option_help_are_shown(path: tuple[str, ...]) -> None:
    # Typer renders help as rich markup: an unescaped "[ray]" is a style tag and vanishes
    # (`--engine` said "pip install 'ulcdb'").  Every bracketed word of an option's help is
    # shown as written.
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "250"})
    shown = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    for param in command.params:
        for word in re.findall(r"\S*\[[^\]\s]+\]\S*", (param.help or "").replace("\\[", "[")):
            assert word in shown, (path, param.name, word)


def _every_command() -> list[tuple[str, ...]]:
    """Every command and group (their help lists options too), the root first."""
    root = typer.main.get_command(app)
    out: list[tuple[str, ...]] = []

    def walk(cmd, path: tuple[str, ...]) -> None:
        out.append(path)
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, (*path, name))

    walk(root, ())
    return out


@pytest.mark.parametrize("path", _every_command(), ids=lambda p: " ".join(p) or "ulcdb")
def test_help_at_80_columns_cuts_no_option_name_nor_example(path: tuple[str, ...]) -> None:
    # Rich squeezes an options table to the terminal and ends what still does not fit with
    # '…': at 80 columns `serve --help` showed '--compare-time-li…', `ingest scores --help`
    # '--higher-is-bet…' and its --refset-map example 'newstestM2020=re…'.
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    cut = [line.strip("│ ") for line in result.output.splitlines() if "…" in line]
    assert cut == [], (path, cut)
    words = set(re.sub(r"[│╭╮╰╯─,]", " ", result.output).split())
    names = [o for p in command.params if isinstance(p, TyperOption) and not p.hidden
             for o in (*p.opts, *p.secondary_opts)]
    assert [o for o in names if o not in words] == [], path
