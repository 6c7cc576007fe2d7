"""What ingest checks, one test per defect QA found: raw TSV quoting, WMT segment ids,
unrecognised files, adding a system without --docs, duplicate names, languages, --rename and
mt-metrics-eval names for assessments, --replace dropping assessments, a reference named like
a system.

Every refusal must be one line naming the file (and line) and leave the store as it was."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from cli_helpers import copy_store, refused, ulcdb
from test_ingest_store import plain_args

from ulcdb.store.database import Store

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample"
PLAIN = SAMPLE / "plain"

LONG_HEADER = "seg_id\tdoc_id\tsource\ttranslator\tkind\ttranslation\n"


def query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query(sql, params)


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def base_args(docs: bool = True) -> list[object]:
    args: list[object] = ["ingest", "testbed", "--name", "sample", "--source",
                          PLAIN / "source.es.txt"]
    return [*args, "--docs", PLAIN / "docs.tsv"] if docs else args


def sample_args() -> list[object]:
    return plain_args()  # the whole plain sample as test bed 'sample'


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("ingest_checks")
    path = tmp_path / "store.duckdb"
    result = ulcdb(path, *sample_args())
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(built_db: Path, tmp_path: Path) -> Path:
    """The plain sample ingested (built once per module): a copy for each test."""
    return copy_store(built_db, tmp_path, built_db.name)


# --- 1. long TSV is read raw, unless a CSV writer quoted it ---------------------------------


def test_long_tsv_keeps_quotes_as_written(db: Path, tmp_path: Path) -> None:
    text = '"Quoted" start and "inner" quotes'
    path = tmp_path / "quotes.tsv"
    path.write_text(LONG_HEADER + f'1\td\t"Hola" dijo\tS\tsystem\t{text}\n'
                    '2\td\tadios\tS\tsystem\t"bye"\n', encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", path)
    assert result.exit_code == 0, result.output
    assert query(db, "select seg_id, source, text from translations join segment s "
                 "using (seg_id) join testbed b on b.testbed_id = s.testbed_id and "
                 "b.name = testbed where testbed = 'quotes' order by seg_id") == [
        (1, '"Hola" dijo', text), (2, "adios", '"bye"')]


def test_long_tsv_written_by_a_csv_writer_is_unquoted(db: Path, tmp_path: Path) -> None:
    texts = ['"Quoted" start', 'He said "no".', "plain"]
    path = tmp_path / "pandas.tsv"
    _csv_written(path, texts)
    assert '"""Quoted"" start"' in path.read_text(encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", path)
    assert result.exit_code == 0, result.output
    stored = [r[0] for r in query(db, "select text from translations where testbed = 'pandas' "
                                  "order by seg_id")]
    assert stored == texts


