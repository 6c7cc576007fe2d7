"""Issue 19's holes, one test each: data silently wrong, tracebacks, names; then the holes
left after the first pass, each a case that failed (one-line errors, round trips)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from cli_helpers import copy_store, sample_store, ulcdb
from conftest import REPO

from ulcdb.store.database import Store

SAMPLE = REPO / "sample"
PLAIN = SAMPLE / "plain"
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")


@pytest.fixture(scope="module")
def built_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("robust")
    return sample_store(tmp_path / "s.duckdb")


@pytest.fixture
def store(built_store: Path, tmp_path: Path) -> Path:
    """The sample ingested (built once per module): a copy for each test."""
    return copy_store(built_store, tmp_path, built_store.name)


def _count(path: Path, table: str) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        con.close()


def _human_file(tmp_path: Path, drop: int | None) -> Path:
    folder = tmp_path / "human-scores"
    folder.mkdir()
    lines = [f"{s}\t{0.1 * k:.1f}" for s in SYSTEMS for k in range(1, 13)]
    if drop is not None:
        del lines[drop]
    path = folder / "es-en.da.seg.score"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("command", [("ingest", "assessments"), ("ingest", "scores")])
def test_mtme_human_file_missing_a_line_is_refused(store, tmp_path, command):
    path = _human_file(tmp_path, drop=12 + 4)  # sysB's fifth segment
    res = ulcdb(store, *command, path, "--format", "mtme", "-t", "sample")
    assert res.exit_code != 0
    assert f"{path}:23: system 'sysB' has 11 lines, the test bed has 12 segments" in res.output
    assert _count(store, "assessment") == 0


def test_mtme_human_file_with_every_line_is_stored(store, tmp_path):
    path = _human_file(tmp_path, drop=None)
    res = ulcdb(store, "ingest", "assessments", path, "--format", "mtme", "-t", "sample")
    assert res.exit_code == 0, res.output
    assert _count(store, "assessment") == 48


@pytest.mark.parametrize("name, problem", [
    ("sys\nX", "holds a tab, line break or other control character"),
    ("sys\tX", "holds a tab, line break or other control character"),
    (" sysX", "starts or ends with white space"),
    ("x" * 201, "is longer than 200 characters"),
])
def test_bad_translator_names_are_refused(tmp_path, name, problem):
    db = tmp_path / "s.duckdb"
    src = SAMPLE / "plain" / "source.es.txt"
    res = ulcdb(db, "ingest", "testbed", "--name", "tb", "--source", src,
                "--ref", f"ref={SAMPLE / 'plain' / 'refs' / 'ref-A.en.txt'}",
                "--sys", f"{name}={SAMPLE / 'plain' / 'systems' / 'sysA.en.txt'}")
    assert res.exit_code != 0 and problem in res.output
    assert not db.exists() or _count(db, "translator") == 0


def test_empty_testbed_name_is_refused_not_replaced(tmp_path):
    db = tmp_path / "s.duckdb"
    res = ulcdb(db, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "")
    assert res.exit_code != 0 and "the test bed name '' is empty" in res.output
    assert not db.exists() or _count(db, "testbed") == 0


def test_set_names_are_checked(store):
    res = ulcdb(store, "set", "define", "metric", "my\nset", "BLEU")
    assert res.exit_code != 0 and "metric set name 'my\\nset'" in res.output


@pytest.mark.parametrize("score", ["1_000", "\u0661\u0662", "0x1A", "1,5"])
def test_scores_in_other_notations_are_refused(store, tmp_path, score):
    path = tmp_path / "x.txt"
    path.write_text("\n".join(["0.5"] * 11 + [score]) + "\n")
    res = ulcdb(store, "ingest", "scores", path, "--format", "lines", "--metric", "X",
                "--target", "sysA", "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0
    assert f"{path}:12: score {score!r} is not a number" in res.output
    assert _count(store, "seg_score") == 0


def test_deeply_nested_json_is_one_line(store, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    res = ulcdb(store, "ingest", "scores", path, "--format", "sacrebleu", "--target", "sysA",
                "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0 and "not sacrebleu JSON: nested too deeply" in res.output


def test_gzip_bomb_is_refused_before_memory_runs_out(store, tmp_path, monkeypatch):
    import gzip

    from ulcdb.ingest import textio

    monkeypatch.setattr(textio, "MAX_DECOMPRESSED", 1 << 20)
    path = tmp_path / "scores.txt.gz"
    path.write_bytes(gzip.compress(b"0.5\n" * (1 << 19)))  # 2 MiB decompressed
    res = ulcdb(store, "ingest", "scores", path, "--format", "lines", "--metric", "X",
                "--target", "sysA", "--ref", "ref-A", "-t", "sample")
    assert res.exit_code != 0 and "decompresses to more than 1 MiB: refused" in res.output


# --- the second pass -----------------------------------------------------------------

def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code == 1, result.output
    text = result.output.strip()
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    for needle in needles:
        assert needle in text, text


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("robust") / "s.duckdb"
    ok(ulcdb(path, "ingest", "testbed", "--name", "sample", "--source",
             PLAIN / "source.es.txt", "--docs", PLAIN / "docs.tsv",
             *[a for r in "AB" for a in ("--ref", f"ref-{r}={PLAIN / 'refs' / f'ref-{r}.en.txt'}")],
             "--sys", f"sysA={PLAIN / 'systems' / 'sysA.en.txt'}"))
    ok(ulcdb(path, "score", "-m", "BLEU", "-j", "1"))
    return path


@pytest.fixture()
def db(built: Path, tmp_path: Path) -> Path:
    """The sample's plain files with sysA scored by BLEU: a copy for each test."""
    return copy_store(built, tmp_path, "s.duckdb")


