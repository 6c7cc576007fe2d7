"""Ray beyond one node (issue 30): the engine against a multi-node cluster simulated on this
machine (``ray.cluster_utils.Cluster``: a head node without CPUs, so every task runs on a worker
node and every shared input and result crosses between object stores) gives the store a
serial local run gives, row for row (annotation, LEX, SP, DR, TINE on the WMT21 ru-en sample);
a worker node killed mid-run costs nothing: Ray reruns its tasks on the nodes left (or the run
stops naming the task), and a rerun completes the store."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

pytestmark = [pytest.mark.ray,
              pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                 reason="Ray not installed (pip install '.[ray]')")]

METRICS = "LEX,SP-Op-*,SP-NIST-l-4"
SEMANTIC = "TINE,DR-STM-4,DR-Or-dr"
SYSTEMS = "Online-W,Facebook-AI"  # two of the ten systems: a few minutes of CI
SCORES = ("select metric, translator, refset, variant, level, doc_id, seg_id, value "
          "from scores order by all")
TOKENS = ("select text_hash, tok, sent, form, lemma, tag, pos, head, deprel from ann_token "
          "order by all")
REPO = Path(__file__).resolve().parents[2]
SIGNATURES = "select distinct family, signature from score_batch order by all"


def _steps(shared: Path, bed: Path, engine: list[str]) -> list[tuple[Any, ...]]:
    return [("ingest", "testbed", bed / "segments_long.tsv", "--name", "ruen",
             "--src-lang", "ru", "--tgt-lang", "en"),
            ("annotate", *engine),
            ("score", "-m", METRICS, "-s", SYSTEMS, "-G", "all", *engine, "-f", "csv"),
            ("score", "-m", SEMANTIC, "-s", SYSTEMS, "-G", "all", *engine,
             "--verbnet", shared / "resources" / "verbnet3.zip", "-f", "csv")]


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with Store(db, read_only=True) as store:
        return store.query(sql)


@pytest.fixture(scope="module")
def bed(shared: Path) -> Path:
    return shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"


@pytest.fixture(scope="module")
def serial(shared: Path, bed: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: every step in one process (-j 1, no engine, nothing pickled)."""
    db = tmp_path_factory.mktemp("serial") / "serial.duckdb"
    for step in _steps(shared, bed, ["-j", "1"]):
        result = ulcdb(db, *step)
        assert result.exit_code == 0, (step, result.output)
    return db


@pytest.fixture(scope="module")
def cluster(shared: Path) -> Iterator[Any]:
    """A head node with no CPUs and two worker nodes of one CPU each; the test process is
    the driver.  Like a real cluster's nodes, the workers get what the driver has only
    through their environment: ulcdb and this module on PYTHONPATH, VerbNet in ULCDB_VERBNET
    (``--verbnet`` sets it in the driver's process, which nodes started before do not see)."""
    import ray
    from ray.cluster_utils import Cluster

    ray.shutdown()  # a local cluster of another test module would take the driver
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(2):
        nodes.add_node(num_cpus=1)
    _connect(nodes, shared)
    nodes.wait_for_nodes()
    yield nodes
    ray.shutdown()
    nodes.shutdown()


def _connect(nodes: Any, shared: Path) -> None:
    import ray

    # the workers import this module (its task functions) and ulcdb as the driver does
    path = [str(REPO), str(REPO / "tests"), str(Path(__file__).resolve().parent),
            os.environ.get("PYTHONPATH", "")]
    ray.init(address=nodes.address, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {
                 "PYTHONPATH": os.pathsep.join(p for p in path if p),
                 "ULCDB_VERBNET": str(shared / "resources" / "verbnet3.zip")}})


def _engine(cluster: Any) -> list[str]:
    return ["-j", "2", "--engine", "ray", "--address", cluster.address]


def test_cluster_has_three_nodes_and_tasks_run_on_both_workers(cluster: Any) -> None:
    import ray

    from ulcdb.scoring.engines import RayEngine

    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 3 and sum(n["Resources"].get("CPU", 0) for n in alive) == 2
    where = list(RayEngine(address=cluster.address).map(_node_after, [0.5] * 6))
    head = ray.get_runtime_context().get_node_id()
    assert head not in where and len(set(where)) == 2


def _node_after(seconds: float) -> str:
    import ray

    time.sleep(seconds)
    return str(ray.get_runtime_context().get_node_id())


