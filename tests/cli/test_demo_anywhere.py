"""`ulcdb demo` works from any folder (issue 15): the sample ships with ulcdb."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store


def test_demo_from_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no sample/ here
    db = tmp_path / "demo.duckdb"
    result = ulcdb(db, "demo", "-m", "BLEU")
    assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        assert store.query("select systems, refs, segments from testbed_summary") == [
            (4, 3, 12)]
        assert store.scalar("select count(distinct criterion) from assessments") == 2
        assert store.scalar("select count(*) from scores where metric = 'BLEU' and "
                            "level = 'sys' and refset = 'ref-A+ref-B+ref-C'") == 4
