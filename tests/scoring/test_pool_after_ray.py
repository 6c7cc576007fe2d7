"""Local worker pools in a process that has run Ray (issue 30): Ray's threads do not survive
a fork (forked workers crashed in ``_raylet.so`` after the Ray tests ran in the same pytest
process), so once Ray is loaded the pools start from a fresh fork server; before, they fork."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys
from ulcdb.scoring.engines import LocalEngine
from ulcdb.scoring.workers import pool_context

before = pool_context().get_start_method()
import ray
from ulcdb.scoring.engines import RayEngine
assert list(RayEngine(jobs=1).map(abs, [-3])) == [3]
ray.shutdown()
after = pool_context().get_start_method()
results = list(LocalEngine(2).map(abs, range(-40, 0)))
assert results == list(range(40, 0, -1)), results
print(before, after)
"""


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray not installed")
def test_pools_after_ray_start_from_a_fork_server() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          cwd=REPO, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["fork", "forkserver"]
