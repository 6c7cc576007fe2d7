"""Shared by the CLI tests: run `ulcdb --db DB ARGS...` in-process."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from ulcdb.cli.main import app


def ulcdb(db: Path, *args: object) -> Result:
    """The result of ``ulcdb --db DB ARGS...`` (arguments turned into strings)."""
    return CliRunner().invoke(app, ["--db", str(db), *map(str, args)])


def ingest_ende(db: Path, sample: Path, name: str = "ende") -> Path:
    """``db`` with the WMT21 en-de sample's long TSV ingested as test bed ``name``."""
    result = ulcdb(db, "ingest", "testbed", sample / "segments_long.tsv", "--name", name,
                   "--src-lang", "en", "--tgt-lang", "de")
    assert result.exit_code == 0, result.output
    return db
