"""Start-up (issues 15, 28): `ulcdb --help`, `--version` and every `CMD --help` load no heavy
library (the store's duckdb and pyarrow, numpy, scipy, sacrebleu, the metric modules, the file
readers).  A real
check of what a fresh interpreter has imported, not a timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import typer

from ulcdb.cli.main import app

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("duckdb", "pyarrow", "numpy", "scipy", "sacrebleu", "pandas", "sqlmodel", "spacy",
         "ulcdb.store.database", "ulcdb.metrics", "ulcdb.scoring.scorer", "ulcdb.interchange",
         "ulcdb.meta",
         "ulcdb.compare", "ulcdb.serve", "ulcdb.api", "ulcdb.ops.score", "ulcdb.ops.qarla",
         "ulcdb.ops.meta", "ulcdb.ops.compare", "ulcdb.ops.tune", "ulcdb.ops.export",
         "ulcdb.ops.delete", "ulcdb.ops.query",
         # the file readers: the ingest options' enums load without them (issue 28)
         "ulcdb.formats", "ulcdb.ingest.mtme", "ulcdb.ingest.textio")

# Runs `ulcdb ARGS` for each ARGS given (a JSON list) in one interpreter; prints, for each,
# the heavy modules imported by then.
PROBE = """
import json, sys
from ulcdb.cli.main import app
heavy = {heavy!r}
out = []
for args in json.loads(sys.argv[1]):
    try:
        app(args, prog_name="ulcdb")
    except SystemExit:
        pass
    out.append(sorted(m for m in sys.modules
                      if m in heavy or m.startswith(tuple(h + "." for h in heavy))))
print(json.dumps(out))
"""


def loaded(*runs: list[str]) -> list[list[str]]:
    """For each run of `ulcdb ARGS` in turn, the heavy modules a fresh `python` has imported
    by its end."""
    result = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY),
                             json.dumps(list(runs))],
                            capture_output=True, text=True, cwd=REPO, check=True,
                            env={"PYTHONPATH": str(REPO), "PATH": ""})
    return json.loads(result.stdout.splitlines()[-1])


def _paths() -> list[list[str]]:
    out: list[list[str]] = []

    def walk(cmd: object, path: list[str]) -> None:
        out.append(path)  # a group's own --help too
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return out


def test_the_probe_sees_an_import() -> None:
    # The check itself can fail: a command that opens the store loads duckdb.
    [before, after] = loaded(["--version"],
                             ["--db", str(REPO / "no-such-store.duckdb"), "info"])
    assert before == []
    assert "duckdb" in after


def test_help_and_version_load_nothing_heavy() -> None:
    assert loaded(["--help"], ["--version"]) == [[], []]


def test_every_command_help_loads_nothing_heavy() -> None:
    paths = _paths()[1:]
    assert len(paths) > 30  # every command and group, not only the top ones
    found = loaded(*([*path, "--help"] for path in paths))
    assert {" ".join(p): f for p, f in zip(paths, found, strict=True)} == {
        " ".join(p): [] for p in paths}


def test_sql_loads_no_arrow(tmp_path: Path) -> None:
    # `ulcdb sql` prints rows: Arrow and numpy (0.2 s of its start-up) are for tables only
    from ulcdb.store.database import Store

    db = tmp_path / "s.duckdb"
    Store(db).close()
    [found] = loaded(["--db", str(db), "sql", "select 42 as answer"])
    assert "duckdb" in found
    assert [m for m in found if m.startswith(("pyarrow", "numpy", "pandas"))] == []


def test_the_command_table_matches_the_commands() -> None:
    # `ulcdb --help` lists the commands from ulcdb.cli.lazy's table without importing them:
    # the names, their order and the one-line helps must be the real commands' (issue 28)
    import inspect

    from ulcdb.cli.lazy import SUMMARIES

    root = typer.main.get_command(app)
    real = dict(root.commands.items())  # type: ignore[attr-defined]  # every module loaded
    assert list(SUMMARIES) == list(real) and len(real) == 21
    assert SUMMARIES == {name: inspect.cleandoc(cmd.help).split("\n\n")[0]
                         for name, cmd in real.items()}


def test_a_command_loads_no_other_command_module(tmp_path: Path) -> None:
    # Only the module of the command run is imported (issue 28): `list testbeds` needs
    # ulcdb.cli.store, not score's, meta's or export's options
    probe = ("import sys\nfrom ulcdb.cli.main import app\ntry:\n    app({args!r}, "
             "prog_name='ulcdb')\nexcept SystemExit:\n    pass\nprint(sorted(m for m in "
             "sys.modules if m.startswith('ulcdb.cli.') and m not in ('ulcdb.cli.main', "
             "'ulcdb.cli.lazy', 'ulcdb.cli.common', 'ulcdb.cli.options', "
             "'ulcdb.cli.outputs')))")

    def cli_modules(*args: str) -> str:
        result = subprocess.run([sys.executable, "-c", probe.format(args=list(args))],
                                capture_output=True, text=True, cwd=REPO, check=True,
                                env={"PYTHONPATH": str(REPO), "PATH": ""})
        return result.stdout.splitlines()[-1]

    db = str(tmp_path / "none.duckdb")
    assert cli_modules("--help") == "[]"
    assert cli_modules("--db", db, "list", "testbeds") == "['ulcdb.cli.store']"
    assert cli_modules("score", "--help") == "['ulcdb.cli.score']"
    assert cli_modules("meta", "protocol", "--help") == (
        "['ulcdb.cli.meta', 'ulcdb.cli.meta_protocol']")
