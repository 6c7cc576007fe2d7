"""Score rows as Arrow (issue 28): a worker packs a pair's scores once (a statistics table
shared by a family's metrics crosses once), the driver stores exactly the values the family
gave, and a run hands every family's tasks to the engine before it writes the first."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from ulcdb.ingest.load import load_testbed
from ulcdb.metrics.base import Documents, LevelScores, Params
from ulcdb.metrics.bleu import BleuFamily
from ulcdb.scoring.engines import LocalEngine
from ulcdb.scoring.rows import Rows, pack
from ulcdb.scoring.scorer import Pair, Scorer
from ulcdb.scoring.workers import pool_context
from ulcdb.store.database import Store

HYPS = ["the cat sat on the mat", "a dog", "it rains today in the north"]
REFS = [["the cat sat on a mat", "a dog barks", "it rains in the north today"]]
DOCS = Documents(("d1", "d1", "d2"))


def test_pack_keeps_the_family_values_and_sends_shared_statistics_once() -> None:
    result = BleuFamily().compute(HYPS, REFS, DOCS, Params())
    packed = pack(result)
    assert packed.names == tuple(result) and len(packed.names) == 8
    assert len(packed.stats) == 1 and set(packed.stats_of) == {0}  # one table, 8 metrics
    assert len(packed.doc_ids) == 1 and packed.doc_ids[0].to_pylist() == ["d1", "d2"]
    assert packed.stats[0].to_pylist() == [[float(x) for x in row]
                                           for row in result["BLEU"].seg_stats or []]
    values = packed.seg.to_pylist()
    assert values == [v for sc in result.values() for v in sc.seg]
    assert list(packed.sys) == [sc.sys for sc in result.values()]
    assert [a.to_pylist() for a in packed.doc] == [list(sc.doc.values())
                                                  for sc in result.values()]


def test_missing_scores_stay_null_and_nan_stays_nan() -> None:
    packed = pack({"a": LevelScores(seg=[None, float("nan"), 0.5], doc={"d1": None}, sys=None),
                   "b": LevelScores(seg=[1, 2], doc={"d1": 1.5, "d2": 2.0}, sys=3,
                                    seg_stats=[[1, 2], [3.5, 4]])})
    assert packed.nseg == (3, 2) and packed.stats_of == (-1, 0) and packed.doc_of == (0, 1)
    values = packed.seg.to_pylist()
    assert values[0] is None and math.isnan(values[1]) and values[2:] == [0.5, 1.0, 2.0]
    assert packed.sys == (None, 3.0)
    rows = Rows(skip={(1, 7, 9, "case:mixed")})  # metric a's key is imported: left alone
    rows.add(7, 9, "case:mixed", 4, packed, {"a": 1, "b": 2})
    seg = [b.to_pylist() for b in rows.seg]
    assert seg == [[{"metric_id": 2, "translator_id": 7, "refset_id": 9, "variant": "case:mixed",
                     "batch_id": 4, "seg_id": i + 1, "value": v, "stats": s}
                    for i, (v, s) in enumerate([(1.0, [1.0, 2.0]), (2.0, [3.5, 4.0])])]]
    assert rows.written == {(2, 7, 9, "case:mixed")}
    assert rows.doc[0].column("doc_id").to_pylist() == ["d1", "d2"]


class _Recording:
    """An engine that runs tasks in this process, noting when tasks are handed over and
    when their results are read."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]:
        items = list(tasks)
        self.events.append(f"map {items[0][0].name}")
        return self._read(fn, items)

    def _read(self, fn: Callable[[Any], Any], items: list[Any]) -> Iterator[Any]:
        for item in items:
            self.events.append(f"read {item[0].name}")
            yield fn(item)

    def share(self, value: Any) -> Any:
        return value

    def close(self, cancel: bool = False) -> None:
        self.events.append("close")


