"""benchmarks/bench_scale.py's synthetic campaign gives QUEEN and KING what they need: a
third reference, the references' scores against each other, the leave-one-out reference
sets at system level (issue 30), while the release's own rows stay as they are."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from itertools import permutations
from math import inf
from pathlib import Path
from types import ModuleType

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
SEGMENTS_DE_EN = 785  # input_details/de-en.txt
RAW = "delim='\t', header=false, quote='', escape='', all_varchar=true"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_scale",
                                                  REPO / "benchmarks" / "bench_scale.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_recipes_of_a_two_reference_pair() -> None:
    recipes = _bench().qarla_recipes("de-en", ["A", "B"])
    single = {(s, r, ds, dr, tag) for _, s, r, ds, dr, tag, _, multi in recipes if not multi}
    assert single == {
        ("Human-A.0", "newstestB2020", "ref-A", "newstestB2020", ""),  # the same text
        ("Human-B.0", "newstest2020", "ref-B", "newstest2020", ""),
        ("*", "newstestB2020", "*", "ref-C", "C"),  # C: a jittered copy of B
        ("Human-A.0", "newstestB2020", "ref-A", "ref-C", "C"),  # = Human-A.0 against C
        ("Human-B.0", "newstest2020", "ref-B", "ref-C", "C"),
        ("Human-B.0", "newstest2020", "ref-C", "ref-A", "C2"),
        ("Human-A.0", "newstestB2020", "ref-C", "ref-B", "C2")}
    multi = {(ds, dr) for _, _, _, ds, dr, _, _, m in recipes if m}
    # every system against each leave-one-out set and the whole set; the held-out reference
    # against the other two (A and B together: WMT20's own newstestM2020)
    assert multi == {("*", "ref-B+ref-C"), ("*", "ref-A+ref-C"), ("*", "newstestM2020"),
                     ("*", "ref-A+ref-B+ref-C"), ("ref-A", "ref-B+ref-C"),
                     ("ref-B", "ref-A+ref-C"), ("ref-C", "newstestM2020")}


def test_recipes_of_a_three_reference_pair() -> None:
    recipes = _bench().qarla_recipes("en-de", ["A", "B", "P"])
    assert not [r for r in recipes if "ref-C" in (r[3], r[4])]
    assert len([r for r in recipes if r[5] == ""]) == 6  # 3 x 2 ordered reference pairs
    assert {r[4] for r in recipes if r[7]} == {"ref-B+ref-P", "ref-A+ref-P", "newstestM2020",
                                               "ref-A+ref-B+ref-P"}


@pytest.fixture(scope="module")
def campaign(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The factor-1 campaign (the real four pairs and the QARLA rows), built once."""
    root = tmp_path_factory.mktemp("campaign") / "wmt20x1"
    _bench().build(root, 1)
    return root


def _sql(query: str) -> list[tuple[object, ...]]:
    con = duckdb.connect()
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


def _rows(path: Path, where: str) -> list[tuple[object, ...]]:
    return _sql(f"select * from read_csv('{path}', {RAW}) where {where} order by all")


@pytest.mark.slow
@pytest.mark.shared
def test_real_rows_stay_and_references_score_each_other(shared: Path, campaign: Path) -> None:
    real = shared / "testbeds" / "wmt20_metrics" / "metrics" / "seg" / "chrF.seg.tsv.gz"
    made = campaign / "metrics" / "seg" / "chrF.seg.tsv.gz"
    cols = "column0, column1, column2, column3, column4, column5, column6, column7::double"
    missing = _sql(f"select count(*) from (select {cols} from read_csv('{real}', {RAW}) "
                   f"except all select {cols} from read_csv('{made}', {RAW}))")
    assert missing == [(0,)]
    human = _rows(made, "column1 = 'de-en' and column4 = 'Human-B.0' "
                        "and column3 = 'newstest2020'")
    named = _rows(made, "column1 = 'de-en' and column4 = 'ref-B' and column3 = 'newstest2020'")
    assert len(human) == SEGMENTS_DE_EN
    assert [r[5:] for r in named] == [r[5:] for r in human]  # the same text, same scores


