"""Format detection (issue 15): a headered DA TSV is not a NIST CSV, and the folders ulcdb's
exporters write are recognised on the way back in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
PLAIN = SAMPLE / "plain"


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("fmt") / "s.duckdb"
    args: list[object] = ["--source", PLAIN / "source.es.txt", "--docs", PLAIN / "docs.tsv"]
    for r in "ABC":
        args += ["--ref", f"ref-{r}={PLAIN / 'refs' / f'ref-{r}.en.txt'}"]
    for s in "ABCD":
        args += ["--sys", f"sys{s}={PLAIN / 'systems' / f'sys{s}.en.txt'}"]
    assert ulcdb(db, "ingest", "testbed", "--name", "sample", *args).exit_code == 0
    assert ulcdb(db, "score", "-m", "BLEU,RG-L", "-j", "1").exit_code == 0
    return db


def _criteria(db: Path) -> dict[str, int]:
    with Store(db, read_only=True) as store:
        return dict(store.query("select criterion, count(*) from assessments group by 1"))


def test_headered_da_tsv_reads_without_options(scored: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    shutil.copy(scored, db)
    result = ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "da.tsv")
    assert result.exit_code == 0, result.output
    rows = (SAMPLE / "human" / "da.tsv").read_text().splitlines()[1:]
    assert _criteria(db) == {"DA-raw": len(rows)}  # da_raw -> DA-raw, judges kept
    two = tmp_path / "two.tsv"
    two.write_text("system\tseg_id\tda_raw\tda_z\nsysA\t1\t70\t0.5\nsysB\t1\t40\t-0.5\n",
                   encoding="utf-8")
    assert ulcdb(db, "ingest", "assessments", two).exit_code == 0
    assert _criteria(db)["DA-z"] == 2
    generic = tmp_path / "g.tsv"
    generic.write_text("system\tseg_id\tscore\nsysA\t1\t3\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", generic)
    assert result.exit_code == 1 and "g.tsv:1: column 'score' holds scores of which " \
        "criterion? Say it with -c/--criterion" in result.output
    assert ulcdb(db, "ingest", "assessments", generic, "-c", "mine").exit_code == 0
    # a NIST CSV still needs its criterion
    result = ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv")
    assert result.exit_code == 1 and "NIST CSV files need --criterion" in result.output


@pytest.mark.parametrize("fmt", ["comet", "wmt", "iqxml"])
def test_export_folders_come_back_in(scored: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / fmt
    result = ulcdb(scored, "export", fmt, out, "-m", "BLEU,RG-L")  # comma-separated
    assert result.exit_code == 0, result.output
    db = tmp_path / "b.duckdb"
    shutil.copy(scored, db)
    result = ulcdb(db, "ingest", "scores", out)  # no --format
    assert result.exit_code == 0, result.output
    assert "stored scores none" in result.output and "already there" in result.output


def test_sacrebleu_folder_is_recognised(scored: Path, tmp_path: Path) -> None:
    out = tmp_path / "sb"
    assert ulcdb(scored, "export", "sacrebleu", out, "-m", "BLEU").exit_code == 0
    result = ulcdb(scored, "ingest", "scores", out)  # recognised, read as ulcdb's 0-1 BLEU:
    # refused only because the store holds BLEU at full precision, the files at 3 decimals
    assert result.exit_code == 1 and "already stored with other values (e.g. BLEU of" in \
        result.output


def test_a_mixed_folder_names_what_it_holds(tmp_path: Path, scored: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.json").write_text('[{"name": "BLEU", "score": 1, "signature": "x"}]')
    (folder / "b.txt").write_text("hello\n")
    result = ulcdb(scored, "ingest", "scores", folder)
    assert result.exit_code == 1
    assert "cannot tell the format of this folder (its files: sacrebleu): give --format" in \
        result.output


def test_sacrebleu_multi_system_json(scored: Path, tmp_path: Path) -> None:
    """`sacrebleu REFS -i SYS1 SYS2 -m bleu chrf ter -f json`: one record per system, named
    by its file; ulcdb maps file names to the test bed's systems."""
    import subprocess
    import sys

    refs = [str(PLAIN / "refs" / f"ref-{r}.en.txt") for r in "AB"]
    hyps = [str(PLAIN / "systems" / f"sys{s}.en.txt") for s in "AB"]
    out = subprocess.run([sys.executable, "-m", "sacrebleu", *refs, "-i", *hyps, "-m", "bleu",
                          "chrf", "ter", "-f", "json", "-w", "4"], capture_output=True,
                         text=True, check=True).stdout
    path = tmp_path / "multi.json"
    path.write_text(out, encoding="utf-8")
    db = tmp_path / "m.duckdb"
    shutil.copy(scored, db)
    result = ulcdb(db, "ingest", "scores", path, "--ref", "ref-A", "--ref", "ref-B",
                   "--rename", "BLEU=sacreBLEU", "--rename", "chrF2=sacrechrF",
                   "--rename", "TER=sacreTER")
    assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        got = {(m, t): v for m, t, v in store.query(
            "select metric, translator, value from scores where metric like 'sacre%' and "
            "refset = 'ref-A+ref-B'")}
        lower = store.scalar("select not higher_is_better from metric where name = "
                             "'sacreTER'")
    import sacrebleu

    texts = [p.read_text().splitlines() for p in map(Path, refs)]
    for s, hyp in zip("AB", hyps, strict=True):
        lines = Path(hyp).read_text().splitlines()
        assert got[("sacreBLEU", f"sys{s}")] == round(
            sacrebleu.corpus_bleu(lines, texts).score, 4)
        assert got[("sacreTER", f"sys{s}")] == round(sacrebleu.corpus_ter(lines, texts).score, 4)
    assert len(got) == 6 and lower