@pytest.fixture()
def sample_store(tmp_path: Path) -> Iterator[Store]:
    from ulcdb.formats.plain import read_plain

    p = REPO / "sample" / "plain"
    store = Store(tmp_path / "s.duckdb")
    load_testbed(store, read_plain("s", p / "source.es.txt",
                                   {"ref-A": p / "refs" / "ref-A.en.txt"},
                                   {"sysA": p / "systems" / "sysA.en.txt"}, p / "docs.tsv",
                                   "es", "en"))
    yield store
    store.close()


def test_a_run_hands_every_family_over_before_it_writes_one(sample_store: Store) -> None:
    engine = _Recording()
    report = Scorer(sample_store, "s", engine=engine).run(
        ["BLEU", "chrF"], [Pair("sysA", ("ref-A",))])
    assert engine.events == ["map BLEU", "map chrF", "read BLEU", "read chrF", "close"]
    assert set(report.compute_cpu) == set(report.write_seconds) == {"BLEU", "chrF"}
    assert all(v > 0 for v in report.write_seconds.values())
    stored = sample_store.query("select metric, count(*) from scores where level = 'seg' "
                                "group by metric order by metric")
    assert dict(stored)["BLEU"] == dict(stored)["chrF++"] > 0


@pytest.mark.parametrize("jobs, warmed", [(2, True), (1, False)])
def test_families_warm_up_in_the_driver_before_its_workers_fork(
        sample_store: Store, monkeypatch: pytest.MonkeyPatch, jobs: int, warmed: bool) -> None:
    """Compiled kernels are loaded once, in the driver the workers fork from (issue 28:
    ROUGE's took 9 s of CPU per worker on a cold numba cache), never after the pool runs."""
    from ulcdb.metrics.chrf import ChrfFamily

    events: list[str] = []
    original = LocalEngine.map

    def noting_map(self: LocalEngine, *args: Any, **kwargs: Any) -> Iterator[Any]:
        events.append("map")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LocalEngine, "map", noting_map)
    monkeypatch.setattr(BleuFamily, "warm_up", lambda self: events.append("warm BLEU"))
    monkeypatch.setattr(ChrfFamily, "warm_up", lambda self: events.append("warm chrF"))
    if pool_context().get_start_method() != "fork":  # a fork server: nothing inherited
        warmed = False
    Scorer(sample_store, "s", engine=LocalEngine(jobs)).run(["BLEU", "chrF"],
                                                            [Pair("sysA", ("ref-A",))])
    warm = ["warm BLEU", "warm chrF"] if warmed else []
    assert events == [*warm, "map", "map"]


def test_rouge_warms_up_its_compiled_kernels() -> None:
    from ulcdb.metrics import rouge_kernel
    from ulcdb.metrics.rouge import RougeFamily

    if rouge_kernel.pair_hits() is None:
        pytest.skip("numba is not installed")
    RougeFamily().warm_up()
    for kernel in (rouge_kernel.pair_hits(), rouge_kernel.bootstrap_totals()):
        assert kernel.signatures  # type: ignore[union-attr]


def test_meteor_gtm_and_ter_warm_up_their_compiled_kernels() -> None:
    """In a fresh process (the suite's may have compiled them already): after warm_up the
    dispatchers hold a compiled signature, so forked workers inherit it."""
    code = """
from ulcdb.metrics.gtm import GtmFamily
from ulcdb.metrics.ter import TerFamily
from ulcdb.metrics.meteor.family import MeteorFamily
from ulcdb.metrics import gtm_kernel, ter_kernel
from ulcdb.metrics.meteor import kernel
kernels = (gtm_kernel.compiled_matching(), ter_kernel._kernel(), kernel.compiled_statistics())
if None in kernels:
    print("no numba")
else:
    print([len(k.signatures) for k in kernels])
    for family in (GtmFamily, TerFamily, MeteorFamily):
        family().warm_up()
    print([len(k.signatures) for k in kernels])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    if done.stdout.startswith("no numba"):
        pytest.skip("numba is not installed")
    assert done.stdout.split("\n")[:2] == ["[0, 0, 0]", "[1, 1, 1]"]