def _rows(db: Path, sql: str) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query(sql)


@pytest.mark.parametrize("query", ["", "   ", "-- only a comment"])
def test_empty_sql_is_one_line(db: Path, query: str) -> None:
    one_line_error(ulcdb(db, "sql", query), "no SQL statement")


def test_mtme_names_survive_a_round_trip(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "mtme"
    ok(ulcdb(db, "export", "mtme", out))
    assert (out / "references" / "es-en.refA.txt").is_file()  # mt-metrics-eval's spelling
    before = _rows(db, "select name, role from translator order by 1")
    said = ok(ulcdb(db, "ingest", "testbed", out, "--lp", "es-en", "--name", "sample"))
    assert "refA is the stored ref-A" in said
    assert _rows(db, "select name, role from translator order by 1") == before
    again = ok(ulcdb(db, "ingest", "scores", out, "--lp", "es-en", "-t", "sample"))
    assert "already there" in again
    assert _rows(db, "select count(*) from refset where name like 'refA%'") == [(0,)]


@pytest.mark.parametrize("command", [
    ["export", "mtme", "{bad}/x"], ["export", "iqxml", "{bad}/x"], ["export", "wmt", "{bad}/x"],
    ["export", "nist", "{bad}/x"], ["export", "sacrebleu", "{bad}/x"],
    ["export", "comet", "{bad}/x"], ["export", "table", "scores", "{bad}/x.csv"],
    ["score", "-m", "BLEU", "-f", "scr", "--out", "{bad}/x"],
    ["serve", "--mirror", "{bad}/m.sqlite", "--port", "8799"],
])
def test_unwritable_outputs_are_one_line(db: Path, tmp_path: Path, command: list[str]) -> None:
    bad = tmp_path / "a-file"
    bad.write_text("not a folder")
    args = [a.replace("{bad}", str(bad)) for a in command]
    one_line_error(ulcdb(db, *args), str(bad), "not a folder")
    assert bad.read_text() == "not a folder"


def test_meta_sig_out_unwritable_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.duckdb"
    ok(ulcdb(db, "demo", SAMPLE))
    bad = tmp_path / "a-file"
    bad.write_text("x")
    one_line_error(ulcdb(db, "meta", "-c", "adequacy", "-G", "sys", "-m", "BLEU,NIST",
                         "--sig", "paired-bootstrap", "--sig-out", bad / "sig.csv"),
                   "not a folder")


def test_score_on_a_scores_only_testbed_is_one_line(shared: Path, tmp_path: Path) -> None:
    root = shared / "testbeds" / "wmt20_metrics"
    if not (root / "input_details" / "de-en.txt").exists():
        pytest.skip("wmt20_metrics not in shared data")
    db = tmp_path / "w.duckdb"
    ok(ulcdb(db, "ingest", "scores", root, "--lp", "de-en"))
    one_line_error(ulcdb(db, "score", "-m", "BLEU", "-j", "1"), "has no text",
                   "scores-only")
    shown = ok(ulcdb(db, "score", "-m", "COMET", "-j", "1"))  # imported scores: shown
    assert "imported scores used as they are: COMET" in shown


def test_unknown_metric_in_a_ulc_config_set(tmp_path: Path) -> None:
    config = tmp_path / "ULC.config"
    text = (SAMPLE / "ULC.config").read_text(encoding="utf-8")
    text = text.replace("./plain", str(PLAIN)) + "my_metrics= BLEU NISTT\n"
    config.write_text(text, encoding="utf-8")
    line = text.count("\n")
    db = tmp_path / "c.duckdb"
    one_line_error(ulcdb(db, "ingest", "testbed", config),
                   f"ULC.config:{line}", "'NISTT'")
    assert not db.exists()  # a failed first ingest leaves no empty store


def test_replace_and_remake_leave_no_provenance_without_scores(db: Path,
                                                                tmp_path: Path) -> None:
    lines = tmp_path / "m.txt"
    lines.write_text("".join(f"0.{i}\n" for i in range(12)))
    args = ("ingest", "scores", lines, "--format", "lines", "-m", "MYM", "--target", "sysA",
            "--ref", "ref-A")
    ok(ulcdb(db, *args))
    lines.write_text("".join(f"0.{i + 1}\n" for i in range(12)))
    ok(ulcdb(db, *args, "--replace"))
    ok(ulcdb(db, "score", "-m", "BLEU", "--remake", "-j", "1"))
    orphans = ("select count(*) from score_batch b where not exists (select 1 from score_rows "
               "s where s.batch_id = b.batch_id)")
    assert _rows(db, orphans) == [(0,)]
    assert _rows(db, "select count(*) from score_batch where origin <> 'computed'") == [(1,)]


def test_oserror_anywhere_is_one_line(db: Path, tmp_path: Path) -> None:
    shutil.rmtree(tmp_path / "nowhere", ignore_errors=True)
    one_line_error(ulcdb(db, "ingest", "assessments", tmp_path / "nowhere" / "x.csv",
                         "-c", "adequacy"), "x.csv")


def test_errors_name_the_option_to_fix_them(tmp_path: Path) -> None:
    """Two test beds and none named; a test bed without references: one line each, saying
    what to do."""
    src, hyp = tmp_path / "s.txt", tmp_path / "h.txt"
    src.write_text("a\nb\n", encoding="utf-8")
    hyp.write_text("x\ny\n", encoding="utf-8")
    db = tmp_path / "two.duckdb"
    for name, extra in (("one", ["--ref", f"R={hyp}"]), ("noref", [])):
        assert ulcdb(db, "ingest", "testbed", "--name", name, "--source", src, "--sys",
                     f"S={hyp}", *extra).exit_code == 0
    for args in (("score", "-m", "BLEU"), ("list", "systems"), ("meta", "-c", "DA")):
        result = ulcdb(db, *args)
        assert result.exit_code == 1 and result.output.count("\n") == 1
        assert "several test beds (one, noref): name one with -t/--testbed" in result.output
    result = ulcdb(db, "score", "-m", "BLEU", "-t", "noref")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "test bed 'noref' has no reference: add one with `ulcdb ingest testbed --name " \
           "noref --ref NAME=FILE`" in result.output
