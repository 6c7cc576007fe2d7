"""What score import and export check, one test (or a few) per case found by QA: incomplete
score files, COMET export names, folders, unknown export selectors, WMT language pairs,
mt-metrics-eval human scores and language pairs, raw TSV, and the wording of three messages.

Error cases check the one-line message and that the store is exactly as it was."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from cli_helpers import copy_store
from test_interchange import (
    DOCS,
    UNITS,
    empty_store,
    fingerprint,
    full_store,
    ok,
    scores,
    tiny_data,
    ulcdb,
    write,
)

from ulcdb.errors import InputError
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.ingest.model import Assessment
from ulcdb.interchange.load import load_scores
from ulcdb.interchange.model import ScoreFrame, ScoreSet, Source
from ulcdb.store.database import Store


@pytest.fixture(scope="module")
def source_db(tmp_path_factory) -> Path:
    """COMET (higher is better) and TER.x (a dotted name) at every level, DA-z human scores."""
    return full_store(tmp_path_factory.mktemp("qa_src") / "src.duckdb")


@pytest.fixture(scope="module")
def empty_db(tmp_path_factory) -> Path:
    return empty_store(tmp_path_factory.mktemp("empty") / "store.duckdb")


@pytest.fixture
def db(empty_db: Path, tmp_path: Path) -> Path:
    """The tiny test bed without scores (built once per module): a copy for each test."""
    return copy_store(empty_db, tmp_path, "store.duckdb")


def refused(db: Path, *args, where: str, message: str) -> None:
    """The command fails with one line holding ``where`` and ``message``; store unchanged."""
    before = fingerprint(db)
    result = ulcdb(db, *args)
    assert result.exit_code == 1, result.output
    assert where in result.output and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert fingerprint(db) == before


def wmt_seg(units, metric: str = "M", lp: str = "en-de", value: str = "0.5") -> str:
    return "".join(f"{metric}\t{lp}\ttiny\tref-A\tS1\t{d}\t{k}\t{value}\n" for d, k in units)


# --- 1. segment (document) scores must cover the test bed ---------------------------------------


def test_wmt_file_missing_a_segment_is_refused(db, tmp_path) -> None:
    path = write(tmp_path / "M.seg.tsv", wmt_seg(UNITS[:2] + UNITS[3:]))
    refused(db, "ingest", "scores", path, "--format", "wmt", where=f"{path}: ",
            message="M scores of 'S1' against ref-A lack segment 3 (segment 3 of document "
                    "'d1'): only 4 of the test bed's 5 segments have one")


def test_wmt_file_missing_a_document_is_refused(db, tmp_path) -> None:
    path = write(tmp_path / "M.doc.tsv", "M\ten-de\ttiny\tref-A\tS1\td1\t0.5\n")
    refused(db, "ingest", "scores", path, where=f"{path}: ",
            message="lack document 'd-2': only 1 of the test bed's 2 documents have one")


def test_comet_output_missing_the_last_segments_is_refused(db, tmp_path) -> None:
    path = write(tmp_path / "c.txt", "".join(f"S1\tSegment {i}\tscore: 0.{i}\n" for i in range(3))
                 + "S1\tscore: 0.5\n")
    refused(db, "ingest", "scores", path, "--ref", "ref-A", where=f"{path}: ",
            message="COMET scores of 'S1' against ref-A lack segment 4")


def test_iqxml_without_one_segment_is_refused(db, tmp_path) -> None:
    body = "".join(f'<S n="{i}">0.{i}</S>\n' for i in (1, 2, 4, 5))
    path = write(tmp_path / "iq" / "S1" / "ref-A" / "X.xml",
                 f'<IQ metric="X" ref="ref-A" score="0.5" target="S1">\n{body}</IQ>\n')
    refused(db, "ingest", "scores", tmp_path / "iq", where=f"{path}: ",
            message="X scores of 'S1' against ref-A lack segment 3")


def test_a_score_marked_missing_covers_its_segment_but_is_not_stored(db, tmp_path) -> None:
    rows = wmt_seg(UNITS[:2]) + wmt_seg(UNITS[2:3], value="None") + wmt_seg(UNITS[3:])
    ok(ulcdb(db, "ingest", "scores", write(tmp_path / "M.seg.tsv", rows)))
    assert sorted(r[7] for r in scores(db, metrics=("M",))) == [1, 2, 4, 5]
    table = write(tmp_path / "t.csv", "translator,refset,metric,seg_id,value\n"
                  + "".join(f"S1,ref-A,T,{i},{'None' if i == 2 else 0.1}\n" for i in range(1, 6)))
    ok(ulcdb(db, "ingest", "scores", table))
    assert sorted(r[7] for r in scores(db, metrics=("T",))) == [1, 3, 4, 5]


# --- 2. export comet names read back ------------------------------------------------------------


def test_comet_export_names_give_metric_and_reference_set(source_db, tmp_path) -> None:
    out = tmp_path / "comet"
    ok(ulcdb(source_db, "export", "comet", out, "-m", "TER.x"))
    assert (out / "TER.x.ref-A+ref-B.txt").exists()
    db = empty_store(tmp_path / "new.duckdb")
    for path in sorted(out.glob("*.txt")):
        ok(ulcdb(db, "ingest", "scores", path))  # no --metric, no --ref
    assert scores(db, ("seg", "sys"), ("TER.x",)) == scores(source_db, ("seg", "sys"), ("TER.x",))


def test_explicit_metric_and_reference_win_over_the_file_name(db, tmp_path) -> None:
    path = write(tmp_path / "BLEURT.ref-B.txt", "".join(f"S1\tSegment {i}\tscore: 0.{i}\n"
                                                         for i in range(5)))
    ok(ulcdb(db, "ingest", "scores", path, "-m", "MINE", "--ref", "ref-A"))
    assert {(r[1], r[3]) for r in scores(db, metrics=("MINE", "BLEURT"))} == {("MINE", "ref-A")}


# --- 3. folders ---------------------------------------------------------------------------------


def test_comet_folders_read_the_files_within(source_db, tmp_path) -> None:
    ok(ulcdb(source_db, "export", "comet", tmp_path / "comet", "-m", "COMET"))
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "comet", "--format", "comet", "--rename",
             "COMET=C2"))
    assert [r[7:] for r in scores(db, ("seg",), ("C2",))] == \
        [r[7:] for r in scores(source_db, ("seg",), ("COMET",))]


def test_table_folder_and_refused_lines_folder(source_db, tmp_path) -> None:
    ok(ulcdb(source_db, "export", "table", "-q", "select * from scores where level = 'sys'",
             tmp_path / "tables" / "sys.csv"))
    ok(ulcdb(source_db, "export", "table", "-q", "select * from scores where level <> 'sys'",
             tmp_path / "tables" / "rest.parquet"))
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "tables", "--format", "table"))
    assert scores(db) == scores(source_db)
    write(tmp_path / "lines" / "a.txt", "0.1\n" * 5)
    refused(db, "ingest", "scores", tmp_path / "lines", "--format", "lines", "-m", "L",
            "--target", "S1", "--ref", "ref-A", where=f"{tmp_path / 'lines'}: ",
            message="name the files, not a folder")


# --- 4. unknown export selectors ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["iqxml", "mtme", "wmt", "nist", "sacrebleu", "comet"])
@pytest.mark.parametrize("option, value, message", [
    ("--target", "sysZ", "no system or reference 'sysZ' in "),
    ("--refset", "ref-Z", "no reference set 'ref-Z' in "),
    ("--metric", "NOPE", "no scores of metric 'NOPE' in "),
])
def test_unknown_export_selector_is_an_error_naming_what_exists(source_db, tmp_path, fmt,
                                                                option, value, message) -> None:
    out = tmp_path / "out"
    result = ulcdb(source_db, "export", fmt, out, option, value)
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    there = {"--target": "S1, S_2, ref-A, ref-B, ref-C",
             "--refset": "S_2, ref-A, ref-A+ref-B, ref-B+ref-C",
             "--metric": "COMET, TER.x"}[option]
    assert f"(there: {there})" in result.output
    assert not out.exists()


# --- 5. WMT language pair -----------------------------------------------------------------------


def test_wmt_row_of_another_language_pair_is_refused(db, tmp_path) -> None:
    path = write(tmp_path / "M.seg.tsv", wmt_seg(UNITS[:3]) + wmt_seg(UNITS[3:], lp="de-en"))
    refused(db, "ingest", "scores", path, where=f"{path}:4: ",
            message="language pair 'de-en', but test bed 'tiny' is en-de")


def test_wmt_testbed_option_with_several_test_sets_names_the_second_one(db, tmp_path) -> None:
    """Test sets in name order (other, tiny): the error points at tiny's first row, line 1."""
    other = wmt_seg(UNITS[3:]).replace("\ttiny\t", "\tother\t")
    path = write(tmp_path / "M.seg.tsv", wmt_seg(UNITS[:3]) + other)
    refused(db, "ingest", "scores", path, "--testbed", "tiny", where=f"{path}:1: ",
            message="--testbed names one test bed but the files hold 2 test sets / language "
                    "pairs")


