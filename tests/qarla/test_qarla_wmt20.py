"""QUEEN and KING on WMT20-layout releases, whose reference-vs-reference scores are stored as
the rows of the human systems (``Human-B.0`` against newstest2020 is x(ref-B, ref-A)), read
through the ``reference_rows`` view.

Every expected number is counted here in plain Python from the release's own metric files,
as the IQMT manual (3.1.1, 3.1.2) defines QUEEN, KING and ORANGE, not through ulcdb: a tiny
three-reference release written to tmp_path, and en-de of the real release
(../shared/testbeds/wmt20_metrics, references A, B and P)."""

from __future__ import annotations

import gzip
from collections import defaultdict
from itertools import permutations
from pathlib import Path

import pytest
from typer.testing import CliRunner
from wmt20_release import HUMANS, METRICS, MT, N_SEGS, REFSETS, VARIANT, Scores
from wmt20_release import release as _release

from ulcdb.cli.main import app
from ulcdb.formats.wmt import wmt20
from ulcdb.qarla.measures import Scope, king_rows, queen_rows
from ulcdb.store.database import Store


def _pair(scores: Scores, metric: str, r1: str, r2: str, seg: int) -> float | None:
    """x(r1, r2) as the release has it: the human translation of r1 against r2."""
    human = next(h for h, r in HUMANS.items() if r == r1)
    return scores.get((metric, human, r2, seg))


def _queen_counts(scores: Scores, metrics: tuple[str, ...], target: str, refs: list[str],
                  seg: int) -> tuple[int, int]:
    """(hits, triples) of QUEEN_{X,P}(target) on one segment, Asiya's reading: r in the pool P
    (R without the target), (r', r'') an ordered pair of distinct references of P; a hit when
    x(target, r) >= x(r', r'') for every metric x (a missing score is no hit)."""
    pool = [r for r in refs if r != target]
    hits = triples = 0
    for r in pool:
        for r1, r2 in permutations(pool, 2):
            triples += 1
            ok = True
            for m in metrics:
                a = scores.get((m, target, r, seg)) if target in MT else _pair(
                    scores, m, target, r, seg)
                b = _pair(scores, m, r1, r2, seg)
                ok = ok and a is not None and b is not None and a >= b
            hits += ok
    return hits, triples


def _king(scores: Scores, metric: str, refs: list[str], systems: tuple[str, ...],
          segs: range) -> tuple[float, float]:
    """KING and ORANGE of one metric at segment level (IQMT 3.1.2): per held-out h and segment,
    q(h) = x(h, R - {h}) against q(s) = x(s, R - {h}); ties count as beaten."""
    cases = beaten_all = beaten = 0
    for h in refs:
        (other,) = [r for r in refs if r != h]
        for seg in segs:
            q_h = _pair(scores, metric, h, other, seg)
            if q_h is None:
                continue
            # a system without a score is not beaten (Human-A.0 against ref-A alone)
            n = sum(scores.get((metric, s, other, seg), float("inf")) <= q_h for s in systems)
            cases += 1
            beaten += n
            beaten_all += n == len(systems)
    return beaten_all / cases, beaten / (cases * len(systems))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Scores]:
    root = tmp_path_factory.mktemp("wmt20tiny")
    scores = _release(root / "release")
    store = Store(root / "s.duckdb")
    wmt20.ingest_wmt20(store, root / "release")
    yield store, scores
    store.close()


def _scope(metrics: tuple[str, ...], refs: tuple[str, ...], systems: tuple[str, ...] = MT,
           testbed: str = "newstest2020:en-de") -> Scope:
    return Scope(testbed, VARIANT, metrics, systems, refs)


@pytest.mark.parametrize("metrics", [("MetricX",), METRICS])
def test_queen_counts_the_release_triples(tiny, metrics) -> None:
    store, scores = tiny
    refs = sorted(REFSETS.values())
    rows = queen_rows(store, _scope(metrics, tuple(refs)), "seg")
    got = {(r.translator, int(r.unit)): (r.hits, r.triples) for r in rows}
    want = {(t, seg): _queen_counts(scores, metrics, t, refs, seg)
            for t in (*MT, *refs) for seg in range(1, N_SEGS + 1)}
    assert got == want
    assert {r.refset for r in rows if r.translator == "ref-A"} == {"ref-B+ref-P"}
    sys = {r.translator: r.queen for r in queen_rows(store, _scope(metrics, tuple(refs)), "sys")}
    for t in (*MT, *refs):
        hits, triples = map(sum, zip(*(want[t, s] for s in range(1, N_SEGS + 1)), strict=True))
        assert sys[t] == pytest.approx(hits / triples, abs=1e-12)
    assert 0 < sum(h for h, _ in want.values()) < sum(n for _, n in want.values())