def test_multi_node_store_equals_serial_store(shared: Path, bed: Path, serial: Path,
                                              cluster: Any, tmp_path: Path) -> None:
    db = tmp_path / "cluster.duckdb"
    for step in _steps(shared, bed, _engine(cluster)):
        result = ulcdb(db, *step)
        assert result.exit_code == 0, (step, result.output)
    scores = _rows(serial, SCORES)
    assert len(scores) > 10_000 and _rows(db, SCORES) == scores
    assert {m for m, *_ in scores} >= {"TINE", "DR-STM-4", "DR-Or-dr", "1-WER", "SP-NIST-l-4"}
    assert _rows(db, SIGNATURES) == _rows(serial, SIGNATURES)
    assert _rows(db, TOKENS) == _rows(serial, TOKENS)


def test_a_worker_node_killed_mid_run_loses_nothing(shared: Path, bed: Path, serial: Path,
                                                   cluster: Any, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The driver kills one worker node as soon as the first result of the scoring run comes
    # back (the other tasks are queued or running on both nodes), then starts a fresh node.
    # The run either completes (Ray reran the lost tasks on the surviving node) or stops with
    # the task named; either way a rerun leaves the store equal to the serial one.
    from ulcdb.scoring import engines

    db = tmp_path / "killed.duckdb"
    for step in _steps(shared, bed, _engine(cluster))[:2]:
        assert ulcdb(db, *step).exit_code == 0
    killed: list[str] = []
    real_map = engines.RayEngine.map

    def map_then_kill(self: engines.RayEngine, fn: Callable[[Any], Any], tasks: Any,
                      label: Callable[[Any], str] = str) -> Iterator[Any]:
        for i, result in enumerate(real_map(self, fn, tasks, label)):
            if i == 0 and not killed:
                victim = cluster.worker_nodes.copy().pop()
                killed.append(victim.unique_id)
                cluster.remove_node(victim, allow_graceful=False)
            yield result

    monkeypatch.setattr(engines.RayEngine, "map", map_then_kill)
    step = _steps(shared, bed, _engine(cluster))[2]
    first = ulcdb(db, *step)
    monkeypatch.setattr(engines.RayEngine, "map", real_map)
    assert killed, "the run ended before a node could be killed"
    assert first.exit_code == 0 or (first.exit_code == 1 and "Ray task" in first.output
                                    and "failed" in first.output), first.output
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    for step in _steps(shared, bed, _engine(cluster))[2:]:
        result = ulcdb(db, *step)
        assert result.exit_code == 0, (step, result.output)
    assert _rows(db, SCORES) == _rows(serial, SCORES)
    assert _rows(db, SIGNATURES) == _rows(serial, SIGNATURES)


def test_tasks_of_a_killed_node_are_retried_elsewhere(cluster: Any) -> None:
    # At engine level, deterministically: six two-second tasks on two one-CPU nodes; a node
    # is killed while its tasks run; every result still comes back, in order.
    from ulcdb.scoring.engines import RayEngine

    results = RayEngine(address=cluster.address).map(_square_after, [(i, 2.0) for i in range(6)])
    killer = threading.Timer(1.0, lambda: _kill_one(cluster))
    killer.start()
    try:
        assert list(results) == [i * i for i in range(6)]
    finally:
        killer.join()
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()


def _kill_one(cluster: Any) -> None:
    cluster.remove_node(cluster.worker_nodes.copy().pop(), allow_graceful=False)


def _square_after(task: tuple[int, float]) -> int:
    time.sleep(task[1])
    return task[0] * task[0]


def test_the_drivers_ulcdb_settings_reach_the_workers(cluster: Any, shared: Path) -> None:
    # A cluster started before (as `ray start` does) does not see what --verbnet sets in the
    # driver: the engine that joins it hands the driver's ULCDB_* variables to the job.  The
    # driver is another process, so this one's connection to the cluster stays as it is.
    elsewhere = str(shared / "resources")
    script = ("import os, sys\n"
              "from ulcdb.scoring.engines import RayEngine\n"
              "got = list(RayEngine(address=sys.argv[1]).map(os.getenv, ['ULCDB_VERBNET'] * 2))\n"
              "print(got)\n")
    env = {**os.environ, "ULCDB_VERBNET": elsewhere, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, "-c", script, cluster.address], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == repr([elsewhere, elsewhere])
