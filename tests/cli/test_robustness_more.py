"""Robustness (issue 19): the holes left after the first pass, each a case that failed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import copy_store, ulcdb
from ulcdb.store.database import Store

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ROOT / "sample" / "plain"


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
    ok(ulcdb(db, "demo", ROOT / "sample"))
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
    text = (ROOT / "sample" / "ULC.config").read_text(encoding="utf-8")
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
