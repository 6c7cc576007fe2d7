"""Shared by the CLI tests: run `ulcdb --db DB ARGS...` in-process; copy a store built once."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import duckdb
from typer.testing import CliRunner, Result

from ulcdb.cli.main import app


def ulcdb(db: Path, *args: object) -> Result:
    """The result of ``ulcdb --db DB ARGS...`` (arguments turned into strings)."""
    return CliRunner().invoke(app, ["--db", str(db), *map(str, args)])


def run_all(db: Path, *commands: tuple[object, ...]) -> Path:
    """Run each command on ``db`` in turn, each required to succeed; ``db``."""
    for args in commands:
        result = ulcdb(db, *args)
        assert result.exit_code == 0, result.output
    return db


def json_of(db: Path, *args: object) -> Any:
    """The JSON printed by ``ulcdb --db DB ARGS...``, which must succeed."""
    result = ulcdb(db, *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


SAMPLE = Path(__file__).resolve().parents[1] / "sample"


def sample_store(path: Path) -> Path:
    """``path`` (a new file) holding the bundled sample's ULC.config ingested as test bed
    'sample', with its named sets."""
    result = ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample")
    assert result.exit_code == 0, result.output
    return path


def sample_judged(path: Path, *score: object) -> Path:
    """``sample_store(path)`` with the sample's DA judgments and ``ulcdb score SCORE...`` run."""
    return run_all(sample_store(path), ("ingest", "assessments", SAMPLE / "human" / "da.tsv"),
                   ("score", *score))


_INGESTED: dict[tuple[Path, str], Path] = {}  # (sample, name): a pristine store made once


def ingest_ende(db: Path, sample: Path, name: str = "ende") -> Path:
    """``db`` (a new file) holding the WMT21 en-de sample's long TSV ingested as test bed
    ``name``: ingested once per test process, then copied."""
    if (sample, name) not in _INGESTED:
        folder = Path(tempfile.mkdtemp(prefix="ulcdb-ende-"))
        atexit.register(shutil.rmtree, folder, True)
        made = folder / "ende.duckdb"
        result = ulcdb(made, "ingest", "testbed", sample / "segments_long.tsv", "--name", name,
                       "--src-lang", "en", "--tgt-lang", "de")
        assert result.exit_code == 0, result.output
        _INGESTED[sample, name] = made
    return copy_store(_INGESTED[sample, name], db.parent, db.name)


def copy_store(template: Path, folder: Path, name: str = "store.duckdb") -> Path:
    """A copy of the (closed) store file ``template`` as ``folder/name``: a test that changes
    its store gets its own in milliseconds from a store built once per module."""
    path = folder / name
    shutil.copyfile(template, path)
    return path


def dump(db: Path) -> dict[str, list[str]]:
    """Every row of every table of the store ``db``, in a stable order: what a refused
    command must leave exactly as it was."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() order by 1").fetchall()]
        return {t: sorted(map(repr, con.execute(f'select * from "{t}"').fetchall()))
                for t in tables}
    finally:
        con.close()


def refused(db: Path, *args: object) -> str:
    """Run a command that must fail: one 'Error:' line, every table as it was; the line."""
    before = dump(db)
    result = ulcdb(db, *args)
    assert result.exit_code == 1, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert dump(db) == before
    return lines[0]
