"""SQL in Python is a ratchet (issue 26): views and named queries live in ``schema/`` (one per
``.sql`` file), and the SELECT/WITH statements left in a module are plumbing tied to its code
(lookups by id, statements built per table from a whitelist, wrappers around a query given
elsewhere, the macro calls of the mirror).  A module of the list may hold at most its count;
lower a count when you move a statement out, never raise it: put a new report-like query in
``schema/views`` (no parameters) or ``schema/queries`` (``ulcdb.store.named_query``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A string that starts, after whitespace, with SELECT or with a WITH clause (not the English
# word "with"); pieces of an f-string count one each.
SQL_START = re.compile(r"\s*(select\b|with\s+(recursive\s+)?\w+\s+as\s*\()", re.IGNORECASE)

# module -> the most SELECT/WITH literals it may hold (issue 26 moved these modules' views and
# named queries out: 102 literals before, 71 after; the package held 239 before; a second
# pass over scoring, compare, ops, tune, htmlreport and ingest.delete: 43 before, 17 after,
# the package 209 -> 183).
ALLOWED = {
    "ulcdb/annotation/__init__.py": 0,
    "ulcdb/annotation/annotate.py": 0,
    "ulcdb/annotation/annotators.py": 0,
    "ulcdb/annotation/boxer_import.py": 0,
    "ulcdb/annotation/derive.py": 0,
    "ulcdb/annotation/importers.py": 3,
    "ulcdb/annotation/model.py": 0,
    "ulcdb/annotation/spacy_adapter.py": 0,
    "ulcdb/annotation/stanza_adapter.py": 0,
    "ulcdb/annotation/storage.py": 4,
    "ulcdb/api.py": 4,
    "ulcdb/cli/store.py": 2,
    "ulcdb/compare/__init__.py": 0,
    "ulcdb/compare/analysis.py": 0,
    "ulcdb/compare/buckets.py": 1,
    "ulcdb/compare/data.py": 0,
    "ulcdb/compare/header.py": 0,
    "ulcdb/compare/measures.py": 0,
    "ulcdb/compare/plan.py": 0,
    "ulcdb/compare/run.py": 0,
    "ulcdb/compare/sacrebleu_rows.py": 0,
    "ulcdb/compare/where.py": 1,
    "ulcdb/compare/words.py": 0,
    "ulcdb/formats/table.py": 6,
    "ulcdb/htmlreport/__init__.py": 0,
    "ulcdb/htmlreport/gather.py": 0,
    "ulcdb/htmlreport/page.py": 0,
    "ulcdb/ingest/delete.py": 7,
    "ulcdb/metrics/catalogue.py": 2,
    "ulcdb/metrics/languages.py": 3,
    "ulcdb/ops/__init__.py": 0,
    "ulcdb/ops/access.py": 0,
    "ulcdb/ops/compare.py": 0,
    "ulcdb/ops/delete.py": 0,
    "ulcdb/ops/export.py": 0,
    "ulcdb/ops/levels.py": 0,
    "ulcdb/ops/meta.py": 0,
    "ulcdb/ops/qarla.py": 0,
    "ulcdb/ops/query.py": 0,
    "ulcdb/ops/score.py": 0,
    "ulcdb/ops/tune.py": 0,
    "ulcdb/scoring/__init__.py": 0,
    "ulcdb/scoring/engines.py": 0,
    "ulcdb/scoring/progress.py": 0,
    "ulcdb/scoring/report.py": 2,
    "ulcdb/scoring/scorer.py": 6,
    "ulcdb/scoring/selection.py": 4,
    "ulcdb/scoring/workers.py": 0,
    "ulcdb/serve/__init__.py": 0,
    "ulcdb/serve/background.py": 0,
    "ulcdb/serve/bounded.py": 0,
    "ulcdb/serve/compare_page.py": 6,
    "ulcdb/serve/config.py": 2,
    "ulcdb/serve/mirror.py": 13,
    "ulcdb/serve/mirror_parts.py": 4,
    "ulcdb/serve/plots.py": 5,
    "ulcdb/serve/preparing.py": 0,
    "ulcdb/serve/readonly.py": 0,
    "ulcdb/serve/status.py": 1,
    "ulcdb/store/database.py": 12,
    "ulcdb/tune/__init__.py": 0,
    "ulcdb/tune/tine.py": 0,
}


def sql_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``path`` that starts a SELECT or WITH."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and SQL_START.match(node.value))


def counts() -> dict[str, int]:
    found = {}
    for path in sorted((REPO / "ulcdb").rglob("*.py")):
        n = len(sql_literals(path))
        if n:
            found[path.relative_to(REPO).as_posix()] = n
    return found


def test_the_probe_counts_sql_and_not_prose(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('A = "select 1"\nB = f"""\n  WITH x AS (select {n}) select * from x"""\n'
                      'C = "with its texts"\nD = "selected"\nE = ("with", "by")\n')
    assert [line for line, _ in sql_literals(module)] == [1, 2]


def test_no_sql_creeps_back(capsys: pytest.CaptureFixture[str]) -> None:
    found = counts()
    with capsys.disabled():
        print(f"\nSQL literals in Python: {sum(found.values())} in {len(found)} modules "
              f"({sum(found.get(m, 0) for m in ALLOWED)} in the {len(ALLOWED)} ratcheted)")
    moved = [m for m in ALLOWED if not (REPO / m).exists()]
    assert not moved, f"{moved} moved: carry their entries in ALLOWED to their new names"
    over = {m: found.get(m, 0) for m, n in ALLOWED.items() if found.get(m, 0) > n}
    assert not over, "; ".join(
        f"{m} holds {k} SELECT/WITH literals, at most {ALLOWED[m]} allowed (a view or named "
        "query belongs in schema/): " + ", ".join(
            f"line {line}: {' '.join(text.split())[:50]}" for line, text in sql_literals(REPO / m))
        for m, k in over.items())
