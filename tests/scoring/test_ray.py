"""Scale-out on Ray (issue 16): annotation and LEX scoring of the WMT21 ru-en sample on a
local Ray cluster give the store a local run gives, row for row (values, signatures,
annotations); both equal a serial run in one process (-j 1: no workers, nothing pickled or
shared)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                reason="Ray not installed (pip install '.[ray]')")

METRICS = "LEX,SP-Op-*,SP-NIST-l-4"
SEMANTIC = "TINE,DR-STM-4,DR-Or-dr"  # VerbNet on the workers; DRSs built from the analyses


@pytest.fixture(scope="module")
def stores(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    bed = shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"
    folder = tmp_path_factory.mktemp("ray")
    out = {}
    for name, engine, jobs in (("serial", "local", "1"), ("local", "local", "2"),
                               ("ray", "ray", "2")):
        db = folder / f"{name}.duckdb"
        steps = [("ingest", "testbed", bed / "segments_long.tsv", "--name", "ruen",
                  "--src-lang", "ru", "--tgt-lang", "en"),
                 ("annotate", "-j", jobs, "--engine", engine),
                 ("score", "-m", METRICS, "-G", "all", "-j", jobs, "--engine", engine,
                  "-f", "csv"),
                 ("score", "-m", SEMANTIC, "-s", "Online-W,Facebook-AI", "-G", "all",
                  "-j", jobs, "--engine", engine, "--verbnet",
                  shared / "resources" / "verbnet3.zip", "-f", "csv")]
        for step in steps:
            result = ulcdb(db, *step)
            assert result.exit_code == 0, (name, step, result.output)
        out[name] = db
    import ray

    ray.shutdown()
    return out


def _rows(db: Path, sql: str) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query(sql)


def test_ray_store_equals_local_store(stores: dict[str, Path]) -> None:
    scores = ("select metric, translator, refset, variant, level, doc_id, seg_id, value "
              "from scores order by all")
    serial, local = _rows(stores["serial"], scores), _rows(stores["local"], scores)
    assert len(serial) > 100_000 and serial == local == _rows(stores["ray"], scores)
    assert {m for m, *_ in serial} >= {"TINE", "DR-STM-4", "DR-Or-dr"}
    signatures = "select distinct family, signature from score_batch order by all"
    assert _rows(stores["serial"], signatures) == _rows(stores["local"], signatures) == \
        _rows(stores["ray"], signatures)
    tokens = ("select text_hash, tok, sent, form, lemma, tag, pos, head, deprel from ann_token "
              "order by all")
    assert _rows(stores["serial"], tokens) == _rows(stores["local"], tokens) == \
        _rows(stores["ray"], tokens)


def test_a_rerun_on_ray_computes_nothing(stores: dict[str, Path]) -> None:
    result = ulcdb(stores["ray"], "score", "-m", METRICS, "--engine", "ray", "-j", "2")
    assert result.exit_code == 0, result.output
    assert "computed nothing new" in result.output
    import ray

    ray.shutdown()


def test_engine_errors_are_one_line(tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    assert ulcdb(db, "init").exit_code == 0
    result = ulcdb(db, "annotate", "--address", "auto")
    assert result.exit_code == 1 and "--address is for --engine ray" in result.output


def test_shared_inputs_cross_once_and_are_unpickled_once_per_worker() -> None:
    # What a Ray worker runs (engines._call), without a cluster: the task names its shared
    # value by key; the first call unpickles the bytes it is given, later calls in the same
    # worker take the cached value (here they are handed other bytes, which must go unread).
    import pickle

    from ulcdb.scoring.engines import _CACHE, Shared, _call, _dumps

    value = [0.25, "Mr Smith", ("NN", 3)]
    handle = Shared("test-key")
    payload, keys = _dumps((repr, (handle, [handle], 7)))
    assert keys == ["test-key"]
    assert b"Mr Smith" not in payload  # the value is not pickled into the task
    _CACHE.pop("test-key", None)
    first = pickle.loads(_call(payload, keys, pickle.dumps(value)))
    assert first == repr((value, [value], 7))
    again = pickle.loads(_call(payload, keys, pickle.dumps(["other"])))
    assert again == first
    _CACHE.pop("test-key", None)


def test_ulcdb_refusals_are_not_retried_and_read_as_locally() -> None:
    # ulcdb's own errors (bad input, a missing resource) fail the same way on every try:
    # engines._call hands them back as a value, so Ray does not retry them, and the driver
    # raises the very error the local engine raises.
    import pickle

    from ulcdb.errors import InputError
    from ulcdb.formats.assessments import parse_scale
    from ulcdb.scoring.engines import LocalEngine, RayEngine, _call, _dumps, _Refused

    payload, keys = _dumps((parse_scale, "bad"))
    refused = pickle.loads(_call(payload, keys))
    assert isinstance(refused, _Refused) and isinstance(refused.error, InputError)
    with pytest.raises(InputError) as local:
        list(LocalEngine(1).map(parse_scale, ["0:100", "bad"]))
    with pytest.raises(InputError) as remote:
        list(RayEngine(1).map(parse_scale, ["0:100", "bad"]))
    assert str(remote.value) == str(local.value) == (
        "--scale: give the scale as MIN:MAX (e.g. 0:100), not 'bad'")


def test_a_refusal_cancels_no_task_whose_result_is_there(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # Cancelling a finished task races with Ray recording its completion, and the losing
    # side is a failed check that ends the driver's process without a word (it ended a
    # full test run here): after a refusal only the tasks not done are cancelled.
    import ray

    from ulcdb.errors import InputError
    from ulcdb.formats.assessments import parse_scale
    from ulcdb.scoring.engines import RayEngine

    engine = RayEngine(1)
    cancelled: list[object] = []
    monkeypatch.setattr(ray, "cancel", lambda ref, **kwargs: cancelled.append(ref))
    with pytest.raises(InputError):
        list(engine.map(parse_scale, ["0:100", "bad"]))  # both done when "bad" is read
    assert cancelled == []
