"""A family computation stores its statistics once (issue 28): BLEU's 8 and NIST's 10 metrics
share one list per segment, stored on one metric's rows (the carrier); every reader gets them
through the table macro ``seg_stats`` (schema/views/seg_stats.sql), for this layout and for a
store written before it (every metric's rows holding the list), and deleting, replacing or
rescoring one metric of the family keeps the others' statistics."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

from tests.cli_helpers import ulcdb
from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.metrics.base import Documents, Family, Params
from ulcdb.metrics.bleu import BleuFamily
from ulcdb.metrics.chrf import ChrfFamily
from ulcdb.metrics.nist import NistFamily
from ulcdb.metrics.ter import TerFamily
from ulcdb.metrics.wer_per import ErrorRateFamily
from ulcdb.scoring.engines import LocalEngine
from ulcdb.scoring.scorer import Pair, Scorer
from ulcdb.store.database import Store, named_query

PLAIN = REPO / "sample" / "plain"
PAIRS = [Pair("sysA", ("ref-A",)), Pair("sysB", ("ref-A",)), Pair("sysA", ("ref-A", "ref-B"))]
READERS = ["BLEU", "BLEU-2", "BLEUi-4", "NIST", "NIST-3", "chrF", "chrF++"]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _score(store: Store, metrics: list[str], remake: bool = False) -> None:
    Scorer(store, "s", engine=LocalEngine(1)).run(metrics, PAIRS, remake=remake)


@pytest.fixture()
def db(tmp_path: Path) -> Iterator[Path]:
    """The bundled sample with BLEU, NIST and chrF scored for PAIRS."""
    path = tmp_path / "s.duckdb"
    with Store(path) as store:
        load_testbed(store, read_plain(
            "s", PLAIN / "source.es.txt",
            {r: PLAIN / "refs" / f"{r}.en.txt" for r in ("ref-A", "ref-B")},
            {s: PLAIN / "systems" / f"{s}.en.txt" for s in ("sysA", "sysB")},
            PLAIN / "docs.tsv", "es", "en"))
        _score(store, ["BLEU", "NIST", "chrF"])
    yield path


def _family_stats(families: tuple[type[Family], ...] = (BleuFamily, NistFamily, ChrfFamily)
                  ) -> dict[tuple[str, str, str], list[list[float]]]:
    """(metric, target, reference set) -> the statistics each family gives, computed here."""
    docs = Documents(tuple(r.split("\t")[1] for r in _lines(PLAIN / "docs.tsv")[1:]))
    out = {}
    for pair in PAIRS:
        hyps = _lines(PLAIN / "systems" / f"{pair.target}.en.txt")
        refs = [_lines(PLAIN / "refs" / f"{r}.en.txt") for r in pair.refs]
        for family in families:
            for name, scores in family().compute(hyps, refs, docs, Params()).items():
                assert scores.seg_stats is not None
                out[name, pair.target, pair.refset] = [[float(x) for x in row]
                                                       for row in scores.seg_stats]
    return out


def _read(store: Store, metrics: list[str]) -> dict[tuple[str, str, str], list[list[float]]]:
    """(metric, target, reference set) -> its statistics in segment order, from seg_stats."""
    rows = store.query(
        "select m.name, t.name, r.name, list(s.stats order by s.seg_id) from seg_stats(?) s "
        "join metric m using (metric_id) join translator t using (translator_id) "
        "join refset r using (refset_id) group by all", [metrics])
    return {(m, t, r): stats for m, t, r, stats in rows}


def _carriers(store: Store, family: str) -> dict[str, int]:
    """Metric -> its segment rows holding a statistics list, in the family ``family``."""
    return dict(store.query(
        "select m.name, count(*) filter (where len(s.stats) > 0) from seg_score s "
        "join metric m using (metric_id) where m.family = ? group by all", [family]))


def _named_readers(store: Store) -> list[object]:
    """What every named query reading statistics gives for the metrics of READERS."""
    tid = store.testbed_id("s")
    out: list[object] = []
    for metric in READERS:
        out.append(sorted(store.query(named_query("compare_seg_stats"),
                                      [tid, metric, "ref-A", "case:mixed", ["sysA", "sysB"]])))
        out.append(sorted(store.query(named_query("summed_stats_rows"), {
            "testbed": "s", "metric": metric, "refset": "ref-A+ref-B",
            "variant": "case:mixed"})))
    out.append(sorted(store.query(named_query("sacrebleu_pair_stats"), {
        "tid": tid, "variant": "case:mixed", "metrics": READERS, "targets": [], "refsets": []})))
    out.append(store.query(named_query("meta_slice_stats"),
                           [tid, "s", "ref-A", READERS, [2, 3, 5], None, "seg"]))
    return out


def test_a_family_computation_stores_its_statistics_once(db: Path) -> None:
    n = 3 * len(_lines(PLAIN / "source.es.txt"))  # segment rows of a metric: 3 pairs
    with Store(db) as store:
        bleu, nist = _carriers(store, "BLEU"), _carriers(store, "NIST")
        assert bleu == {"BLEU": n, **{m: 0 for m in bleu if m != "BLEU"}} and len(bleu) == 8
        assert nist == {"NIST": n, **{m: 0 for m in nist if m != "NIST"}} and len(nist) == 10
        assert _carriers(store, "chrF") == {"chrF": n, "chrF++": n}  # two lists: each its own
        want = _family_stats()
        assert _read(store, list(bleu) + list(nist) + ["chrF", "chrF++"]) == want
        assert store.scalar("select count(*) from seg_stats(['BLEU-2']) where stats is null") == 0


@pytest.mark.parametrize("family, carrier, others", [
    (ErrorRateFamily, "-WER", ("1-WER", "-PER", "1-PER")), (TerFamily, "1-TER", ("-TER",))])
def test_wer_per_and_ter_store_their_statistics_once(
        db: Path, family: type[Family], carrier: str, others: tuple[str, ...]) -> None:
    """WER and PER's four metrics share one list per segment, as TER's two do: on the rows
    of the first metric only."""
    with Store(db) as store:
        _score(store, [carrier, *others])
        n = 3 * len(_lines(PLAIN / "source.es.txt"))
        assert _carriers(store, family.name) == {carrier: n, **dict.fromkeys(others, 0)}
        want = _family_stats((family,))
        assert len(want) == (1 + len(others)) * len(PAIRS)
        assert _read(store, [carrier, *others]) == want
    first = want[others[-1], "sysA", "ref-A+ref-B"][0]
    if family is ErrorRateFamily:  # sysA's first line: 12 words; ref-A: distance 3, 10
        assert first == [12.0, 3.0, 10.0, 11.0, 12.0, 3.0, 11.0]  # correct of 11; ref-B: 12, 3
    else:  # TER: 3 edits against ref-A, the better reference; both have 11 words
        assert first == [3.0, 11.0]


def test_a_store_with_statistics_on_every_metric_reads_the_same(db: Path) -> None:
    """The layout before the carrier: each metric's rows hold their list (written here from
    the carriers' rows); every named query reading statistics gives the same rows."""
    with Store(db) as store:
        before = _named_readers(store)
        spread = store.scalar("select count(*) from seg_score where len(stats) = 0")
        store.con.execute(
            "update seg_score s set stats = c.stats from seg_score c where len(s.stats) = 0 "
            "and len(c.stats) > 0 and c.batch_id = s.batch_id and c.translator_id = "
            "s.translator_id and c.refset_id = s.refset_id and c.variant = s.variant and "
            "c.seg_id = s.seg_id")
        assert spread == 16 * 3 * len(_lines(PLAIN / "source.es.txt"))  # 7 BLEU + 9 NIST
        assert store.scalar("select count(*) from seg_score where len(stats) = 0") == 0
        assert _carriers(store, "BLEU")["BLEU-3"] > 0
        assert _named_readers(store) == before
        assert _read(store, READERS) == {k: v for k, v in _family_stats().items()
                                         if k[0] in READERS}


