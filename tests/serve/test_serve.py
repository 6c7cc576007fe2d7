"""`ulcdb serve` without a browser: the mirror holds every table, view and materialised
analysis; every canned query runs on it; Datasette answers every main page."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from serve_helpers import METRICS, SAMPLE, build_sample_store, free_port, start_serve, stop
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.errors import InputError
from ulcdb.serve.config import expand_pivot, load_queries, metadata, read_query
from ulcdb.serve.mirror import build_mirror, mirror_is_fresh, mirror_path

QUERIES = {"system_ranking", "segment_analysis", "score_matrix", "metric_human_correlation",
           "king_per_metric", "metric_human_disagreement", "documents_ranked"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_store(tmp_path_factory.mktemp("serve") / "s.duckdb")


@pytest.fixture(scope="module")
def mirror(store: Path) -> Path:
    report = build_mirror(store)
    assert report.path == mirror_path(store) == store.with_suffix(".sqlite")
    assert not report.skipped
    return report.path


def test_mirror_holds_tables_views_and_analyses(store: Path, mirror: Path) -> None:
    con = sqlite3.connect(mirror)
    tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    assert {"testbed", "segment", "translation", "sys_score", "scores", "scores_mean",
            "translations", "assessments", "ulc", "queen", "king", "meta_corr", "metric_corr",
            "sys_interval"} <= tables
    # id-keyed copies of what `scores` holds stay out of the mirror
    assert not {"seg_score", "doc_score", "ling_backoff", "score_rows"} & tables
    import duckdb
    duck = duckdb.connect(str(store), read_only=True)
    for name in ("translations", "assessments", "sys_score"):
        assert con.execute(f"select count(*) from {name}").fetchone()[0] == \
            duck.execute(f"select count(*) from {name}").fetchone()[0]
    # scores: system and document rows against one reference or all three, none against the
    # KING sets of two references nor against a system (JACK); segment rows only of the
    # metrics of the metric sets (BLEU is in metrics_LEX, BLEU-2 in LEX)
    kept = ("refset_kind = 'reference' and (refset like 'ref-_' or refset = "
            "'ref-A+ref-B+ref-C')")
    for where in ("level <> 'seg'", "level = 'seg' and metric = 'BLEU'",
                  "level = 'seg' and metric = 'BLEU-2'"):
        assert con.execute(f"select count(*) from scores where {where}").fetchone()[0] == \
            duck.execute(f"select count(*) from scores where {kept} and {where}").fetchone()[0]
    for where in ("refset = 'ref-A+ref-B'",):
        assert con.execute(f"select count(*) from scores where {where}").fetchone()[0] == 0
    # the materialised ULC equals the macro over the same metrics
    names = [r[0] for r in duck.execute("select distinct m.name from sys_score join metric m "
                                        "using (metric_id) order by 1").fetchall()]
    want = dict(duck.execute("select translator, ulc from ulc(?, 'sys') where refset = "
                             "'ref-A+ref-B+ref-C'", [names]).fetchall())
    got = dict(con.execute("select translator, ulc from ulc where metric_set = 'all' and "
                           "level = 'sys' and refset = 'ref-A+ref-B+ref-C'").fetchall())
    assert len(got) == 4 and got == pytest.approx(want)
    lo, mean, hi = con.execute("select lo, seg_mean, hi from sys_interval where metric = 'BLEU' "
                               "and translator = 'sysA' and refset = 'ref-A'").fetchone()
    assert lo <= mean <= hi
    assert mirror_is_fresh(store, mirror)
    duck.close()


def test_intervals_resample_each_series_as_numpy_does(store: Path, mirror: Path) -> None:
    """sys_interval (series of one length resampled together, issue 28) equals each series
    resampled on its own: the mean of the drawn segment scores, 1000 multinomial draws
    seeded 1234, numpy's 2.5 and 97.5 percentiles."""
    import duckdb
    import numpy as np

    duck = duckdb.connect(str(store), read_only=True)
    series = duck.execute(
        "select metric, translator, refset, list(value order by seg_id) from scores "
        "where level = 'seg' and refset_kind = 'reference' and variant = 'case:mixed' "
        "and metric in ('BLEU', 'chrF') and refset in ('ref-A', 'ref-A+ref-B+ref-C') "
        "group by all").fetchall()
    duck.close()
    con = sqlite3.connect(mirror)
    assert len(series) == 20  # 4 systems and, against ref-A, the other 2 references
    for metric, translator, refset, values in series:
        x = np.array(values, dtype=float)
        draws = np.random.default_rng(1234).multinomial(len(x), np.full(len(x), 1 / len(x)),
                                                         size=1000)
        lo, hi = np.percentile(draws @ x / len(x), [2.5, 97.5])
        got = con.execute("select seg_mean, lo, hi, n_segments from sys_interval where "
                          "metric = ? and translator = ? and refset = ? and variant = "
                          "'case:mixed'", [metric, translator, refset]).fetchall()
        assert got == [(pytest.approx(x.mean()), pytest.approx(lo), pytest.approx(hi), len(x))]