# --- 6. mt-metrics-eval: several judges, no languages ----------------------------------------


def test_mtme_human_scores_of_several_judges_are_their_mean(tmp_path) -> None:
    db = empty_store(tmp_path / "j.duckdb")
    items = [Assessment(s, "adequacy", float(v), "seg", seg, judge=judge)
             for s in ("S1", "S_2") for seg in range(1, 6)
             for judge, v in (("J1", seg), ("J2", seg + 1))]
    with Store(db) as store:
        load_assessments(store, "tiny", items, Path("adequacy.csv"))
    ok(ulcdb(db, "export", "mtme", tmp_path / "out", "--no-texts"))
    lines = (tmp_path / "out" / "human-scores" / "en-de.adequacy.seg.score").read_text()
    assert lines.splitlines() == [f"{s} {seg + 0.5}" for s in ("S1", "S_2") for seg in range(1, 6)]


def test_mtme_export_of_a_test_bed_without_languages_needs_lp(tmp_path) -> None:
    data = tiny_data()
    data.src_lang = data.tgt_lang = None
    db = empty_store(tmp_path / "nolang.duckdb", data)
    with Store(db) as store:
        load_scores(store, _frame("COMET"))
    result = ulcdb(db, "export", "mtme", tmp_path / "a")
    assert result.exit_code == 1 and "give it (--lp SRC-TGT)" in result.output
    ok(ulcdb(db, "export", "mtme", tmp_path / "b", "--lp", "es-en"))
    assert (tmp_path / "b" / "metric-scores" / "es-en" / "COMET-refA.seg.score").exists()
    assert (tmp_path / "b" / "sources" / "es-en.txt").exists()
    result = ulcdb(db, "export", "mtme", tmp_path / "c", "--lp", "es en")
    assert result.exit_code == 1 and "must be SRC-TGT" in result.output