def _levels(db: Path) -> dict[tuple[str, str, str | None], float]:
    with Store(db, read_only=True) as store:
        return {(t, lv, d): v for t, lv, d, v in store.query(
            "select translator, level, doc_id, value from assessments where level <> 'seg' "
            "and criterion = 'DA-raw'")}


def test_headered_system_and_document_tables(scored: Path, tmp_path: Path) -> None:
    """WMT's da_sys.tsv (a system column, da_raw/da_z, no segment column) read at the default
    seg level said "the mapping needs seg_id or doc_id+seg_in_doc; it has []", and a table
    with a doc_id column could not be read at doc level at all ("it has []" again)."""
    db = tmp_path / "a.duckdb"
    shutil.copy(scored, db)
    sys_tsv = tmp_path / "da_sys.tsv"
    sys_tsv.write_text("system\tda_raw\tda_z\tn_judgments\nsysA\t87.4\t0.9\t24\n"
                       "sysB\t49.3\t-0.1\t24\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", sys_tsv)
    assert result.exit_code == 1
    assert result.output == (f"Error: {sys_tsv}:1: no seg_id (or doc_id and seg_in_doc) column "
                             "in the header for seg-level scores; give --level sys for system "
                             "scores\n")
    assert _levels(db) == {}
    assert ulcdb(db, "ingest", "assessments", sys_tsv, "--level", "sys").exit_code == 0
    assert _levels(db) == {("sysA", "sys", None): 87.4, ("sysB", "sys", None): 49.3}
    with Store(db, read_only=True) as store:
        assert dict(store.query("select translator, value from assessments where criterion "
                                "= 'DA-z'")) == {"sysA": 0.9, "sysB": -0.1}
    doc_tsv = tmp_path / "da_doc.tsv"
    doc_tsv.write_text("system\tdoc_id\tda_raw\nsysC\tmadrid-metro\t41.5\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", doc_tsv)
    assert result.exit_code == 1 and result.output.endswith(
        "no seg_id (or doc_id and seg_in_doc) column in the header for seg-level scores; give "
        "--level doc for document scores\n")
    result = ulcdb(db, "ingest", "assessments", doc_tsv, "--level", "doc")
    assert result.exit_code == 0, result.output
    assert _levels(db)[("sysC", "doc", "madrid-metro")] == 41.5