def test_every_canned_query_runs_with_defaults(mirror: Path) -> None:
    queries = load_queries()
    assert {q.name for q in queries} == QUERIES
    con = sqlite3.connect(mirror)
    for q in queries:
        assert q.title and q.description, q.name
        rows = con.execute(expand_pivot(q, mirror), {p: "" for p in q.params}).fetchall()
        assert rows, q.name


def test_pivot_header_names_a_column_and_a_value(tmp_path: Path) -> None:
    good = tmp_path / "good.sql"
    good.write_text("-- title: T\n-- pivot:  translator   value \nselect {{pivot}} from scores\n",
                    encoding="utf-8")
    assert read_query(good).pivot == ("translator", "value")
    assert read_query(good).params == ()
    bad = tmp_path / "bad.sql"
    bad.write_text("-- title: T\n-- params: testbed\n-- pivot: translator\nselect 1\n",
                   encoding="utf-8")
    with pytest.raises(InputError) as info:  # was a ValueError when the page was built
        read_query(bad)
    assert str(info.value) == (f"{bad}:3: -- pivot wants two words, COLUMN VALUE, not 1: "
                               "'translator'")


def test_segment_analysis_shows_source_outputs_and_references(mirror: Path) -> None:
    q = next(q for q in load_queries() if q.name == "segment_analysis")
    con = sqlite3.connect(mirror)
    con.row_factory = sqlite3.Row
    rows = con.execute(q.sql, {"testbed": "", "seg_id": "3", "metric": "BLEU",
                               "refset": "ref-A", "metric_set": "", "variant": ""}).fetchall()
    roles = [r["role"] for r in rows]
    assert roles[0] == "source" and roles.count("system") == 4 and roles.count("reference") == 3
    assert all(r["seg_id"] == 3 for r in rows)
    assert all(r["score"] is not None for r in rows if r["role"] == "system")


