"""`ulcdb meta --protocol wmt23|wmt24` (issue 17) on the WMT21 en-de sample.

The store: the sample's 56 segments, 20 systems and 4 references, MQM for 47 segments of 8
systems (from the long TSV), BLEU-2, BLEU-4, chrF and 1-TER scored at every level; the same
sample again as test bed 'ende2' for wmt23's global accuracy.  Expected numbers come from the
functions of ulcdb.stats.mt_metrics_eval (checked against MTME in tests/stats/test_wmt23_stats.py)
and scipy,
on arrays built here with plain SQL from the store.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pytest
import scipy.stats
from cli_helpers import ulcdb

from ulcdb.stats import mt_metrics_eval

METRICS = ("BLEU-2", "BLEU-4", "chrF", "1-TER")
REFSET = "ref-A+ref-B-draft+ref-C+ref-D"
K = 150  # resamples per pair: past one block of 100, so early stopping is exercised
SEED = 7


def _ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def db(shared: Path, tmp_path_factory) -> Path:
    sample = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not (sample / "segments_long.tsv").exists():
        pytest.skip("en-de sample not in shared data")
    path = tmp_path_factory.mktemp("protocol") / "ende.duckdb"
    for name in ("ende", "ende2"):
        _ok(ulcdb(path, "ingest", "testbed", sample / "segments_long.tsv", "--name", name))
        _ok(ulcdb(path, "score", "-t", name, "-m", ",".join(METRICS), "-G", "all", "-f",
                  "csv"))
    return path


# -- arrays with plain SQL ---------------------------------------------------------------------


@dataclass
class Arrays:
    human: np.ndarray  # (systems, segments) or (systems,)
    metrics: dict[str, np.ndarray]


def _seg(db: Path, testbed: str = "ende") -> Arrays:
    """MQM and metric segment scores of the judged systems (no reference), NaN elsewhere."""
    with duckdb.connect(str(db), read_only=True) as con:
        human = con.execute(
            "select translator, seg_id, avg(value) from assessments where testbed = ? and "
            "criterion = 'MQM' and level = 'seg' and role = 'system' group by all",
            [testbed]).fetchall()
        scores = con.execute(
            "select metric, translator, seg_id, value from scores where testbed = ? and "
            "level = 'seg' and refset = ? and role = 'system' and list_contains(?, metric)",
            [testbed, REFSET, list(METRICS)]).fetchall()
    systems = sorted({r[0] for r in human})
    segs = sorted({r[1] for r in human})
    si, gi = {s: i for i, s in enumerate(systems)}, {g: i for i, g in enumerate(segs)}
    h = np.full((len(systems), len(segs)), np.nan)
    for t, g, v in human:
        h[si[t], gi[g]] = v
    out = {m: np.full_like(h, np.nan) for m in METRICS}
    for m, t, g, v in scores:
        if t in si and g in gi:
            out[m][si[t], gi[g]] = v
    for a in out.values():  # the items every metric scores and MQM judges
        a[np.isnan(h)] = np.nan
    return Arrays(h, out)


def _sys(db: Path, testbed: str = "ende") -> Arrays:
    """System MQM (mean of its segment scores) and corpus-level metric scores."""
    with duckdb.connect(str(db), read_only=True) as con:
        human = dict(con.execute(
            "select translator, avg(value) from assessments where testbed = ? and "
            "criterion = 'MQM' and level = 'seg' and role = 'system' group by all "
            "order by translator", [testbed]).fetchall())
        scores = con.execute(
            "select metric, translator, value from scores where testbed = ? and "
            "level = 'sys' and refset = ?", [testbed, REFSET]).fetchall()
    systems = sorted(human)
    by = {(m, t): v for m, t, v in scores}
    return Arrays(np.array([human[s] for s in systems]),
                  {m: np.array([by[m, s] for s in systems]) for m in METRICS})


def _protocol(db: Path, name: str, testbeds: str = "ende") -> dict:
    return json.loads(_ok(ulcdb(db, "meta", "protocol", name, "-t", testbeds, "-c", "MQM",
                                "-m", ",".join(METRICS), "--bootstrap", K, "--seed", SEED,
                                "-f", "json")))


def _rows(out: dict) -> dict[str, dict]:
    return {r["metric"]: r for r in out["results"]}


def _ranks(out: dict, column: str, human: np.ndarray, metrics: dict[str, np.ndarray],
           stat: mt_metrics_eval.Statistic, perm_test: str = "scores") -> dict[str, int]:
    """MTME's CompareMetrics (the port) on the SQL arrays: its p-values must be those the CLI
    reports for ``column`` (the sample's ranks are all 1, so the p-values are the check)."""
    comp = mt_metrics_eval.compare_metrics(human, metrics, stat, K,
                                           mt_metrics_eval.PermParams(block_size=100),
                                 0.05, perm_test, np.random.RandomState(SEED))
    got = {(s["better"], s["worse"]): s["p_value"] for s in out["significance"]
           if s["column"] == column}
    expected = {(a, b): comp.sig_matrix[i, j] for i, a in enumerate(comp.names)
                for j, b in enumerate(comp.names) if j > i}
    assert got == pytest.approx(expected, abs=1e-12)
    return dict(zip(comp.names, comp.ranks, strict=True))


@dataclass(frozen=True)
class ScipyPearson(mt_metrics_eval.Statistic):
    def __call__(self, human, metric, rs=None) -> float:
        h, m = np.ravel(human), np.ravel(metric)
        keep = ~(np.isnan(h) | np.isnan(m))
        return float(scipy.stats.pearsonr(h[keep], m[keep])[0])


# -- wmt24 -------------------------------------------------------------------------------------


def test_wmt24_spa_and_acc_t_equal_the_mtme_ports_on_sql_arrays(db: Path) -> None:
    out = _protocol(db, "wmt24")
    rows, seg = _rows(out), _seg(db)
    assert set(rows) == set(METRICS)
    for m in METRICS:
        spa = mt_metrics_eval.soft_pairwise_accuracy(seg.human, seg.metrics[m], 1000, 4)
        acc, eps = mt_metrics_eval.acc23(seg.human, seg.metrics[m], "item")
        assert rows[m]["sys_spa"] == pytest.approx(spa, abs=1e-12)
        assert rows[m]["seg_acc_t"] == pytest.approx(acc, abs=1e-12)
        assert rows[m]["seg_acc_t_epsilon"] == pytest.approx(eps, abs=1e-12)
    spa_ranks = _ranks(out, "sys_spa", seg.human, seg.metrics,
                       mt_metrics_eval.SoftPairwiseAccuracy(1000, 4))
    acc_ranks = _ranks(out, "seg_acc_t", seg.human, seg.metrics,
                       mt_metrics_eval.TiesOpt("acc23", "item"), "pairs")
    assert {m: r["sys_spa_rank"] for m, r in rows.items()} == spa_ranks
    assert {m: r["seg_acc_t_rank"] for m, r in rows.items()} == acc_ranks
    # rows best first on the first column; the header states MTME's defaults
    spas = [r["sys_spa"] for r in out["results"]]
    assert spas == sorted(spas, reverse=True)
    settings = out["run"]["settings"]
    assert (settings["k"], settings["seed"], settings["block_size"], settings["pval"]) == \
        (K, SEED, 100, 0.05)
    assert out["run"]["testbeds"]["ende"]["seg"]["n_items"] == int(np.sum(~np.isnan(seg.human)))
    assert "ref-A" not in out["run"]["testbeds"]["ende"]["seg"]["systems"]
    assert {s["column"] for s in out["significance"]} == {"sys_spa", "seg_acc_t"}


def test_wmt24_table_and_csv_hold_the_json_numbers(db: Path) -> None:
    base = ["meta", "protocol", "wmt24", "-t", "ende", "-c", "MQM", "-m", ",".join(METRICS),
            "--bootstrap", 0]
    table = _ok(ulcdb(db, *base))
    assert "block size" not in table and "--bootstrap 0" in table
    assert "SPA: 1000 permutations, seed 4" in table
    rows = {r["metric"]: r for r in csv.DictReader(io.StringIO(_ok(ulcdb(db, *base, "-f",
                                                                         "csv"))))}
    seg = _seg(db)
    for m in METRICS:
        acc = mt_metrics_eval.acc23(seg.human, seg.metrics[m], "item")[0]
        assert float(rows[m]["seg_acc_t"]) == pytest.approx(acc, abs=1e-12)
        assert rows[m]["seg_acc_t_rank"] == ""
        assert f"{acc:.4f}" in table
    latex = _ok(ulcdb(db, *base, "-f", "latex"))
    assert r"\begin{tabular}{l|rr|rr}" in latex


# -- wmt23 -------------------------------------------------------------------------------------


def test_wmt23_columns_equal_the_ports_and_scipy(db: Path) -> None:
    out = _protocol(db, "wmt23")
    rows, seg, sys = _rows(out), _seg(db), _sys(db)
    for m in METRICS:
        assert rows[m]["sys_accuracy"] == pytest.approx(
            mt_metrics_eval.global_accuracy([sys.human], [sys.metrics[m]]), abs=1e-12)
        assert rows[m]["sys_pearson"] == pytest.approx(
            scipy.stats.pearsonr(sys.human, sys.metrics[m])[0], abs=1e-12)
        keep = ~np.isnan(seg.human)
        assert rows[m]["seg_pearson"] == pytest.approx(
            scipy.stats.pearsonr(seg.human[keep], seg.metrics[m][keep])[0], abs=1e-12)
        assert rows[m]["seg_acc_t"] == pytest.approx(
            mt_metrics_eval.acc23(seg.human, seg.metrics[m], "item")[0], abs=1e-12)
    acc = _ranks(out, "sys_accuracy", sys.human, sys.metrics,
                 mt_metrics_eval.GlobalAccuracy((len(sys.human),)))
    assert {m: r["sys_accuracy_rank"] for m, r in rows.items()} == acc
    sys_pearson = _ranks(out, "sys_pearson", sys.human, sys.metrics, ScipyPearson())
    assert {m: r["sys_pearson_rank"] for m, r in rows.items()} == sys_pearson
    pearson = _ranks(out, "seg_pearson", seg.human, seg.metrics, ScipyPearson())
    assert {m: r["seg_pearson_rank"] for m, r in rows.items()} == pearson


def test_wmt23_global_accuracy_pools_the_test_beds(db: Path) -> None:
    out = _protocol(db, "wmt23", "ende,ende2")
    rows = _rows(out)
    beds = [_sys(db, "ende"), _sys(db, "ende2")]
    for m in METRICS:
        expected = mt_metrics_eval.global_accuracy([b.human for b in beds],
                                                   [b.metrics[m] for b in beds])
        assert rows[m]["global_accuracy"] == pytest.approx(expected, abs=1e-12)
        assert rows[m]["ende2:seg_acc_t"] == pytest.approx(rows[m]["ende:seg_acc_t"])
    assert [c["key"] for c in out["run"]["columns"]][:2] == ["global_accuracy",
                                                             "ende:sys_pearson"]


# -- refused -----------------------------------------------------------------------------------


def test_the_protocol_option_is_an_alias_of_the_command(db: Path) -> None:
    args = ("-c", "MQM", "-m", ",".join(METRICS), "--bootstrap", 0, "-f", "json")
    for name, beds in (("wmt24", ("-t", "ende")), ("wmt23", ("--testbeds", "ende,ende2"))):
        old = _ok(ulcdb(db, "meta", "--protocol", name, *beds, *args))
        new = _ok(ulcdb(db, "meta", "protocol", name, "-t", beds[1], *args))
        assert json.loads(old) == json.loads(new)


def test_the_api_gives_the_commands_rows(db: Path) -> None:
    import ulcdb

    out = _protocol(db, "wmt23", "ende,ende2")
    with ulcdb.open(db, read_only=True) as database:
        table = database.meta_protocol("wmt23", "MQM", testbeds=["ende", "ende2"],
                                       metrics=",".join(METRICS), n_resamples=K, seed=SEED)
    assert table.to_pylist() == out["results"]


def test_options_before_the_command_are_refused(db: Path) -> None:
    result = ulcdb(db, "meta", "-c", "MQM", "protocol", "wmt24", "-t", "ende")
    assert result.exit_code == 1
    assert result.stderr == ("Error: --criterion given before `protocol`: put the options "
                             "after `ulcdb meta protocol NAME`\n")


@pytest.mark.parametrize("option", [("--sig", "permutation"), ("-G", "seg"),
                                    ("--coef", "pearson"), ("--where", "doc_id = 'x'"),
                                    ("--testbeds", "ende")])
def test_the_protocol_command_has_no_table_option(db: Path, option: tuple[str, ...]) -> None:
    result = ulcdb(db, "meta", "protocol", "wmt24", "-t", "ende", "-c", "MQM", *option)
    assert result.exit_code == 2 and "No such option" in result.output


@pytest.mark.parametrize("args", [
    ("--protocol", "wmt24", "--sig", "permutation"),
    ("--protocol", "wmt23", "-G", "seg"),
    ("--protocol", "wmt24", "--coef", "pearson"),
    ("--testbeds", "ende,ende2"),
    ("--protocol", "wmt24", "--testbeds", "ende,nosuch"),
])
def test_bad_combination_is_one_line_error(db: Path, args: tuple[str, ...]) -> None:
    result = ulcdb(db, "meta", "-c", "MQM", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and len(result.stderr.strip().splitlines()) == 1


def test_progress_advances_once_per_column(db: Path) -> None:
    """`meta protocol` shows progress (issue 29): the library tells its display the number
    of columns, then each column by its key as it is done; the table is unchanged."""
    from contextlib import contextmanager

    from ulcdb.ops.access import Opened
    from ulcdb.ops.meta import Beds, protocol
    from ulcdb.store.database import Store

    seen: list[tuple[str, int]] = []
    totals: list[int] = []

    @contextmanager
    def display(total: int):
        totals.append(total)
        yield lambda label, n: seen.append((label, n))

    with Store(db, read_only=True) as store:
        report, _ = protocol(Opened(store), "wmt24", Beds(("ende",), ",".join(METRICS)),
                             K, SEED, progress=display)
    keys = [r.column.key for r in report.results]
    assert totals == [len(keys)] and seen == [(k, 1) for k in keys]
