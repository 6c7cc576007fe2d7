"""The store most ingest tests start from: the bundled sample's ULC.config ingested (with its
named sets), built once per module, and a copy of it for each test (a refused import must
leave it byte-identical; tests/cli_helpers.py `dump` and `refused`).  A module that needs
another store defines its own `built_db`."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import copy_store, sample_store


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_store(tmp_path_factory.mktemp("sample") / "store.duckdb")


@pytest.fixture
def db(built_db: Path, tmp_path: Path) -> Path:
    """The sample's ULC.config ingested (with its named sets): a copy for each test."""
    return copy_store(built_db, tmp_path, built_db.name)