def test_mtme_lp_must_agree_with_the_test_bed(source_db, tmp_path) -> None:
    result = ulcdb(source_db, "export", "mtme", tmp_path / "x", "--lp", "de-en")
    assert result.exit_code == 1 and "test bed 'tiny' is en-de, not de-en" in result.output
    assert not (tmp_path / "x").exists()


def _frame(metric: str) -> ScoreFrame:
    seg, sys = ScoreSet(metric, "S1", ("ref-A",), "seg"), ScoreSet(metric, "S1", ("ref-A",), "sys")
    for i in range(1, sum(DOCS.values()) + 1):
        seg.add(i / 10, seg=i)
    sys.add(0.3)
    return ScoreFrame.from_sets([seg, sys], Source("built", "test"), "tiny")


# --- 7. TSV is raw, CSV is quoted ---------------------------------------------------------------

AWKWARD = "select 1 as n, '\"quoted' as a, 'x,y \"z\"' as b"


@pytest.mark.parametrize("text, what", [("'a' || chr(9) || 'b'", "tab"),
                                        ("'a' || chr(10) || 'b'", "newline"),
                                        ("'a' || chr(13)", "carriage return")])
def test_tsv_export_refuses_tabs_and_line_breaks(source_db, tmp_path, text, what) -> None:
    out = tmp_path / "t.tsv"
    query = f"select 'fine' as a, x from (values (1), (2)) v(k), (select {text} as x) " \
            "order by k"
    result = ulcdb(source_db, "export", "table", "-q", query, out)
    assert result.exit_code == 1, (what, result.output)
    assert "row 1, column 'x': the value holds a tab or line break" in result.output
    assert "export as .csv or .parquet" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not out.exists()


def test_tsv_is_raw_and_csv_is_quoted(source_db, tmp_path) -> None:
    ok(ulcdb(source_db, "export", "table", "-q", AWKWARD, tmp_path / "t.tsv"))
    assert (tmp_path / "t.tsv").read_text() == 'n\ta\tb\n1\t"quoted\tx,y "z"\n'
    query = AWKWARD + ", 'two' || chr(10) || 'lines' as c"
    ok(ulcdb(source_db, "export", "table", "-q", query, tmp_path / "t.csv"))
    with (tmp_path / "t.csv").open(newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh)) == [["n", "a", "b", "c"],
                                        ["1", '"quoted', 'x,y "z"', "two\nlines"]]


# --- 8. messages --------------------------------------------------------------------------------


def test_unknown_table_names_a_command_that_exists(source_db, tmp_path) -> None:
    result = ulcdb(source_db, "export", "table", "nosuchtable", tmp_path / "x.csv")
    assert result.exit_code == 1 and "ulcdb list tables" not in result.output
    assert 'ulcdb sql "select table_name' in result.output


def test_level_doc_on_segment_rows_says_so(db, tmp_path) -> None:
    path = write(tmp_path / "t.csv", "translator,refset,metric,seg_id,value\nS1,ref-A,X,1,0.5\n")
    refused(db, "ingest", "scores", path, "--level", "doc", where=f"{path}:2: ",
            message="the row names segment 1, but its level is doc")


def test_document_score_without_a_document_is_named_as_such(db) -> None:
    doc = ScoreSet("X", "S1", ("ref-A",), "doc")
    doc.add(0.5, line=7)
    frame = ScoreFrame.from_sets([doc], Source("d.tsv", "test"), "tiny")
    with Store(db) as store, pytest.raises(InputError, match="names no document") as info:
        load_scores(store, frame)
    assert "None" not in str(info.value) and str(info.value).startswith("d.tsv:7: ")


def test_range_of_a_new_metric_is_named_as_given(db, tmp_path) -> None:
    path = write(tmp_path / "M.sys.tsv", "M\ten-de\ttiny\tref-A\tS1\t0.5\n")
    refused(db, "ingest", "scores", path, "--range-max", "0.4", where=f"{path}:1: ",
            message="outside the range [-inf, 0.4] given for the new metric 'M' "
                    "(--range-min / --range-max)")