def test_canned_queries_keep_score_variants_apart(tmp_path: Path) -> None:
    # Scores of two variants (case:mixed and case:lc) in one store: each canned query shows
    # one variant (case:mixed by default), never both mixed together.
    db = build_sample_store(tmp_path / "v.duckdb")
    result = CliRunner().invoke(app, ["--db", str(db), "score", "-m", METRICS, "--case", "lc",
                                      "-G", "all", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    path = build_mirror(db).path
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    keys = {"system_ranking": ("testbed", "system"), "score_matrix": ("testbed", "metric"),
            "documents_ranked": ("testbed", "translator", "doc_id"),
            "king_per_metric": ("testbed", "measure"),
            "metric_human_correlation": ("testbed", "metric"),
            "metric_human_disagreement": ("testbed", "translator", "seg_id"),
            "segment_analysis": ("testbed", "role", "translator")}
    for q in load_queries():
        for variant, want in (("", "case:mixed"), ("case:lc", "case:lc")):
            params = {p: "" for p in q.params} | {"variant": variant}
            rows = con.execute(expand_pivot(q, path), params).fetchall()
            assert rows, (q.name, variant)
            seen = [tuple(r[k] for k in keys[q.name]) for r in rows]
            assert len(seen) == len(set(seen)), (q.name, variant)
            if "variant" in rows[0].keys():
                assert {r["variant"] for r in rows} == {want}, q.name
    mixed = dict(con.execute("select translator, value from scores where metric = 'BLEU' and "
                             "level = 'sys' and refset = 'ref-A+ref-B+ref-C' and "
                             "variant = 'case:mixed'").fetchall())
    q = next(q for q in load_queries() if q.name == "score_matrix")
    row = con.execute(expand_pivot(q, path), {"testbed": "", "refset": "", "variant": ""}
                      ).fetchall()
    bleu = next(r for r in row if r["metric"] == "BLEU")
    assert bleu["sysB"] == pytest.approx(mixed["sysB"], abs=5e-5)  # pivot rounds to 4


def test_footer_names_the_stores_test_beds(mirror: Path) -> None:
    meta = metadata(mirror)
    assert meta["source"] == "test beds: sample (es-en, from ULC.config)"
    assert "keep the licence they were released under" in meta["license"]
    assert "wmt-mqm" not in json.dumps(meta)  # no fixed text about data the store lacks


def test_metadata_describes_every_table(mirror: Path) -> None:
    meta = metadata(mirror)
    block = meta["databases"][mirror.stem]
    con = sqlite3.connect(mirror)
    tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    missing = tables - set(block["tables"]) - {"sqlite_stat1"}
    assert not missing
    assert set(block["queries"]) == QUERIES
    assert '"sysA"' in block["queries"]["score_matrix"]["sql"]
    for name in ("scores", "ulc", "queen", "king", "meta_corr"):
        assert block["tables"][name]["description"]


def test_serve_help_ends_with_an_example() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "Example: ulcdb" in result.output and "--port" in result.output


def test_serve_pages_answer(store: Path, mirror: Path, tmp_path: Path) -> None:
    port = free_port()
    proc = start_serve(store, port, tmp_path / "serve.log")
    try:
        base = f"http://127.0.0.1:{port}"
        db = mirror.stem
        pages = ["/", f"/{db}", f"/{db}/scores", f"/{db}/ulc?metric_set=metrics_LEX&level=sys",
                 "/-/plots", "/-/plots/system-scores", "/-/plots/metric-human",
                 "/-/plots/metric-correlation", "/ulcdb-static/vega/vega-embed.min.js",
                 f"/{db}.json?sql=select+count(*)+from+scores"]
        pages += [f"/{db}/{q}" for q in sorted(QUERIES)]
        for page in pages:
            with urllib.request.urlopen(base + page, timeout=30) as resp:
                body = resp.read().decode("utf-8")
                assert resp.status == 200, page
                assert "message-error" not in body, page
        # read-only: writes are refused
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + f"/{db}.json?sql=delete+from+scores", timeout=30)
        assert refused.value.code == 400
    finally:
        stop(proc)
    assert proc.poll() is not None


def test_mirror_caps_what_it_materialises(store: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # A store with linguistic scores holds ~1,400 metrics: no "all" set over them and
    # metric-metric correlations for the metric sets' members only, at most MAX_CORR_METRICS.
    import ulcdb.serve.mirror_sets as mirror_module
    monkeypatch.setattr(mirror_module, "MAX_ALL_METRICS", 3)
    monkeypatch.setattr(mirror_module, "MAX_CORR_METRICS", 2)
    path = build_mirror(store, tmp_path / "capped.sqlite").path
    con = sqlite3.connect(path)
    assert con.execute("select count(*) from ulc where metric_set = 'all'").fetchone()[0] == 0
    pairs = {r for r in con.execute("select distinct metric_a, metric_b from metric_corr")}
    assert len({a for a, _ in pairs}) == 2 and len(pairs) == 4


def test_segment_rows_keep_to_a_budget(store: Path, mirror: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Segment scores fill the mirror's budget of segment rows metric by metric, in the
    metric sets' order (metrics_LEX first); system
    and document scores of every metric stay (issue 30)."""
    import duckdb

    import ulcdb.serve.mirror_sets as mirror_module
    from ulcdb.metrics import registry
    kept = ("refset_kind = 'reference' and (refset like 'ref-_' or refset = "
            "'ref-A+ref-B+ref-C')")
    duck = duckdb.connect(str(store), read_only=True)
    rows = dict(duck.execute(f"select metric, count(*) from scores where level = 'seg' "
                             f"and {kept} group by 1").fetchall())
    duck.close()
    con = sqlite3.connect(mirror)
    doc_rows = con.execute("select count(*) from scores where level <> 'seg'").fetchone()[0]
    assert con.execute("select count(distinct metric) from scores where level = 'seg'"
                       ).fetchone()[0] > 3
    n = rows["BLEU"]
    assert set(rows.values()) == {n}  # every metric scores the same outputs
    default = [m for m in registry.BUILTIN_SETS[registry.DEFAULT_SET] if m in rows]
    monkeypatch.setattr(mirror_module, "SEG_ROWS_BUDGET", 3 * n - 1)  # room for two
    small = sqlite3.connect(build_mirror(store, tmp_path / "budget.sqlite").path)
    got = {r[0]: r[1] for r in small.execute("select metric, count(*) from scores where "
                                             "level = 'seg' group by 1")}
    assert got == {default[0]: n, default[1]: n}
    assert small.execute("select count(*) from scores where level <> 'seg'"
                         ).fetchone()[0] == doc_rows


def test_document_rows_keep_to_a_budget(store: Path, mirror: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Document scores fill their own budget the same way: the metric sets' members first
    (metrics_LEX's order), then the other metrics by name; the document means of segment
    scores (scores_mean) follow (issue 30)."""
    import ulcdb.serve.mirror_sets as mirror_module
    from ulcdb.metrics import registry
    con = sqlite3.connect(mirror)
    rows = dict(con.execute("select metric, count(*) from scores where level = 'doc' "
                            "group by 1").fetchall())
    n = rows["BLEU"]
    assert len(rows) > 3 and set(rows.values()) == {n}
    default = [m for m in registry.BUILTIN_SETS[registry.DEFAULT_SET] if m in rows]
    monkeypatch.setattr(mirror_module, "DOC_ROWS_BUDGET", 2 * n)
    small = sqlite3.connect(build_mirror(store, tmp_path / "doc.sqlite").path)
    assert dict(small.execute("select metric, count(*) from scores where level = 'doc' "
                              "group by 1").fetchall()) == {default[0]: n, default[1]: n}
    for level in ("seg", "sys"):  # the other levels as in the full mirror
        sql = f"select count(*) from scores where level = '{level}'"
        assert small.execute(sql).fetchone() == con.execute(sql).fetchone()
    means = "select metric, count(*) from scores_mean where level = 'doc' group by 1"
    full_means = dict(con.execute(means).fetchall())
    assert dict(small.execute(means).fetchall()) == {m: full_means[m] for m in default[:2]}
    sys_means = "select count(*) from scores_mean where level = 'sys'"
    assert small.execute(sys_means).fetchone() == con.execute(sys_means).fetchone()


def test_canned_queries_run_with_two_references(tmp_path: Path) -> None:
    plain = SAMPLE / "plain"
    db = tmp_path / "two.duckdb"
    steps = [["ingest", "testbed", "--name", "two", "--source", plain / "source.es.txt",
              "--docs", plain / "docs.tsv", "--ref", f"ref-A={plain / 'refs' / 'ref-A.en.txt'}",
              "--ref", f"ref-B={plain / 'refs' / 'ref-B.en.txt'}",
              "--sys", f"sysA={plain / 'systems' / 'sysA.en.txt'}",
              "--sys", f"sysB={plain / 'systems' / 'sysB.en.txt'}"],
             ["score", "-m", "BLEU,chrF", "--jobs", "1"]]
    for step in steps:
        result = CliRunner().invoke(app, ["--db", str(db), *map(str, step)])
        assert result.exit_code == 0, result.output
    report = build_mirror(db)
    con = sqlite3.connect(report.path)
    for q in load_queries():
        con.execute(expand_pivot(q, report.path), {p: "" for p in q.params}).fetchall()
    q = next(q for q in load_queries() if q.name == "system_ranking")
    rows = con.execute(q.sql, {p: "" for p in q.params}).fetchall()
    assert len(rows) == 2  # ranked by ULC, QUEEN empty (it needs 3 references)


def test_mirror_materialises_the_built_in_set_the_scores_cover(store: Path, mirror: Path) -> None:
    """After `ulcdb score -m LEX` the served copy answers `... where metric_set = 'LEX'` (it
    held only metrics_LEX, the store's named sets and "all", so the README's query returned
    nothing, issue 27): LEX, restricted to the metrics scored, is materialised as the ULC
    macro computes it, and so is every other widest built-in set; the family sets inside LEX
    are not."""
    import duckdb

    from ulcdb.metrics.registry import BUILTIN_SETS

    con = sqlite3.connect(mirror)
    sets = {r[0] for r in con.execute("select distinct metric_set from ulc")}
    assert sets == {"metrics_LEX", "2_metrics_LEX", "LEX", "ASIYA-LEX", "all"}
    duck = duckdb.connect(str(store), read_only=True)
    scored = {r[0] for r in duck.execute("select distinct metric from scores where level = "
                                         "'sys'").fetchall()}
    lex = [m for m in BUILTIN_SETS["LEX"] if m in scored]  # the families of METRICS
    assert len(lex) == 23 and "BLEU-2" in lex and "RG-L" not in lex
    want = dict(duck.execute("select translator, ulc from ulc(?, 'sys') where refset = "
                             "'ref-A+ref-B+ref-C'", [lex]).fetchall())
    duck.close()
    got = dict(con.execute("select translator, ulc from ulc where metric_set = 'LEX' and "
                           "level = 'sys' and refset = 'ref-A+ref-B+ref-C'").fetchall())
    assert len(got) == 4 and got == pytest.approx(want)


class _Results:
    def __init__(self, rows: list[sqlite3.Row]) -> None:
        self.rows = rows


class _MirrorDb:
    """What the plots read of Datasette's Database: ``await db.execute(sql, params)``."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path)
        self.con.row_factory = sqlite3.Row

    async def execute(self, sql: str, params: dict[str, object]) -> _Results:
        return _Results(self.con.execute(sql, params).fetchall())


@pytest.mark.parametrize("level", ["seg", "doc", "sys"])
def test_metric_human_plot_pairs_each_unit_with_its_mean_judgment(mirror: Path,
                                                                  level: str) -> None:
    """The sample's adequacy is judged per segment: at document and system level the plot
    pairs each unit's metric score with the mean of its segments' judgments (computed here
    from the mirror's rows in Python)."""
    import asyncio

    from ulcdb.serve.plots import _metric_human

    con = sqlite3.connect(mirror)
    refset = con.execute("select refset from stg_refset where refset_kind = 'reference' "
                         "order by size desc limit 1").fetchall()[0][0]
    judged: dict[tuple[str, object], list[float]] = {}
    for row in con.execute("select translator, doc_id, seg_id, value from assessments "
                           "where testbed = 'sample' and criterion = 'adequacy' and level = 'seg'"):
        key = {"seg": row[2], "doc": row[1], "sys": ""}[level]
        judged.setdefault((row[0], key), []).append(row[3])
    expected = []
    for translator, role, doc_id, seg_id, value in con.execute(
            "select translator, role, doc_id, seg_id, value from scores where testbed = 'sample' "
            "and metric = 'BLEU' and refset = ? and level = ? and value is not null",
            [refset, level]):
        key = {"seg": seg_id, "doc": doc_id, "sys": ""}[level]
        if (translator, key) in judged:
            human = judged[translator, key]
            expected.append((translator, role, key, value, sum(human) / len(human)))
    params = {"testbed": "sample", "metric": "BLEU", "refset": refset, "criterion": "adequacy",
              "level": level}
    _, data = asyncio.run(_metric_human(_MirrorDb(mirror), params))
    got = sorted((d["translator"], d["role"], d["unit"], d["value"], d["human"]) for d in data)
    assert len(got) == len(expected) == {"seg": 4 * 12, "doc": 4 * 3, "sys": 4}[level]
    for g, e in zip(got, sorted(expected), strict=True):
        assert g[:4] == e[:4] and g[4] == pytest.approx(e[4], rel=1e-12)