@pytest.mark.slow
@pytest.mark.shared
def test_third_reference_is_a_jittered_copy(shared: Path, campaign: Path) -> None:
    real = shared / "testbeds" / "wmt20_metrics" / "metrics" / "seg" / "chrF.seg.tsv.gz"
    made = campaign / "metrics" / "seg" / "chrF.seg.tsv.gz"
    pairs = _sql(f"""
        with r as (select * from read_csv('{made}', {RAW}) where column1 = 'de-en')
        select b.column7::double, c.column7::double
        from r b join r c on c.column4 = b.column4 and c.column5 = b.column5
         and c.column6 = b.column6
        where b.column3 = 'newstestB2020' and c.column3 = 'ref-C'""")
    [(sd,)] = _sql(f"select stddev_pop(column7::double) from read_csv('{real}', {RAW}) "
                   "where column1 = 'de-en'")  # the metric's spread on the pair
    assert isinstance(sd, float)
    # every row against B: chrF's 13 systems, and ref-A (Human-A.0's text) against B and C
    assert len(pairs) == 14 * SEGMENTS_DE_EN
    assert all(abs(float(c) - float(b)) <= 0.02 * sd * (1 + 1e-9) for b, c in pairs)  # type: ignore[arg-type]
    assert sum(b != c for b, c in pairs) > 0.99 * len(pairs)


@pytest.fixture(scope="module")
def store(campaign: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "x1.duckdb"
    subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), "ingest", "scores",
                    str(campaign), "--format", "wmt20"], check=True, capture_output=True)
    return db


def _ulcdb(db: Path, *args: str) -> list[list[str]]:
    done = subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(db), *args, "-f", "csv",
                           "-j", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [line.split(",") for line in done.stdout.splitlines()[1:]]


@pytest.mark.slow
@pytest.mark.shared
def test_queen_and_king_run_on_the_one_pair(store: Path) -> None:
    bench = _bench()
    metrics = bench.qarla_metrics(store)
    assert metrics == ["TER", "parbleu", "parchrf++", "wmt20:chrF"]
    rows = _ulcdb(store, "queen", "-t", bench.ONE, "-m", ",".join(metrics), "-G", "sys")
    assert len(rows) == 12  # de-en's MT systems (Human-A.0 and Human-B.0 are ref-A and ref-B)
    # 3 references: 3 x 3 x 2 triples per segment (r free, r' != r'')
    assert {r[7] for r in rows} == {str(18 * SEGMENTS_DE_EN)}
    king = _ulcdb(store, "king", "-t", bench.ONE, "-m", ",".join(metrics), "-G", "sys")
    assert [r[1] for r in king] == [*metrics, "ULC"]


def _queen_hits(db: Path, testbed: str, system: str, metrics: list[str]) -> int:
    """QUEEN's hits of ``system`` counted triple by triple from its test bed's segment
    scores (IQMT manual 3.1.1: every metric has x(a, r) >= x(r', r''))."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("""
            select m.name, t.name, f.name, s.seg_id, s.value
            from seg_score s join metric m using (metric_id)
            join translator t using (translator_id) join refset f using (refset_id)
            join testbed b on b.testbed_id = t.testbed_id
            where b.name = ? and f.size = 1 and list_contains(?, m.name)
              and s.value is not null""", [testbed, metrics]).fetchall()
        refs = [r for (r,) in con.execute(
            "select t.name from translator t join testbed b using (testbed_id) "
            "where b.name = ? and t.role = 'reference'", [testbed]).fetchall()]
    finally:
        con.close()
    x = {(m, t, r, seg): v for m, t, r, seg, v in rows}  # all higher-is-better as imported
    segments = {seg for *_, seg, _ in rows}
    return sum(all(x.get((m, system, r, seg), -inf) >= x.get((m, r1, r2, seg), inf)
                   for m in metrics)
               for seg in segments for r in refs for r1, r2 in permutations(refs, 2))


@pytest.mark.slow
@pytest.mark.shared
def test_queen_of_one_pair_ignores_the_other_pairs(store: Path) -> None:
    bench = _bench()
    metrics = bench.qarla_metrics(store)
    rows = _ulcdb(store, "queen", "-t", bench.ONE, "-m", ",".join(metrics), "-G", "sys")
    hits = {r[1]: int(r[6]) for r in rows}
    assert hits["Huoshan_Translate.789"] == _queen_hits(store, bench.ONE,
                                                        "Huoshan_Translate.789", metrics)


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("name", ["meta-sys", "meta-seg", "protocol"])
def test_the_benchmarks_meta_commands_run_on_the_campaign(store: Path, name: str) -> None:
    """The commands bench_scale times succeed on its campaign (the third reference made the
    default reference set one that no segment score is against: `meta -G seg` refused)."""
    args = _bench().command_args(store, ["de-en"])[name]
    args = ["10" if a == "1000" else a for a in args]  # bootstrap: 10 resamples do here
    done = subprocess.run([sys.executable, "-m", "ulcdb", "--db", str(store), *args],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) >= 3  # a header and a row per metric (2 or more)
