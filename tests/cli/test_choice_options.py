"""Every option or argument of fixed choices (a ``Literal`` or Enum annotation) is refused by
the library's one line (``ulcdb.errors.choice``), exit 2, where Typer printed its usage box
("Invalid value for '--by': 'x' is not one of ..."); ``--help`` still lists the choices."""

from __future__ import annotations

import enum
import re
import typing
from pathlib import Path
from typing import Any

import pytest
import typer
from cli_helpers import ulcdb
from typer.testing import CliRunner

from ulcdb.cli.main import app

BAD = "zz-not-a-choice"


def _choices(param: Any) -> tuple[str, ...]:
    """The choices of a parameter's annotation (``X | None`` unwrapped); () if none."""
    annotation = param.type_descriptor.annotation  # Typer's record of the annotation
    kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, type(int | None)) and len(kinds) == 1:
        annotation = kinds[0]
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(str(e.value) for e in annotation)
    return ()


def _params() -> list[tuple[tuple[str, ...], str | None, tuple[str, ...]]]:
    """(command path, the option's flag or None for an argument, its choices) of every
    parameter of fixed choices, groups' own options (`meta`'s) included."""
    out: list[tuple[tuple[str, ...], str | None, tuple[str, ...]]] = []

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        for param in cmd.params:
            if choices := _choices(param):
                is_option = isinstance(param, typer.core.TyperOption)
                out.append((path, param.opts[0] if is_option else None, choices))
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return out


PARAMS = _params()


def test_the_walk_finds_the_options() -> None:
    """The walk sees the options and arguments it must (it cannot pass by finding none)."""
    found = {(" ".join(path), flag) for path, flag, _ in PARAMS}
    assert {("score", "--ulc"), ("score", "--format"), ("score", "--engine"),
            ("meta", "--grouping"), ("meta", "--acc-ties"), ("meta protocol", None),
            ("compare", "--unit"), ("king", "--by"), ("export iqxml", "--layout"),
            ("ingest testbed", "--format"), ("set define", None), ("info", "--format"),
            ("eval", "-f"), ("annotate", "--annotator")} <= found
    assert len(PARAMS) >= 40


@pytest.mark.parametrize(("path", "flag", "choices"), PARAMS,
                         ids=[" ".join((*p, f or "ARG")) for p, f, _ in PARAMS])
def test_a_bad_choice_is_the_librarys_one_line(tmp_path: Path, path: tuple[str, ...],
                                               flag: str | None, choices: tuple[str, ...]
                                               ) -> None:
    db = tmp_path / "none.duckdb"
    args = [flag, BAD] if flag else [BAD, "x", "x"]  # the choice is the first argument
    result = ulcdb(db, *path, *args)
    listed = f"{', '.join(choices[:-1])} or {choices[-1]}"
    assert result.exit_code == 2, result.output
    assert re.fullmatch(rf"Error: [a-z ]+ '{BAD}': choose {re.escape(listed)}\n",
                        result.output), result.output
    assert not db.exists()  # refused while parsing: no store opened or created


@pytest.mark.parametrize(("path", "flag", "choices"), PARAMS,
                         ids=[" ".join((*p, f or "ARG")) for p, f, _ in PARAMS])
def test_help_lists_the_choices(path: tuple[str, ...], flag: str | None,
                                choices: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    hidden = flag == "--protocol"  # deprecated, hidden from --help
    assert (f"<{'|'.join(choices)}>" in result.output) != hidden


def test_level_option_lists_its_choices_and_any_case() -> None:
    """-G is a string read in any case (SYS is sys): its own check, the same line."""
    result = CliRunner().invoke(app, ["score", "--help"], env={"COLUMNS": "400"})
    assert "<seg|doc|sys|all>" in result.output
    result = CliRunner().invoke(app, ["meta", "-G", "System"])
    assert (result.exit_code, result.output) == (
        2, "Error: level 'System': choose seg, doc or sys (did you mean sys?)\n")
