"""The shipped metric catalogue (issue 15): `ulcdb list metrics`, `list sets` and `describe`
read ulcdb/metrics/catalogue.json instead of importing every metric module, and only while it
was made from the metric code at hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.metrics import registry

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_catalogue_is_the_live_one() -> None:
    shipped = registry.read_snapshot()
    assert shipped is not None, ("ulcdb/metrics/catalogue.json was made from other metric "
                                 "code: run `python -m ulcdb.metrics.registry`")
    live = registry.live_catalogue()
    assert [s.name for s in shipped.specs] == [s.name for s in live.specs]
    assert shipped == live
    assert len(shipped.specs) == len(registry.metric_index())
    assert shipped.sets["LEX"] == registry.BUILTIN_SETS["LEX"]


def test_a_catalogue_of_other_code_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.json"
    registry.write_snapshot(path)
    assert registry.read_snapshot(path) == registry.live_catalogue()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["sources"] = "0" * 64  # as if a metric module had changed since
    path.write_text(json.dumps(data), encoding="utf-8")
    assert registry.read_snapshot(path) is None
    assert registry.read_snapshot(tmp_path / "missing.json") is None


def test_list_metrics_loads_no_metric_module(tmp_path: Path) -> None:
    probe = ("import sys\nfrom ulcdb.cli.main import app\n"
             "try:\n    app(['list', 'metrics', 'BLEU*', '-f', 'csv'], prog_name='ulcdb')\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('ulcdb.metrics.', "
             "'sacrebleu', 'numpy', 'duckdb'))))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=tmp_path, check=True,
                            env={"PYTHONPATH": str(REPO), "PATH": ""})
    *rows, modules = result.stdout.splitlines()
    assert modules == "['ulcdb.metrics.base', 'ulcdb.metrics.catalogue', 'ulcdb.metrics.registry']"
    # The same rows as from the families themselves.
    want = [s.name for s in registry.live_catalogue().specs if s.name.startswith("BLEU")]
    assert [r.split(",")[0] for r in rows[1:]] == want


def test_describe_and_sets_from_the_catalogue(tmp_path: Path) -> None:
    db = tmp_path / "none.duckdb"
    runner = CliRunner()
    out = runner.invoke(app, ["--db", str(db), "describe", "BLEU"], env={"ULCDB_DB": ""})
    # a --db that does not exist yet gets a note: the built-in catalogue needs no store
    assert out.exit_code == 0 and "note: no store at" in out.stderr and not db.exists()
    out = runner.invoke(app, ["describe", "RG-L", "-f", "json"])
    assert out.exit_code == 0, out.output
    (info,) = json.loads(out.stdout)
    sets = {s for s, members in registry.BUILTIN_SETS.items() if "RG-L" in members}
    assert set(info["sets"].split(", ")) == sets
