"""Shared fixtures: where ../shared is, and loaders for its samples and golden files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import typer.testing

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ULCDB_SHARED", REPO.parent / "shared"))


# Typer's CliRunner turns the Typer app into a click command on every invoke (0.1-0.3 s for
# ulcdb's app, thousands of invokes in the suite); the command is built once per app here. A
# click command keeps no state between invocations, so every test still sees a fresh run.
_COMMANDS: dict[tuple[int, int, int], tuple[Any, Any]] = {}
_BUILD_COMMAND = typer.testing._get_command


def _command_once(app: Any) -> Any:
    key = (id(app), len(app.registered_commands), len(app.registered_groups))
    if key not in _COMMANDS:
        _COMMANDS[key] = (app, _BUILD_COMMAND(app))  # the app kept: its id stays its own
    return _COMMANDS[key][1]


if typer.testing._get_command.__name__ != "_command_once":  # this file imported twice
    typer.testing._get_command = _command_once


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder beside the checkout; tests that need it skip cleanly without it."""
    if not (SHARED / "testbeds").is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED


def _sample(shared: Path, pair: str, needs: str) -> Path:
    """The WMT21 sample of language pair ``pair`` (skipped when ``needs`` is not in it)."""
    path = shared / "testbeds" / f"wmt21_newstest2021_{pair}" / "sample"
    if not (path / needs).exists():
        pytest.skip(f"{pair} sample not in shared data")
    return path


@pytest.fixture(scope="session")
def ende_sample(shared: Path) -> Path:
    """The WMT21 en-de sample (56 segments, every system, three references, MQM)."""
    return _sample(shared, "ende", "segments_long.tsv")


@pytest.fixture(scope="session")
def ruen_sample(shared: Path) -> Path:
    """The WMT21 ru-en sample (into English: the linguistic, DR and TINE metrics' test bed)."""
    return _sample(shared, "ruen", "refs")


# Markers (registered in pyproject.toml), applied here so that `python -m pytest -q -m "not
# slow and not shared"` is a fast loop (docs/contributing.md): `shared` for every test that
# asks for the shared data (the `shared` fixture, directly or through ende_sample and the
# golden loaders) or reads SHARED itself; `browser` and `ray` for the modules that start
# Chromium or a Ray cluster; `slow` derived from measured times (tests/durations.json, written
# by tests/durations.py from a whole-suite run): every module whose tests took over its
# module_limit seconds in all, every test whose call took over its test_limit, the browser,
# Ray and server modules below, and the docs pages marked `<!-- examples: slow -->`. A module
# not measured yet counts as fast until the next measurement.
def _measured_slow() -> tuple[set[str], set[str]]:
    data = json.loads((REPO / "tests" / "durations.json").read_text(encoding="utf-8"))
    modules = {m for m, s in data["modules"].items() if s > data["module_limit"]}
    return modules, {t for t, s in data["tests"].items() if s > data["test_limit"]}


BROWSER_MODULES = {"test_serve_browser", "test_serve_compare", "test_report_html"}
RAY_MODULES = {"test_ray", "test_ray_cluster", "test_pool_after_ray"}
# the modules that start `ulcdb serve` or build its mirror (the last measured run was stopped
# among them, so their totals are not all in tests/durations.json yet)
SERVER_MODULES = {"test_serve", "test_serve_bounded", "test_serve_preparing",
                  "test_mirror_incremental"}
SLOW_MODULES, SLOW_TESTS = _measured_slow()
SLOW_MODULES |= BROWSER_MODULES | RAY_MODULES | SERVER_MODULES


def _reads_shared(path: Path, cache: dict[Path, bool] = {}) -> bool:  # noqa: B006
    if path not in cache:
        text = path.read_text(encoding="utf-8")
        cache[path] = "SHARED" in text and path.name != "test_docs.py"
    return cache[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        stem = item.path.stem
        if "shared" in getattr(item, "fixturenames", ()) or _reads_shared(item.path):
            item.add_marker(pytest.mark.shared)
        name = f"{stem}::{item.name.split('[')[0]}"
        if stem in SLOW_MODULES or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        if stem in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
        if stem in RAY_MODULES:
            item.add_marker(pytest.mark.ray)


@pytest.fixture(scope="module")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample's ULC.config ingested (with its named sets), once per module."""
    from cli_helpers import sample_store

    return Path(sample_store(tmp_path_factory.mktemp("sample") / "store.duckdb"))


@pytest.fixture
def sample_db(sample_template: Path, tmp_path: Path) -> Path:
    """A copy of ``sample_template`` for each test (a refused import must leave it as it was:
    cli_helpers.dump and refused)."""
    from cli_helpers import copy_store

    return Path(copy_store(sample_template, tmp_path, sample_template.name))
