"""Readers of human assessments: NIST CSV, mt-metrics-eval, generic tables, WMT MQM."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from ulcdb.errors import InputError
from ulcdb.formats.assessments import read_table
from ulcdb.formats.nist.assessments import read_nist_csv
from ulcdb.formats.wmt.mqm import read_wmt_mqm
from ulcdb.ingest.model import Assessment
from ulcdb.ingest.mtme_testbeds import parse_mtme_name, read_mtme_human

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
DA_SEG = {"system": "system", "seg_id": "seg_id", "score": "da_raw"}


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def fails(read: Callable[..., object], path: Path, *args: object, **kwargs: object) -> str:
    with pytest.raises(InputError) as info:
        read(path, *args, **kwargs)
    return str(info.value)


# --- NIST / Asiya CSV -----------------------------------------------------------------------


def test_nist_with_header(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "systemId,documentId,segmentId,judgeId,score\n"
                                    "sysA,doc1,2,J1,4\nsysB,doc1,1,J2,3.5\n")
    got = read_nist_csv(path, "adequacy")
    assert got == [
        Assessment("sysA", "adequacy", 4.0, "seg", 2, "doc1", "J1", 2),
        Assessment("sysB", "adequacy", 3.5, "seg", 1, "doc1", "J2", 3),
    ]


def test_nist_without_header_and_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "sysA,d,1,J1,5\r\n\r\nsysA,d,2,J1,4\r\n")
    got = read_nist_csv(path, "fluency")
    assert [(a.seg_id, a.value, a.line) for a in got] == [(1, 5.0, 1), (2, 4.0, 3)]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("systemId,documentId,segmentId,judgeId,score\nsysA,d,1,J1,good\n", 2, "'good'"),
        ("sysA,d,1,J1,4\nsysA,d,2,J1,NaN\n", 2, "NaN"),
        ("sysA,d,1,J1,4\nsysA,d,2,J1\n", 2, "expected 5 columns"),
        ("sysA,d,1,J1,4\nsysA,d,2,J1,4,extra\n", 2, "found 6"),
        ("sysA,d,x,J1,4\n", 1, "segmentId 'x'"),
        ("sysA,d,0,J1,4\n", 1, "segmentId '0'"),
        (",d,1,J1,4\n", 1, "empty systemId"),
    ],
)
def test_nist_bad_lines(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, "bad.csv", text)
    message = fails(read_nist_csv, path, "adequacy")
    assert f"{path}:{line}:" in message and words in message


def test_nist_empty_and_header_only(tmp_path: Path) -> None:
    empty = write(tmp_path, "empty.csv", "\n \n")
    assert "empty file" in fails(read_nist_csv, empty, "adequacy")
    header = write(tmp_path, "header.csv", "systemId,documentId,segmentId,judgeId,score\n")
    assert "no assessments" in fails(read_nist_csv, header, "adequacy")


def test_nist_invalid_utf8(tmp_path: Path) -> None:
    text = b"sysA,d,1,J1,4\n" + "sysé,d,2,J1,4\n".encode("latin-1")
    path = write(tmp_path, "latin1.csv", text)
    message = fails(read_nist_csv, path, "adequacy")
    assert f"{path}:2:" in message and "UTF-8" in message


def test_nist_needs_criterion(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "sysA,d,1,J1,4\n")
    assert "criterion" in fails(read_nist_csv, path, " ")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nothere.csv"
    assert str(path) in fails(read_nist_csv, path, "adequacy")


# --- mt-metrics-eval ------------------------------------------------------------------------


def test_mtme_name() -> None:
    assert parse_mtme_name("x/en-de.mqm.seg.score") == ("en-de", "mqm", "seg")
    assert parse_mtme_name("en-de.wmt-raw.v2.sys.score") == ("en-de", "wmt-raw.v2", "sys")


def test_mtme_seg_counts_none_positions(tmp_path: Path) -> None:
    text = "sysA 0.5\nsysB None\nsysA None\nsysB -1.25\nsysA 2\n"
    got = read_mtme_human(write(tmp_path, "en-de.mqm.seg.score", text))
    assert [(a.translator, a.seg_id, a.value, a.line) for a in got] == [
        ("sysA", 1, 0.5, 1), ("sysB", 2, -1.25, 4), ("sysA", 3, 2.0, 5),
    ]
    assert {(a.criterion, a.level, a.doc_id) for a in got} == {("mqm", "seg", None)}


def test_mtme_doc_and_sys(tmp_path: Path) -> None:
    doc = read_mtme_human(write(tmp_path, "zh-en.wmt-z.doc.score", "s1 0.1\ns1 0.2\ns2 0.3\n"))
    assert [(a.translator, a.level, a.seg_id, a.doc_id) for a in doc] == [
        ("s1", "doc", 1, None), ("s1", "doc", 2, None), ("s2", "doc", 1, None),
    ]
    sys_ = read_mtme_human(write(tmp_path, "zh-en.wmt-z.sys.score", "s1 0.1\ns2 None\n"))
    assert [(a.translator, a.level, a.seg_id, a.value) for a in sys_] == [("s1", "sys", None, 0.1)]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("s1 0.5\ns1 abc\n", 2, "'abc'"),
        ("s1 0.5\ns1 nan\n", 2, "NaN"),
        ("s1 0.5\ndomain s1 0.5\n", 2, "expected 2 columns"),
        ("s1\n", 1, "found 1"),
    ],
)
def test_mtme_bad_lines(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, "en-de.mqm.seg.score", text)
    message = fails(read_mtme_human, path)
    assert f"{path}:{line}:" in message and words in message


def test_mtme_bad_files(tmp_path: Path) -> None:
    twice = write(tmp_path, "en-de.mqm.sys.score", "s1 0.5\ns1 0.6\n")
    assert f"{twice}:2:" in fails(read_mtme_human, twice)
    assert "LP.NAME.LEVEL.score" in fails(read_mtme_human, write(tmp_path, "mqm.score", "s 1\n"))
    domain = write(tmp_path, "en-de.mqm.domain.score", "news s1 0.5\n")
    assert "'domain'" in fails(read_mtme_human, domain)
    assert "empty file" in fails(read_mtme_human, write(tmp_path, "en-de.x.seg.score", ""))
    bad = write(tmp_path, "en-de.y.seg.score", b"s1 0.5\ns\xff 1\n")
    assert f"{bad}:2:" in fails(read_mtme_human, bad)


# --- generic tables -------------------------------------------------------------------------


def test_table_tsv_two_criteria(tmp_path: Path) -> None:
    path = write(tmp_path, "da.tsv", "system\tseg_id\tda_raw\tda_z\nA\t1\t78\t0.07\n"
                                     "B\t2\t\t-0.5\nC\t3\tNone\t0.1\n")
    raw = read_table(path, DA_SEG, criterion="DA-raw")
    assert raw == [Assessment("A", "DA-raw", 78.0, "seg", 1, None, "", 2)]
    z = read_table(path, {**DA_SEG, "score": "da_z"}, criterion="DA-z")
    assert [(a.translator, a.value) for a in z] == [("A", 0.07), ("B", -0.5), ("C", 0.1)]


def test_table_csv_criterion_judge_and_seg_in_doc(tmp_path: Path) -> None:
    path = write(tmp_path, "h.csv", 'who,doc,n,crit,rater,val\n"Sys, Inc",d1,2,fluency,r1,3\n')
    mapping = {"system": "who", "doc_id": "doc", "seg_in_doc": "n", "criterion": "crit",
               "judge": "rater", "score": "val"}
    got = read_table(path, mapping)
    assert got == [Assessment("Sys, Inc", "fluency", 3.0, "seg", 2, "d1", "r1", 2)]


def test_table_doc_and_sys_levels_and_sniffing(tmp_path: Path) -> None:
    doc = write(tmp_path, "doc.txt", "system;doc;s\nA;d1;0.5\n")
    got = read_table(doc, {"system": "system", "doc_id": "doc", "score": "s"}, "DA", "doc")
    assert [(a.level, a.doc_id, a.seg_id) for a in got] == [("doc", "d1", None)]
    sys_ = write(tmp_path, "sys.dat", "system|s\nA|0.5\n")
    got = read_table(sys_, {"system": "system", "score": "s"}, "DA", "sys", delimiter="|")
    assert [(a.level, a.doc_id, a.seg_id, a.value) for a in got] == [("sys", None, None, 0.5)]
    odd = write(tmp_path, "sys.dat", "system|s\nA|0.5\n")
    assert "delimiter" in fails(read_table, odd, {"system": "system", "score": "s"}, "DA", "sys")


@pytest.mark.parametrize(
    ("mapping", "criterion", "level", "words"),
    [
        ({"system": "system", "seg_id": "seg_id", "score": "da_rw"}, "DA", "seg", "'da_rw'"),
        ({"system": "system", "seg_id": "seg_id"}, "DA", "seg", "no 'score'"),
        ({**DA_SEG, "segment": "seg_id"}, "DA", "seg", "unknown mapping keys ['segment']"),
        (DA_SEG, None, "seg", "criterion"),
        ({**DA_SEG, "criterion": "system"}, "DA", "seg", "criterion"),
        ({**DA_SEG, "doc_id": "system"}, "DA", "seg", "seg_id or doc_id+seg_in_doc"),
        ({"system": "system", "score": "da_raw"}, "DA", "seg", "seg_id or doc_id+seg_in_doc"),
        (DA_SEG, "DA", "sys", "none of seg_id"),
        (DA_SEG, "DA", "system", "level 'system'"),
    ],
)
def test_table_bad_mapping(tmp_path: Path, mapping: dict[str, str], criterion: str | None,
                           level: str, words: str) -> None:
    path = write(tmp_path, "da.tsv", "system\tseg_id\tda_raw\nA\t1\t78\n")
    message = fails(read_table, path, mapping, criterion, level)
    assert str(path) in message and words in message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("system\tseg_id\tda_raw\nA\t1\t78\nA\t2\tgood\n", 3, "'good'"),
        ("system\tseg_id\tda_raw\nA\t1\tnan\n", 2, "NaN"),
        ("system\tseg_id\tda_raw\nA\t1\t7\t8\n", 2, "expected 3 columns"),
        ("system\tseg_id\tda_raw\nA\t-1\t78\n", 2, "'-1'"),
        ("system\tseg_id\tda_raw\n\t1\t78\n", 2, "empty system"),
        ("system\tseg\tda_raw\nA\t1\t78\n", 1, "no column 'seg_id'"),
        ("system\tseg_id\tseg_id\tda_raw\nA\t1\t1\t78\n", 1, "more than one column 'seg_id'"),
        (b"system\tseg_id\tda_raw\nA\t1\t7\xe98\n", 2, "UTF-8"),
    ],
)
def test_table_bad_lines(tmp_path: Path, text: str | bytes, line: int, words: str) -> None:
    path = write(tmp_path, "da.tsv", text)
    message = fails(read_table, path, DA_SEG, "DA-raw")
    assert f"{path}:{line}:" in message and words in message


def test_table_empty_and_header_only(tmp_path: Path) -> None:
    assert "empty file" in fails(read_table, write(tmp_path, "e.tsv", ""), DA_SEG, "DA")
    header = write(tmp_path, "h.tsv", "system\tseg_id\tda_raw\n")
    assert "no assessments" in fails(read_table, header, DA_SEG, "DA")


# --- WMT MQM --------------------------------------------------------------------------------

RAW_MQM = "system mqm_avg_score seg_id\nsysX\t-5.000000 1\nNemo\t-0.000000 1\nsysX\tNone 2\n"


def test_mqm_raw_google_format(tmp_path: Path) -> None:
    path = write(tmp_path, "x.avg_seg_scores.tsv", RAW_MQM)
    got = read_wmt_mqm(path, rename={"Nemo": "NVIDIA-NeMo"})
    assert got == [
        Assessment("sysX", "MQM", -5.0, "seg", 1, None, "", 2),
        Assessment("NVIDIA-NeMo", "MQM", 0.0, "seg", 1, None, "", 3),
    ]
    assert str(got[1].value) == "0.0"  # not -0.0


def test_mqm_clean_format(tmp_path: Path) -> None:
    text = "system\tseg_id\tdoc_id\tmqm_avg_score\nsysX\t7\td1\t-1.5\n"
    got = read_wmt_mqm(write(tmp_path, "mqm_seg.tsv", text))
    assert got == [Assessment("sysX", "MQM", -1.5, "seg", 7, None, "", 2)]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("system score seg_id\nA 1 1\n", 1, "['mqm_avg_score']"),
        ("system mqm_avg_score seg_id\nA -1 1\nA bad 2\n", 3, "'bad'"),
        ("system mqm_avg_score seg_id\nA NaN 1\n", 2, "NaN"),
        ("system mqm_avg_score seg_id\nA -1\n", 2, "expected 3 columns"),
        ("system mqm_avg_score seg_id\nA -1 1\nA -2 1\n", 3, "first at line 2"),
        ("system mqm_avg_score seg_id\nA -1 one\n", 2, "seg_id 'one'"),
        (b"system mqm_avg_score seg_id\nA\xff -1 1\n", 2, "UTF-8"),
    ],
)
def test_mqm_bad_lines(tmp_path: Path, text: str | bytes, line: int, words: str) -> None:
    path = write(tmp_path, "mqm.tsv", text)
    message = fails(read_wmt_mqm, path)
    assert f"{path}:{line}:" in message and words in message


def test_mqm_empty(tmp_path: Path) -> None:
    assert "empty file" in fails(read_wmt_mqm, write(tmp_path, "mqm.tsv", "\n"))


# --- real shared data -----------------------------------------------------------------------


def test_shared_mqm_clean_and_raw_agree(shared: Path) -> None:
    bed = shared / "testbeds" / "wmt21_newstest2021_ende"
    clean = read_wmt_mqm(bed / "human" / "mqm_seg.tsv")
    raw = read_wmt_mqm(bed / "raw" / "mqm_newstest2021_ende.avg_seg_scores.tsv",
                       rename={"Nemo": "NVIDIA-NeMo"})
    assert len(clean) == len(raw) == 8959  # 17 translators x 527 rated segments
    assert len({a.seg_id for a in clean}) == 527
    assert Counter(a.translator for a in clean)["NVIDIA-NeMo"] == 527
    assert {(a.translator, a.seg_id, a.value) for a in clean} == {
        (a.translator, a.seg_id, a.value) for a in raw
    }
    assert max(a.value for a in raw) == 0.0  # negated MQM: higher is better


def test_shared_ruen_da(shared: Path) -> None:
    path = shared / "testbeds" / "wmt21_newstest2021_ruen" / "human" / "da_seg.tsv"
    raw = read_table(path, DA_SEG, criterion="DA-raw")
    z = read_table(path, {**DA_SEG, "score": "da_z"}, criterion="DA-z")
    assert len(raw) == len(z) == 9832
    assert len({a.translator for a in raw}) == 11  # 10 systems and HUMAN
    assert all(0 <= a.value <= 100 for a in raw)
    assert raw[0] == Assessment("AFRL", "DA-raw", 78.0, "seg", 1, None, "", 2)


# --- the checked-in sample ------------------------------------------------------------------


def test_sample_human_files() -> None:
    adequacy = read_nist_csv(SAMPLE / "human" / "adequacy.csv", "adequacy")
    da = read_table(SAMPLE / "human" / "da.tsv",
                    {"system": "system", "seg_id": "seg_id", "judge": "judge", "score": "da_raw"},
                    criterion="DA-raw")
    translators = {"sysA", "sysB", "sysC", "sysD", "ref-B"}
    for found in (adequacy, da):
        assert len(found) == 120  # 5 translators x 12 segments x 2 judges
        assert Counter(a.translator for a in found) == dict.fromkeys(translators, 24)
        assert {a.judge for a in found} == {"J1", "J2"}
    assert {a.doc_id for a in adequacy} == {"madrid-metro", "granada-beetle", "prado-goya"}
    assert {a.seg_id for a in adequacy} == {1, 2, 3, 4}
    assert {a.seg_id for a in da} == set(range(1, 13))
    assert all(1 <= a.value <= 5 for a in adequacy) and all(0 <= a.value <= 100 for a in da)

    def mean(found: list[Assessment], name: str) -> float:
        values = [a.value for a in found if a.translator == name]
        return sum(values) / len(values)

    for found in (adequacy, da):
        means = [mean(found, name) for name in ("sysA", "sysB", "sysC", "sysD")]
        assert means == sorted(means, reverse=True)