def _csv_written(path: Path, texts: list[str], quoting: int = csv.QUOTE_MINIMAL) -> None:
    """A long TSV of one system's ``texts`` (segment i: source ``src i``) by a CSV writer."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n", quoting=quoting)
        writer.writerow(LONG_HEADER.split())
        for i, text in enumerate(texts, 1):
            writer.writerow([i, "d", f"src {i}", "S", "system", text])


def test_long_tsv_with_csv_quoted_fields_and_a_raw_quote_is_refused(db: Path,
                                                                    tmp_path: Path) -> None:
    """A CSV writer's file with one line written raw deep inside: refused naming that line
    and the first CSV-quoted one (it was read raw, storing '"He said ""no""."' as it is)."""
    path = tmp_path / "mixed.tsv"
    texts = [f"plain {i}" for i in range(1, 500)]
    texts[10] = 'He said "no".'  # line 12, CSV-quoted
    _csv_written(path, texts)
    with path.open("a", encoding="utf-8") as handle:  # line 501, raw
        handle.write('500\td\tsrc 500\tS\tsystem\tthe 5" screen\n')
    line = refused(db, "ingest", "testbed", path)
    assert line == (f"Error: {path}:501: a raw '\"' in a file whose quoted fields are "
                    "CSV-quoted (first on line 12); write every field raw or CSV-quote every "
                    "field holding '\"'")


def test_long_tsv_with_raw_quotes_and_a_csv_quoted_field_is_refused(db: Path,
                                                                    tmp_path: Path) -> None:
    path = tmp_path / "mixed.tsv"
    path.write_text(LONG_HEADER + '1\td\t"Hola" dijo\tS\tsystem\tone\n'
                    '2\td\tadios\tS\tsystem\t"a ""b"" c"\n', encoding="utf-8")
    line = refused(db, "ingest", "testbed", path)
    assert line.startswith(f"Error: {path}:3: a CSV-quoted field")
    assert "other '\"' are raw (first on line 2)" in line


def test_long_tsv_fields_only_wrapped_in_quotes_follow_the_files_quoting(
        db: Path, tmp_path: Path) -> None:
    """A field wrapped in quotes without inner ones ("bye") is read as the file's other quoted
    fields are: unquoted in a CSV writer's file (here one that quotes every field, whose
    seg_id "1" was read raw and refused), kept as written in a raw file (the test above)."""
    texts = ['"Quoted" start', "bye", "plain"]
    path = tmp_path / "quoteall.tsv"
    _csv_written(path, texts, csv.QUOTE_ALL)
    assert path.read_text(encoding="utf-8").splitlines()[2].startswith('"2"\t"d"')
    result = ulcdb(db, "ingest", "testbed", path)
    assert result.exit_code == 0, result.output
    assert [r[0] for r in query(db, "select text from translations where testbed = 'quoteall' "
                                "order by seg_id")] == texts


def test_shared_wmt_long_tsv_sample_reads_like_its_plain_files(shared: Path,
                                                               tmp_path: Path) -> None:
    bed = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    db = tmp_path / "wmt.duckdb"
    result = ulcdb(db, "ingest", "testbed", bed / "segments_long.tsv", "--name", "ende")
    assert result.exit_code == 0, result.output
    assert "seg_id 47..838 of segments_long.tsv renumbered 1..56" in result.output
    sources = [r[0] for r in query(db, "select source from segment order by seg_id")]
    assert sources == lines_of(bed / "source.en.txt")
    ref_a = [r[0] for r in query(db, "select text from translations where translator = 'ref-A' "
                                 "order by seg_id")]
    assert ref_a == lines_of(bed / "refs" / "ref-A.de.txt")
    # the sample's MQM scores number segments 1..56, as the renumbered test bed does: the
    # long TSV's mqm_avg_score column, stored with it, equals them row for row
    result = ulcdb(db, "ingest", "assessments", bed / "human" / "mqm_seg.tsv", "--skip-unknown")
    assert result.exit_code == 0, result.output
    assert "0 stored, 517 already there, 0 replaced" in result.output


# --- 2. segment ids other than 1..n ---------------------------------------------------------


def test_long_tsv_ids_with_gaps_are_renumbered(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "gaps.tsv"
    path.write_text(LONG_HEADER + "".join(f"{i}\td\tsrc {i}\tS\tsystem\thyp {i}\n"
                                          for i in (52, 47, 48)), encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", path)
    assert result.exit_code == 0, result.output
    assert "seg_id 47..52 of gaps.tsv renumbered 1..3" in result.output
    assert query(db, "select seg_id, source from segment s join testbed t using (testbed_id) "
                 "where t.name = 'gaps' order by seg_id") == [
        (1, "src 47"), (2, "src 48"), (3, "src 52")]


@pytest.mark.parametrize("bad", ["0", "x7", "-3"])
def test_long_tsv_bad_seg_id_names_file_and_line(db: Path, tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text(LONG_HEADER + "1\td\ta\tS\tsystem\tA\n"
                    f"{bad}\td\tb\tS\tsystem\tB\n", encoding="utf-8")
    line = refused(db, "ingest", "testbed", path)
    assert f"bad.tsv:3: seg_id {bad!r} is not a positive integer" in line


# --- 3. files that are no test bed ----------------------------------------------------------


def test_unrecognised_files_are_refused(db: Path, tmp_path: Path) -> None:
    notxml = tmp_path / "notxml.xml"
    notxml.write_text("hello world\n", encoding="utf-8")
    assert "notxml.xml:1: malformed XML" in refused(db, "ingest", "testbed", notxml)
    other = tmp_path / "other.xml"
    other.write_text("<html><body/></html>\n", encoding="utf-8")
    assert "root element is <html>" in refused(db, "ingest", "testbed", other)
    line = refused(db, "ingest", "testbed", SAMPLE / "human" / "da.tsv")
    assert "da.tsv:1: not a long-TSV test bed" in line
    text = tmp_path / "notes.txt"
    text.write_text("hello world\n", encoding="utf-8")
    assert "notes.txt: unrecognised test-bed format" in refused(db, "ingest", "testbed", text)


def test_test_bed_without_translators_is_refused(db: Path) -> None:
    line = refused(db, "ingest", "testbed", "--name", "bare", "--source", PLAIN / "source.es.txt")
    assert "source.es.txt: no systems or references" in line


# --- 4. adding a system without repeating --docs --------------------------------------------


def test_adding_a_system_without_docs_keeps_everything(db: Path) -> None:
    documents = query(db, "select doc_id, seg_id, seg_in_doc from segment order by seg_id")
    result = ulcdb(db, *base_args(docs=False), "--sys", f"sysE={PLAIN / 'systems' / 'sysA.en.txt'}")
    assert result.exit_code == 0, result.output
    assert "3 documents; added: sysE" in result.output
    assert query(db, "select doc_id, seg_id, seg_in_doc from segment order by seg_id") == documents
    names = [r[0] for r in query(db, "select name from translator order by name")]
    assert names == ["ref-A", "ref-B", "ref-C", "sysA", "sysB", "sysC", "sysD", "sysE"]


def test_other_documents_say_what_replace_drops(db: Path, tmp_path: Path) -> None:
    assert ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv",
                 "-c", "adequacy").exit_code == 0
    docs = tmp_path / "docs.tsv"
    docs.write_text((PLAIN / "docs.tsv").read_text(encoding="utf-8").replace(
        "madrid-metro", "metro"), encoding="utf-8")
    args = [*base_args(docs=False), "--docs", docs, "--sys",
            f"sysA={PLAIN / 'systems' / 'sysA.en.txt'}"]
    line = refused(db, *args)
    assert "other documents (segment 1 is number 1 of 'madrid-metro'" in line
    assert ("dropping its 4 systems, 3 references, 0 scores, 120 human assessments, "
            "3 documents and 0 named sets") in line
    result = ulcdb(db, *args, "--replace")
    assert result.exit_code == 0, result.output
    assert "dropped its 4 systems" in result.output
    assert query(db, "select name from translator") == [("sysA",)]


# --- 5. the same name twice in one command --------------------------------------------------


@pytest.mark.parametrize("option", ["--sys", "--ref"])
def test_duplicate_name_in_one_command_is_refused(db: Path, option: str) -> None:
    a, b = PLAIN / "systems" / "sysA.en.txt", PLAIN / "systems" / "sysB.en.txt"
    line = refused(db, *base_args(), option, f"X={a}", option, f"X={b}")
    assert f"{option} X is given twice" in line


# --- 6. --src-lang / --tgt-lang for formats without languages -------------------------------


def languages(db: Path) -> tuple:
    return query(db, "select src_lang, tgt_lang from testbed where name = 'sample'")[0]


def test_config_takes_language_options(tmp_path: Path) -> None:
    db = tmp_path / "cfg.duckdb"
    config = tmp_path / "ULC.config"  # the sample's, without its SRCLANG line
    text = (SAMPLE / "ULC.config").read_text(encoding="utf-8").replace("./", f"{SAMPLE}/")
    config.write_text("".join(line for line in text.splitlines(keepends=True)
                              if not line.startswith("SRCLANG")), encoding="utf-8")
    assert ulcdb(db, "ingest", "testbed", config, "--name", "sample").exit_code == 0
    assert languages(db) == (None, "en")  # LANG=ENG, no source language
    result = ulcdb(db, "ingest", "testbed", config, "--name", "sample", "--src-lang", "es")
    assert result.exit_code == 0 and "src_lang set to es" in result.output, result.output
    assert languages(db) == ("es", "en")
    line = refused(db, "ingest", "testbed", config, "--name", "sample", "--src-lang", "fr")
    assert "has src_lang 'es', the input says 'fr'" in line
    line = refused(db, "ingest", "testbed", config, "--name", "sample", "--tgt-lang", "de")
    assert "ULC.config: --tgt-lang de contradicts the input's tgt_lang 'en'" in line


def test_fresh_config_with_both_languages(tmp_path: Path) -> None:
    db = tmp_path / "cfg.duckdb"
    result = ulcdb(db, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample",
                   "--src-lang", "es", "--tgt-lang", "en")
    assert result.exit_code == 0, result.output
    assert languages(db) == ("es", "en")


# --- 7. --rename for every assessment format ------------------------------------------------


def test_rename_applies_to_nist_csv(db: Path, tmp_path: Path) -> None:
    renamed = tmp_path / "x.csv"
    renamed.write_text((SAMPLE / "human" / "adequacy.csv").read_text(encoding="utf-8").replace(
        "\nsysA,", "\nSYSTEM-A,"), encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", renamed, "-c", "adequacy",
                   "--rename", "SYSTEM-A=sysA")
    assert result.exit_code == 0 and "120 stored" in result.output, result.output
    assert query(db, "select count(*) from assessments where translator = 'sysA'") == [(24,)]


def test_rename_applies_to_tables_and_mtme(db: Path, tmp_path: Path) -> None:
    table = tmp_path / "da.tsv"
    table.write_text("system\tseg_id\tda\nSYS-B\t1\t50\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", table, "--map", "system=system", "--map",
                   "seg_id=seg_id", "--map", "score=da", "-c", "DA-raw", "--rename", "SYS-B=sysB")
    assert result.exit_code == 0, result.output
    scores = tmp_path / "es-en.fluency.sys.score"
    scores.write_text("SYS-C 0.5\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", scores, "--rename", "SYS-C=sysC")
    assert result.exit_code == 0, result.output
    assert query(db, "select translator, criterion from assessments order by 1") == [
        ("sysB", "DA-raw"), ("sysC", "fluency")]


def test_bad_rename_is_refused(db: Path) -> None:
    line = refused(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c",
                   "adequacy", "--rename", "sysA")
    assert "--rename takes OLD=NEW" in line


# --- 8. mt-metrics-eval names references without dashes -------------------------------------


def test_mtme_human_scores_name_references_without_dashes(db: Path, tmp_path: Path) -> None:
    scores = tmp_path / "es-en.crit.seg.score"
    scores.write_text("".join(f"refB 0.{i}\n" for i in range(1, 13)), encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", scores)
    assert result.exit_code == 0 and "12 stored" in result.output, result.output
    assert query(db, "select distinct translator from assessments") == [("ref-B",)]


def test_exported_mtme_human_scores_ingest_again(db: Path, tmp_path: Path) -> None:
    assert ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv",
                 "-c", "adequacy").exit_code == 0
    folder = tmp_path / "mtme"
    result = ulcdb(db, "export", "mtme", folder, "--no-texts")
    assert result.exit_code == 0, result.output
    other = tmp_path / "other.duckdb"
    assert ulcdb(other, *sample_args()).exit_code == 0
    result = ulcdb(other, "ingest", "assessments",
                   folder / "human-scores" / "es-en.adequacy.seg.score")
    assert result.exit_code == 0, result.output
    means = "select translator, seg_id, round(avg(value), 9) from assessments group by all"
    assert sorted(query(other, means)) == sorted(query(db, means))
    assert ("ref-B",) in query(other, "select distinct translator from assessments")


# --- 9. --replace drops the replaced text's assessments -------------------------------------


def test_replace_drops_the_assessments_of_the_old_text(db: Path, tmp_path: Path) -> None:
    assert ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv",
                 "-c", "adequacy").exit_code == 0
    changed = tmp_path / "sysA.txt"
    lines = lines_of(PLAIN / "systems" / "sysA.en.txt")
    changed.write_text("\n".join(["changed", *lines[1:]]) + "\n", encoding="utf-8")
    line = refused(db, *base_args(), "--sys", f"sysA={changed}")
    assert "first difference at segment 1" in line and "human assessments are dropped" in line
    result = ulcdb(db, *base_args(), "--sys", f"sysA={changed}", "--replace")
    assert result.exit_code == 0, result.output
    assert "replaced: sysA (0 scores and 24 human assessments dropped)" in result.output
    counts = dict(query(db, "select translator, count(*) from assessments group by all"))
    assert "sysA" not in counts and counts["sysB"] == 24


# --- 10. a reference named like an existing system ------------------------------------------


def test_reference_with_the_name_of_a_system(db: Path) -> None:
    line = refused(db, *base_args(), "--ref", f"sysA={PLAIN / 'systems' / 'sysA.en.txt'}")
    assert "the name 'sysA' is already used by a system of test bed 'sample'" in line