def test_king_and_orange_from_the_release_rows(tiny) -> None:
    store, scores = tiny
    refs = ("ref-A", "ref-B")
    got = {r.measure: (r.king, r.orange, r.cases)
           for r in king_rows(store, _scope(METRICS, refs), "seg", ["single"])}
    for metric in METRICS:
        king, orange = _king(scores, metric, list(refs), MT, range(1, N_SEGS + 1))
        assert got[metric] == (pytest.approx(king), pytest.approx(orange), 2 * N_SEGS)
    # system level: the sys files' values (each the mean of the target's segment values)
    sys = {r.measure: (r.king, r.orange, r.cases)
           for r in king_rows(store, _scope(METRICS, refs), "sys", ["single"])}
    for metric in METRICS:
        means = {(m, t, r, 0): sum(scores[m, t, r, s] for s in range(1, N_SEGS + 1)) / N_SEGS
                 for m, t, r, _ in scores}
        king, orange = _king(means, metric, list(refs), MT, range(1))
        assert sys[metric] == (pytest.approx(king), pytest.approx(orange), 2)


def test_human_rows_stay_the_systems_and_self_scores_are_left_out(tiny) -> None:
    store, scores = tiny
    by_target = dict(store.query(
        "select translator, count(*) from scores where level = 'seg' group by all"))
    assert by_target["Human-B.0"] == 2 * 3 * N_SEGS  # as stored, against A, B and P
    assert "ref-B" not in by_target  # the `scores` view (meta, export) is unchanged
    moved = store.query(
        "select t.name, f.name, count(*) from reference_rows r join translator t "
        "using (translator_id) join refset f using (refset_id) where r.level = 'seg' "
        "group by all order by all")
    assert moved == [(a, b, 2 * N_SEGS) for a, b in permutations(sorted(HUMANS.values()), 2)]


def test_a_stored_score_of_the_reference_is_not_shadowed(tmp_path: Path) -> None:
    """ref-B's own stored score against ref-A wins over Human-B.0's row for the same key."""
    root = tmp_path / "release"
    scores = _release(root)
    seg = root / "metrics" / "seg" / "MetricX.seg.tsv"
    units = [(doc, k) for doc, n in (("d1", 3), ("d2", N_SEGS - 3)) for k in range(1, n + 1)]
    seg.write_text(seg.read_text() + "".join(
        f"MetricX\ten-de\tnewstest2020\tnewstest2020\tref-B\t{doc}\t{k}\t0.05\n"
        for doc, k in units))
    with Store(tmp_path / "s.duckdb") as store:
        wmt20.ingest_wmt20(store, root)
        assert store.scalar("select role from translator where name = 'ref-B'") == "reference"
        values = store.query(
            "select v.value from qarla_values(['MetricX'], 'seg') v join translator t "
            "using (translator_id) join refset f using (refset_id) "
            "where t.name = 'ref-B' and f.name = 'ref-A'")
        assert values == [(0.05,)] * N_SEGS
        assert {scores["MetricX", "Human-B.0", "ref-A", s] for s in range(1, N_SEGS + 1)} != {0.05}


def test_a_test_bed_without_human_systems_is_unchanged(tmp_path: Path) -> None:
    root = tmp_path / "release"
    _release(root)
    for path in (root / "metrics").rglob("*.tsv"):
        path.write_text("".join(ln for ln in path.read_text().splitlines(keepends=True)
                                if "\tHuman-" not in ln))
    with Store(tmp_path / "s.duckdb") as store:
        wmt20.ingest_wmt20(store, root)
        assert store.scalar("select count(*) from reference_rows") == 0
        assert queen_rows(store, _scope(METRICS, ("ref-A", "ref-B", "ref-P")), "sys") == []


def _king_row_is(output: str, scores: Scores, systems: tuple[str, ...]) -> None:
    """The CSV row of MetricX in `ulcdb king`'s output holds the KING and ORANGE counted by
    hand over ``systems`` with references A and B."""
    king, orange = _king(scores, "MetricX", ["ref-A", "ref-B"], systems, range(1, N_SEGS + 1))
    row = next(r for r in output.splitlines() if r.startswith("seg,MetricX,"))
    assert [float(v) for v in row.split(",")[2:4]] == [pytest.approx(king),
                                                        pytest.approx(orange)]


