"""Shared fixtures: where ../shared is, and loaders for its samples and golden files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ULCDB_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder beside the checkout; tests that need it skip cleanly without it."""
    if not (SHARED / "testbeds").is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def ende_sample(shared: Path) -> Path:
    """The WMT21 en-de sample (56 segments, every system, three references, MQM)."""
    path = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not (path / "segments_long.tsv").exists():
        pytest.skip("en-de sample not in shared data")
    return path
