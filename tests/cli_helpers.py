"""Shared by the CLI tests: run `ulcdb --db DB ARGS...` in-process."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from ulcdb.cli.main import app


def ulcdb(db: Path, *args: object) -> Result:
    """The result of ``ulcdb --db DB ARGS...`` (arguments turned into strings)."""
    return CliRunner().invoke(app, ["--db", str(db), *map(str, args)])
