"""Package layering (issue 26): loading test beds and assessments (``ulcdb.ingest``) sits
under the score interchange (``ulcdb.interchange``); nothing in ingest imports interchange,
not even inside a function, so there is no import cycle to hide.  The mt-metrics-eval score
format (``ulcdb.formats.mtme``) imports the folder readers it shares at module level."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "ulcdb"


def imported(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` anywhere in ``path`` names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_probe_sees_a_function_level_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from ulcdb.interchange import load\n")
    assert "ulcdb.interchange.load" in imported(module)


def test_ingest_imports_nothing_from_interchange() -> None:
    modules = sorted((PACKAGE / "ingest").glob("*.py"))
    assert len(modules) >= 8
    offending = {p.name: sorted(m for m in imported(p) if m.startswith("ulcdb.interchange"))
                 for p in modules}
    assert {name: found for name, found in offending.items() if found} == {}


def test_interchange_imports_the_readers_it_shares_at_module_level() -> None:
    tree = ast.parse((PACKAGE / "formats" / "mtme.py").read_text(encoding="utf-8"))
    top = {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    assert "ulcdb.ingest.mtme_testbeds" in top
