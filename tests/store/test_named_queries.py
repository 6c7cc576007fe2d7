"""schema/queries/: every file is a query ulcdb runs (named_query("NAME") in ulcdb/), and
every query ulcdb names has its file, so none goes stale unnoticed."""

from __future__ import annotations

import re

from conftest import REPO

from ulcdb.store.database import data_dir, named_query


def test_every_named_query_has_a_file_and_every_file_is_used() -> None:
    files = {p.stem for p in (data_dir("schema") / "queries").glob("*.sql")}
    used = {m for path in (REPO / "ulcdb").rglob("*.py")
            for m in re.findall(r'named_query\("(\w+)"\)', path.read_text(encoding="utf-8"))}
    assert used == files
    assert {"assessment_rows", "import_resolved", "import_coverage"} <= used
    for name in used:
        assert named_query(name).lstrip().startswith("--"), name  # says what it is first