def test_cli_king_leaves_the_references_own_texts_out_unless_named(tmp_path: Path) -> None:
    """`ulcdb king` on the release: the human systems that are the references' texts are
    left out of the systems compared by default (as mt-metrics-eval does), and the note says
    so; KING and ORANGE are then the hand-counted ones over the MT systems.  Named with -s,
    they are compared, and the note says what they are."""
    scores = _release(tmp_path / "release")
    db = tmp_path / "s.duckdb"
    with Store(db) as store:
        wmt20.ingest_wmt20(store, tmp_path / "release")
    args = ["--db", str(db), "king", "-m", "MetricX", "-r", "ref-A,ref-B", "-G", "seg",
            "--orange", "--format", "csv"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert ("left out of the systems compared, as a reference's own text: Human-A.0 (= ref-A), "
            "Human-B.0 (= ref-B); name them with -s") in " ".join(result.output.split())
    # the release has no scores against ref-A+ref-B, so no bounds for ULC: said, not silent
    assert ("no KING of ULC at seg level: MetricX has no seg scores against ref-A+ref-B"
            in " ".join(result.output.split()))
    # Human-P.0 stays: reference P is not among the references used
    _king_row_is(result.output, scores, (*MT, "Human-P.0"))
    result = CliRunner().invoke(app, [*args, "-s", ",".join(MT)])
    assert result.exit_code == 0 and "own text" not in result.output, result.output
    _king_row_is(result.output, scores, MT)
    result = CliRunner().invoke(app, [*args, "-s", ",".join([*MT, "Human-A.0"])])
    assert result.exit_code == 0, result.output
    assert ("compared as systems: Human-A.0 (= ref-A); leave them out with -s"
            in " ".join(result.output.split()))
    _king_row_is(result.output, scores, (*MT, "Human-A.0"))


# -- the real release: en-de, references A, B and P --------------------------------------------

REAL = {"wmt20:chrF": "chrF", "TER": "TER"}  # stored name -> file


def _real_scores(release: Path) -> Scores:
    """en-de's single-reference segment scores of chrF and TER, read from the gzipped files
    (the test bed numbers segments in input_details order, its SID)."""
    sid = {}
    for line in (release / "input_details" / "en-de.txt").read_text().splitlines():
        n, _testset, _lp, doc, k = line.split()
        sid[doc, int(k)] = int(n)
    scores: Scores = {}
    for stored, name in REAL.items():
        with gzip.open(release / "metrics" / "seg" / f"{name}.seg.tsv.gz", "rt") as fh:
            for line in fh:
                _m, lp, _t, refset, system, doc, k, value = line.rstrip("\n").split("\t")
                if lp == "en-de" and refset in REFSETS:
                    scores[stored, system, REFSETS[refset], sid[doc, int(k)]] = float(value)
    return scores


@pytest.fixture(scope="module")
def real(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Scores]:
    release = shared / "testbeds" / "wmt20_metrics"
    if not (release / "input_details" / "en-de.txt").exists():
        pytest.skip("wmt20_metrics not in shared data")
    store = Store(tmp_path_factory.mktemp("wmt20ende") / "s.duckdb")
    wmt20.ingest_wmt20(store, release, lps=["en-de"])
    yield store, _real_scores(release)
    store.close()


def test_real_ende_queen_of_a_system_and_a_segment(real) -> None:
    store, scores = real
    metrics = tuple(REAL)
    refs = ["ref-A", "ref-B", "ref-P"]
    systems = ("OPPO.1535",)
    seg = {int(r.unit): (r.hits, r.triples) for r in queen_rows(
        store, _scope(metrics, tuple(refs), systems), "seg") if r.translator == "OPPO.1535"}
    n_segs = 1418
    want = {s: _queen_counts_real(scores, metrics, "OPPO.1535", refs, s)
            for s in range(1, n_segs + 1)}
    assert seg[700] == want[700] and seg == want
    hits, triples = map(sum, zip(*want.values(), strict=True))
    sys = queen_rows(store, _scope(metrics, tuple(refs), systems), "sys")
    got = {r.translator: r.queen for r in sys}
    assert got["OPPO.1535"] == pytest.approx(hits / triples, abs=1e-12)
    assert (hits, triples) == (13778, 18 * n_segs)  # docs/how-to/import-scores.md


def _queen_counts_real(scores: Scores, metrics: tuple[str, ...], target: str,
                       refs: list[str], seg: int) -> tuple[int, int]:
    hits = triples = 0
    for r in refs:
        for r1, r2 in permutations(refs, 2):
            triples += 1
            human = "Human-" + r1[-1] + ".0"
            hits += all((a := scores.get((m, target, r, seg))) is not None
                        and (b := scores.get((m, human, r2, seg))) is not None and a >= b
                        for m in metrics)
    return hits, triples


def test_real_ende_king_against_references_a_and_b(real) -> None:
    store, scores = real
    systems = tuple(sorted({k[1] for k in scores if not k[1].startswith("Human-")}))
    got = {r.measure: (r.king, r.orange) for r in king_rows(
        store, _scope(("TER",), ("ref-A", "ref-B"), systems), "seg", ["single"])}
    cases = beaten_all = beaten = 0
    wins: dict[str, int] = defaultdict(int)
    for h, other in (("ref-A", "ref-B"), ("ref-B", "ref-A")):
        for seg in range(1, 1419):
            q_h = scores["TER", "Human-" + h[-1] + ".0", other, seg]
            n = sum(scores.get(("TER", s, other, seg), float("inf")) <= q_h for s in systems)
            cases += 1
            beaten += n
            beaten_all += n == len(systems)
            wins[h] += n == len(systems)
    assert got["TER"] == (pytest.approx(beaten_all / cases), pytest.approx(
        beaten / (cases * len(systems))))
    assert 0 < beaten_all < cases and wins["ref-A"] and wins["ref-B"]
    assert len(systems) == 14 and round(got["TER"][0], 4) == 0.1883  # as the docs say