def _ok(db: Path, *args: object) -> None:
    result = ulcdb(db, *args)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("gone", [["BLEU"], ["BLEU", "BLEU-1"], ["BLEU-2"], ["NIST", "BLEU"]])
def test_deleting_some_metrics_of_a_family_keeps_the_others_statistics(
        db: Path, gone: list[str]) -> None:
    _ok(db, "delete", "scores", "-m", ",".join(gone), "--yes")
    if gone == ["BLEU", "BLEU-1"]:  # one after the other: the heir hands them on again
        _ok(db, "delete", "scores", "-m", "BLEU-2", "--yes")
        gone = [*gone, "BLEU-2"]
    want = {k: v for k, v in _family_stats().items() if k[0] not in gone}
    with Store(db) as store:
        assert _read(store, [m for m, _, _ in want]) == want
        for family in ("BLEU", "NIST"):
            carriers = _carriers(store, family)
            assert sorted(carriers.values())[-1] > 0 and sum(carriers.values()) == max(
                carriers.values())  # still once: on one metric
        _score(store, ["BLEU", "NIST"])  # rescored: the family's pairs written again
        assert _read(store, list(_family_stats_names())) == _family_stats()
        assert _carriers(store, "BLEU")["BLEU"] == _carriers(store, "NIST")["NIST"] > 0
        assert sum(_carriers(store, "BLEU").values()) == _carriers(store, "BLEU")["BLEU"]


def _family_stats_names() -> dict[str, None]:
    return dict.fromkeys(m for m, _, _ in _family_stats())


def test_rescoring_and_replacing_the_carrier_keeps_the_others_statistics(db: Path) -> None:
    """--remake rewrites every metric of the family (the carrier again on BLEU); an import
    of BLEU's segment scores with --replace takes the carrier's rows away: BLEU-1 carries
    the statistics on, and a rescoring leaves the imported key alone, writing them on BLEU-1."""
    with Store(db) as store:
        _score(store, ["BLEU"], remake=True)
        assert _carriers(store, "BLEU")["BLEU-1"] == 0
        assert _read(store, ["BLEU-4"]) == {k: v for k, v in _family_stats().items()
                                            if k[0] == "BLEU-4"}
    n = len(_lines(PLAIN / "source.es.txt"))
    table = db.parent / "bleu.csv"
    table.write_text("metric,target,refset,level,seg_id,value\n" + "".join(
        f"BLEU,sysA,ref-A,seg,{i},0.5\n" for i in range(1, n + 1)), encoding="utf-8")
    _ok(db, "ingest", "scores", table, "--format", "table", "--replace")
    want = {k: v for k, v in _family_stats().items() if k[0].startswith("BLEU")}
    with Store(db) as store:
        got = _read(store, list(dict.fromkeys(m for m, _, _ in want)))
        assert got.pop(("BLEU", "sysA", "ref-A")) == [None] * n  # imported: no statistics
        assert got == {k: v for k, v in want.items() if k != ("BLEU", "sysA", "ref-A")}
        assert _carriers(store, "BLEU")["BLEU-1"] == n
        _score(store, ["BLEU"], remake=True)  # the imported key is left as it is
        got = _read(store, list(dict.fromkeys(m for m, _, _ in want)))
        assert got.pop(("BLEU", "sysA", "ref-A")) == [None] * n
        assert got == {k: v for k, v in want.items() if k != ("BLEU", "sysA", "ref-A")}
        assert _carriers(store, "BLEU")["BLEU-1"] == n
