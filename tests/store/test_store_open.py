"""Opening a store: only ulcdb stores are opened, only init/ingest create one, a store in use
is reported in one line of ulcdb's words, and read commands write nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
from cli_helpers import ulcdb
from conftest import REPO


def _error_line(res) -> str:
    assert res.exit_code != 0
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1, res.output
    return lines[0]


def test_sqlite_file_is_refused_before_duckdb_reads_it(tmp_path):
    path = tmp_path / "x.db"
    con = sqlite3.connect(path)
    con.execute("create table t (a)")
    con.commit()
    con.close()
    before = path.read_bytes()
    for args in (("info",), ("sql", "select 1"), ("init",)):
        line = _error_line(ulcdb(path, *args))
        assert "is a SQLite database, not a ulcdb store" in line
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"", b"hello world, not a database at all",
                                     b"\x00" * 100])
def test_non_duckdb_and_truncated_files_are_refused(tmp_path, content):
    path = tmp_path / "x.duckdb"
    path.write_bytes(content)
    assert "is not a ulcdb store" in _error_line(ulcdb(path, "info"))
    assert path.read_bytes() == content


def test_duckdb_file_of_another_program_is_refused(tmp_path):
    path = tmp_path / "other.duckdb"
    con = duckdb.connect(str(path))
    con.execute("create table mine (a int)")
    con.close()
    for args in (("info",), ("ingest", "testbed", REPO / "sample" / "ULC.config")):
        assert "DuckDB file of another program" in _error_line(ulcdb(path, *args))
    con = duckdb.connect(str(path), read_only=True)
    assert [r[0] for r in con.execute("select table_name from duckdb_tables()").fetchall()] \
        == ["mine"]
    con.close()


def test_non_numeric_schema_version_is_one_line(tmp_path):
    path = tmp_path / "s.duckdb"
    assert ulcdb(path, "init").exit_code == 0
    con = duckdb.connect(str(path))
    con.execute("update schema_info set value = 'two' where key = 'schema_version'")
    con.close()
    assert "schema version 'two', not a number" in _error_line(ulcdb(path, "info"))


@pytest.mark.parametrize("args", [("info",), ("sql", "select 1"), ("list", "systems"),
                                  ("list", "testbeds"), ("queen",), ("meta", "-c", "DA")])
def test_mistyped_db_is_an_error_not_a_new_store(tmp_path, args):
    path = tmp_path / "typo.duckdb"
    line = _error_line(ulcdb(path, *args))
    assert f"no store at {path}" in line
    assert not path.exists()


def test_list_metrics_writes_nothing(tmp_path):
    path = tmp_path / "s.duckdb"
    assert ulcdb(path, "init").exit_code == 0
    res = ulcdb(path, "list", "metrics", "-f", "csv")
    assert res.exit_code == 0 and "\nBLEU,BLEU,lexical" in res.output
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("select count(*) from metric").fetchone()[0] == 0
    con.close()


def _holder(path: Path) -> subprocess.Popen:
    """Another process holding the store open for writing until killed."""
    code = ("import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
            "print('ready', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_store_in_use_is_one_line_and_init_force_refuses(tmp_path):
    path = tmp_path / "s.duckdb"
    assert ulcdb(path, "init").exit_code == 0
    proc = _holder(path)
    try:
        line = _error_line(ulcdb(path, "info"))
        assert "is in use by another process" in line and f"PID {proc.pid}" in line
        line = _error_line(ulcdb(path, "init", "--force"))
        assert "is in use by another process" in line
        assert path.exists()
    finally:
        proc.kill()
        proc.wait()
    time.sleep(0.1)
    assert ulcdb(path, "info").exit_code == 0


def _commands() -> list[tuple[str, ...]]:
    """Every command of the CLI (as its words), with 'x' for each required argument and
    option."""
    import typer

    from ulcdb.cli.main import app

    root = typer.main.get_command(app)
    ctx = typer.Context(root)

    def walk(cmd: Any, words: tuple[str, ...]) -> list[tuple[str, ...]]:
        if hasattr(cmd, "list_commands"):  # a group; commands may load lazily: ask it
            own = [words] if cmd.invoke_without_command else []  # `ulcdb meta` runs too
            return own + [c for name in cmd.list_commands(ctx)
                          for c in walk(cmd.get_command(ctx, name), (*words, name))]
        args: list[str] = []
        for p in cmd.params:
            if not p.required:
                continue
            args += ["x"] if p.param_type_name == "argument" else [p.opts[0], "x"]
        return [(*words, *args)]

    return walk(root, ())


CREATING = {"init", "ingest", "demo"}  # the commands that make a store where there is none
CATALOGUE = {("list", "metrics"), ("list", "sets"), ("describe", "x")}  # need no store
STORELESS = {("eval", "x")}  # scores plain files in a store of its own (in memory)
VALID = {("tune", "x"): ("tune", "TINE"), ("set", "define", "x", "x", "x"): (
    "set", "define", "metric", "x", "BLEU"), ("set", "delete", "x", "x"): (
    "set", "delete", "metric", "x"), ("meta", "protocol", "x"): (
    "meta", "protocol", "wmt24"), ("report", "x"): ("report", "r.html")}  # where 'x' does
# not get past option parsing (or the output's own check)


def test_every_command_but_init_ingest_and_demo_refuses_a_mistyped_db(tmp_path):
    commands = [VALID.get(c, c) for c in _commands()
                if c[0] not in CREATING and c not in CATALOGUE | STORELESS]
    assert {c[0] for c in commands} >= {"info", "sql", "list", "score", "queen", "meta",
                                        "compare", "export", "delete", "set", "serve", "tune"}
    path = tmp_path / "typo.duckdb"
    for args in commands:
        line = _error_line(ulcdb(path, *args))
        assert line.startswith(f"Error: no store at {path}"), (args, line)
        assert not path.exists(), args


def test_the_catalogue_needs_no_store_even_when_one_is_named(tmp_path):
    """`list metrics`, `list sets` and `describe` read the built-in catalogue: a store named
    with ULCDB_DB or --db that is not made yet (the README's recipe exports ULCDB_DB before
    the first ingest) is noted on stderr, not an error, and is not created (issue 27)."""
    from typer.testing import CliRunner

    from ulcdb.cli.main import app

    path = tmp_path / "later.duckdb"
    runner = CliRunner()
    for args in (["list", "metrics", "BLEU*", "-f", "csv"], ["list", "sets", "-f", "csv"],
                 ["describe", "chrF", "-f", "csv"]):
        res = runner.invoke(app, args, env={"ULCDB_DB": str(path)})
        assert res.exit_code == 0, (args, res.output)
        assert f"note: no store at {path}: the built-in catalogue only" in res.stderr
        assert not path.exists()
    res = runner.invoke(app, ["--db", str(path), "list", "metrics", "BLEU*", "-f", "csv"])
    assert res.exit_code == 0 and res.stdout.splitlines()[1:3] == [
        "BLEU,BLEU,lexical,any,0..1 (higher is better),",
        "BLEU-1,BLEU,lexical,any,0..1 (higher is better),"]
    assert not path.exists()
