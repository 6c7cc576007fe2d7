"""Score interchange: every export format read back identically, every bad input refused with
its file and line and the store untouched, Asiya's own IQ-XML files, and WMT20's release."""

from __future__ import annotations

import csv
import gzip
import shutil
from pathlib import Path

import pytest
from cli_helpers import copy_store
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.ingest.model import Assessment, Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.interchange.load import load_scores
from ulcdb.interchange.model import MetricInfo, ScoreFrame, ScoreSet, Source
from ulcdb.store.database import Store

runner = CliRunner()
DOCS = {"d1": 3, "d-2": 2}  # document -> segments
REFS = ("ref-A", "ref-B", "ref-C")
SYSTEMS = ("S1", "S_2")
STATE = ("testbed", "document", "segment", "translator", "translation", "assessment",
         "named_set", "named_set_member", "metric", "refset", "refset_member", "score_batch",
         "seg_score", "doc_score", "sys_score")
# awkward numbers: thirds, tiny, huge, negative zero's neighbours, many digits
VALUES = (1 / 3, 2 / 3, 1e-7, 0.1 + 0.2, 123456.789012345, -0.5, 0.8523, 5e-324, 0.0, 7.25)


# --- a tiny test bed with scores of every kind --------------------------------------------------


def tiny_data(name: str = "tiny") -> TestbedData:
    docs = [Document(d) for d in DOCS]
    segs, n = [], 0
    for doc, count in DOCS.items():
        for k in range(1, count + 1):
            n += 1
            segs.append(SourceSegment(n, doc, k, f"source {n}"))
    texts = [TranslatorText(t, "reference" if t in REFS else "system",
                            [f"{t} says {i}" for i in range(1, n + 1)]) for t in (*REFS, *SYSTEMS)]
    return TestbedData(name, "en", "de", documents=docs, segments=segs, translators=texts)


def pairs() -> list[tuple[str, tuple[str, ...]]]:
    """System vs one and two references, reference vs reference, system vs system."""
    return [("S1", ("ref-A",)), ("S_2", ("ref-A",)), ("S1", ("ref-A", "ref-B")),
            ("S_2", ("ref-A", "ref-B")), ("ref-B", ("ref-A",)), ("ref-A", ("ref-B", "ref-C")),
            ("S1", ("S_2",))]


def score_frame(metric: str, shift: float) -> ScoreFrame:
    sets, k = [], 0
    n_segs = sum(DOCS.values())
    for target, refs in pairs():
        seg, doc, sys = (ScoreSet(metric, target, refs, lvl) for lvl in ("seg", "doc", "sys"))
        for s in range(1, n_segs + 1):
            seg.add(VALUES[k % len(VALUES)] + shift, seg=s)
            k += 1
        for d in DOCS:
            doc.add(VALUES[k % len(VALUES)] * 3 + shift, doc_id=d)
            k += 1
        sys.add(VALUES[k % len(VALUES)] / 7 + shift)
        k += 1
        sets += [seg, doc, sys]
    return ScoreFrame.from_sets(sets, Source("built-in-test", "test"), "tiny")


def empty_store(path: Path, data: TestbedData | None = None) -> Path:
    with Store(path) as store:
        load_testbed(store, data or tiny_data())
    return path


def full_store(path: Path) -> Path:
    empty_store(path)
    with Store(path) as store:
        load_scores(store, score_frame("COMET", 0.0), flags=MetricInfo(
            "", higher_is_better=True, description="a learned metric"))
        load_scores(store, score_frame("TER.x", 1.0), flags=MetricInfo(
            "", higher_is_better=False, range_min=-10.0, description="an error rate"))
        human = [Assessment(t, "DA-z", 0.25 * i, "seg", i) for t in SYSTEMS for i in range(1, 6)]
        human += [Assessment(t, "DA-z", 0.5, "doc", None, d) for t in SYSTEMS for d in DOCS]
        human += [Assessment(t, "DA-z", 0.75, "sys") for t in SYSTEMS]
        load_assessments(store, "tiny", human, Path("human.tsv"))
    return path


@pytest.fixture(scope="module")
def source_db(tmp_path_factory) -> Path:
    return full_store(tmp_path_factory.mktemp("src") / "src.duckdb")


def ulcdb(db: Path, *args) -> object:
    return runner.invoke(app, ["--db", str(db), *map(str, args)], terminal_width=200)


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def scores(db: Path, levels=("seg", "doc", "sys"), metrics=("COMET", "TER.x")) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query(
            "select testbed, metric, translator, refset, variant, level, doc_id, seg_id, value "
            "from scores where list_contains(?, level) and list_contains(?, metric) "
            "order by all", [list(levels), list(metrics)])


def catalogue(db: Path) -> list[tuple]:
    with Store(db, read_only=True) as store:
        return store.query("select name, higher_is_better, range_min, range_max, origin "
                           "from metric order by name")


def fingerprint(db: Path) -> dict[str, tuple]:
    with Store(db, read_only=True) as store:
        return {t: store.query(f"select count(*), sum(hash(t::varchar)) from {t} t")[0]
                for t in STATE}


# --- round trips --------------------------------------------------------------------------------


def test_source_store_has_every_kind_of_pair(source_db: Path) -> None:
    rows = scores(source_db)
    assert len(rows) == 2 * len(pairs()) * (5 + 2 + 1)
    kinds = {(r[2], r[3]) for r in rows}
    assert ("ref-A", "ref-B+ref-C") in kinds and ("S1", "S_2") in kinds


@pytest.mark.parametrize("layout, levels, extra", [
    ("iqmt", ("seg", "sys"), []),
    ("asiya", ("seg", "doc", "sys"), ["--gzip"]),
])
def test_iqxml_round_trip(source_db, tmp_path, layout, levels, extra) -> None:
    out = tmp_path / "iq"
    ok(ulcdb(source_db, "export", "iqxml", out, "--layout", layout, *extra))
    suffix = ".xml.gz" if extra else ".xml"
    assert (out / "S1" / "ref-A_ref-B" / f"COMET{suffix}").exists()
    assert (out / "ref-A" / "ref-B_ref-C" / f"TER.x{suffix}").exists()  # reference vs refs
    assert (out / "S1" / "S_2" / f"COMET{suffix}").exists()  # system vs system
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", out, "--format", "iqxml"))
    assert scores(db, levels) == scores(source_db, levels)


def test_iqxml_fixed_digits_as_asiya_writes(source_db, tmp_path) -> None:
    out = tmp_path / "iq"
    ok(ulcdb(source_db, "export", "iqxml", out, "--layout", "asiya", "--digits", "8", "-m",
             "COMET"))
    text = (out / "S1" / "ref-A" / "COMET.xml").read_text()
    assert '<S n="1">0.33333333</S>' in text and 'n_docs="2" n_segments="5"' in text


def test_mtme_round_trip_with_human_scores(source_db, tmp_path) -> None:
    out = tmp_path / "wmt99"
    ok(ulcdb(source_db, "export", "mtme", out))
    assert (out / "metric-scores" / "en-de" / "COMET-refA.refB.seg.score").exists()
    assert (out / "human-scores" / "en-de.DA-z.doc.score").exists()
    assert (out / "references" / "en-de.refA.txt").exists()
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", out, "--lp", "en-de"))
    assert scores(db) == scores(source_db)
    with Store(db, read_only=True) as new, Store(source_db, read_only=True) as old:
        sql = "select * exclude (origin) from assessments order by all"
        assert new.query(sql) == old.query(sql)


def evalset_scores(root: Path, lp: str) -> dict[tuple[str, str], dict[str, list]]:
    """What mt-metrics-eval's data.EvalSet reads from ``root`` (its parsing rules, restated:
    NAME-REF.LEVEL.score split with rsplit, refs joined by '.', no '-' in reference names,
    every system's list as long as the level's units, no None in metric scores)."""
    src = (root / "sources" / f"{lp}.txt").read_text().splitlines()
    docs = [ln.split()[1] for ln in (root / "documents" / f"{lp}.docs").read_text().splitlines()]
    refs = {p.name.split(".")[-2] for p in (root / "references").glob(f"{lp}.*.txt")}
    systems = {p.name[: -len(".txt")] for p in (root / "system-outputs" / lp).glob("*.txt")}
    assert all("-" not in r for r in refs) and refs <= systems
    expected = {"sys": 1, "doc": len(dict.fromkeys(docs)), "seg": len(src)}
    out = {}
    for path in (root / "metric-scores" / lp).glob("*.score"):
        name, level, exten = path.name.rsplit(".", maxsplit=2)
        basename, used = name.rsplit("-", maxsplit=1)
        assert exten == "score" and set(used.split(".")) <= refs
        scores: dict[str, list] = {}
        for line in path.read_text().splitlines():
            system, score = line.split()
            scores.setdefault(system, []).append(float(score) if score != "None" else None)
        assert set(scores) <= systems
        assert all(len(v) == expected[level] and None not in v for v in scores.values())
        out[basename, used, level] = scores
    return out


def test_mtme_layout_reads_as_a_test_bed(source_db, tmp_path) -> None:
    """mt-metrics-eval's own layout, as its data.py reads it (here: ulcdb's mtme reader)."""
    out = tmp_path / "wmt99"
    ok(ulcdb(source_db, "export", "mtme", out, "-m", "COMET"))
    read = evalset_scores(out, "en-de")
    stored = {r[7]: r[8] for r in scores(source_db, ("seg",), ("COMET",))
              if r[2] == "S_2" and r[3] == "ref-A+ref-B"}
    assert read["COMET", "refA.refB", "seg"]["S_2"] == [stored[i] for i in range(1, 6)]
    assert ("COMET", "refB.refC", "sys") in read  # a reference scored against the others
    db = tmp_path / "mtme.duckdb"
    ok(ulcdb(db, "ingest", "testbed", out, "--lp", "en-de", "--name", "tiny"))
    ok(ulcdb(db, "ingest", "scores", out, "--lp", "en-de"))
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from translator where role = 'reference'") == 3
        assert store.scalar("select count(*) from scores where refset = 'refA+refB'") == 16


def test_wmt_round_trip_all_levels(source_db, tmp_path) -> None:
    out = tmp_path / "wmt"
    ok(ulcdb(source_db, "export", "wmt", out, "--gzip"))
    first = gzip.decompress((out / "COMET.seg.tsv.gz").read_bytes()).decode().splitlines()[0]
    assert first.split("\t")[:3] == ["COMET", "en-de", "tiny"]
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", out, "--format", "wmt"))
    assert scores(db) == scores(source_db)


def test_wmt_round_trip_into_scores_only_test_bed(source_db, tmp_path) -> None:
    out = tmp_path / "wmt"
    ok(ulcdb(source_db, "export", "wmt", out, "--refset-name", "ref-A=newstest2020",
             "--target", "S1", "--target", "S_2", "--refset", "ref-A", "--refset", "ref-A+ref-B"))
    details = tmp_path / "en-de.txt"
    with Store(source_db, read_only=True) as store:
        rows = store.query("select seg_id, doc_id, seg_in_doc from segment order by seg_id")
    details.write_text("".join(f"{s}\ttiny\ten-de\t{d}\t{k}\n" for s, d, k in rows))
    db = tmp_path / "new.duckdb"
    out_text = ok(ulcdb(db, "ingest", "scores", out, "--format", "wmt", "--create-testbed",
                        "--details", details))
    assert "tiny:en-de: added 4 translators" in out_text
    systems = [r for r in scores(source_db) if r[2] in ("S1", "S_2") and r[3] != "S_2"]
    assert [r[1:] for r in scores(db)] == [r[1:] for r in systems]
    with Store(db, read_only=True) as store:
        assert store.query("select name from testbed") == [("tiny:en-de",)]
        assert store.scalar("select count(*) from translation") == 0
        assert store.query("select name, role from translator order by 1") == [
            ("S1", "system"), ("S_2", "system"), ("ref-A", "reference"), ("ref-B", "reference")]


def test_nist_round_trip(source_db, tmp_path) -> None:
    out = tmp_path / "scr"
    ok(ulcdb(source_db, "export", "nist", out))
    assert (out / "ref-A+ref-B" / "COMET-seg.scr").exists()
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", out))
    assert scores(db) == scores(source_db)


def test_comet_round_trip(source_db, tmp_path) -> None:
    out = tmp_path / "comet"
    ok(ulcdb(source_db, "export", "comet", out, "-m", "COMET"))
    db = empty_store(tmp_path / "new.duckdb")
    for path in sorted(out.glob("COMET.*.txt")):
        refs = [a for r in path.name.split(".")[1].split("+") for a in ("--ref", r)]
        ok(ulcdb(db, "ingest", "scores", path, "--format", "comet", "--metric", "COMET", *refs))
    assert scores(db, ("seg", "sys")) == scores(source_db, ("seg", "sys"), ("COMET",))


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".json"])
def test_table_round_trip_of_the_scores_view(source_db, tmp_path, suffix) -> None:
    out = tmp_path / f"scores{suffix}"
    assert f"wrote {len(scores(source_db))} rows" in ok(
        ulcdb(source_db, "export", "table", "scores", out))
    db = empty_store(tmp_path / "new.duckdb")
    ok(ulcdb(db, "ingest", "scores", out, "--format", "table"))
    assert scores(db) == scores(source_db)


def test_export_table_of_a_query_and_unknown_names(source_db, tmp_path) -> None:
    out = tmp_path / "q.csv"
    ok(ulcdb(source_db, "export", "table", "-q", "select name from metric order by 1", out))
    assert out.read_text().splitlines() == ["name", "COMET", "TER.x"]
    result = ulcdb(source_db, "export", "table", "no_such_table", out)
    assert result.exit_code == 1 and "no table or view named 'no_such_table'" in result.output


def test_catalogue_entries_from_flags(source_db) -> None:
    assert catalogue(source_db) == [("COMET", True, None, None, "imported"),
                                    ("TER.x", False, -10.0, None, "imported")]


def test_imported_metrics_take_part_in_ulc(source_db) -> None:
    with Store(source_db, read_only=True) as store:
        rows = store.query("select translator, ulc, n_metrics from ulc(['COMET', 'TER.x'], "
                           "'sys') where refset = 'ref-A' and role = 'system' order by 1")
    assert [r[0] for r in rows] == ["S1", "S_2"] and all(r[2] == 2 for r in rows)


def test_imported_metric_in_qarla_and_meta_evaluation(tmp_path) -> None:
    """An imported lower-is-better metric: QUEEN uses it, meta-evaluation orients it."""
    from ulcdb.meta import MetaTask, evaluate
    from ulcdb.qarla.measures import queen_values

    systems = ("S1", "S_2", "S3", "S4")
    data = tiny_data("q")
    n = len(data.segments)
    data.translators += [TranslatorText(s, "system", ["x"] * n) for s in systems[2:]]
    db = empty_store(tmp_path / "q.duckdb", data)
    sets = []
    for i, target in enumerate((*systems, *REFS)):
        for ref in REFS:
            if ref == target:
                continue
            seg, sys = ScoreSet("MINE", target, (ref,), "seg"), ScoreSet("MINE", target, (ref,),
                                                                         "sys")
            for k in range(1, n + 1):
                seg.add(10.0 - i + k / 10, seg=k)
            sys.add(10.0 - i)
            sets += [seg, sys]
    with Store(db) as store:
        load_scores(store, ScoreFrame.from_sets(sets, Source("mine", "test"), "q"),
                    flags=MetricInfo("", higher_is_better=False))
        load_assessments(store, "q", [Assessment(s, "DA-z", float(i), "sys")
                                      for i, s in enumerate(systems)], Path("da.tsv"))
        queen = queen_values(store, "q", "sys", ["MINE"], list(systems), list(REFS),
                             "case:mixed")
        assert len(queen) == len(systems) and all(0 <= v <= 1 for v in queen.values())
        report = evaluate(store, MetaTask("q", "sys", "DA-z", "ref-A", metrics=("MINE",),
                                          coefficients=("pearson",), n_resamples=0))
    assert report.value("MINE", "case:mixed", "pearson") == pytest.approx(1.0)


# --- single formats read from hand-written files ------------------------------------------------


@pytest.fixture(scope="module")
def empty_db(tmp_path_factory) -> Path:
    return empty_store(tmp_path_factory.mktemp("empty") / "store.duckdb")


@pytest.fixture
def db(empty_db: Path, tmp_path: Path) -> Path:
    """The tiny test bed without scores (built once per module): a copy for each test."""
    return copy_store(empty_db, tmp_path, "store.duckdb")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_iqmt_manual_layout_with_multi_reference_folder(db, tmp_path) -> None:
    write(tmp_path / "iq" / "S1" / "ref-A_ref-B" / "NEWMETRIC.xml",
          '<IQ metric="NEWMETRIC" ref="ref-A_ref-B" score="0.3945" target="S1">\n'
          + "".join(f'  <S n="{i}">0.{i}</S>\n' for i in range(1, 6)) + "</IQ>\n")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "iq", "--description", "mine"))
    with Store(db, read_only=True) as store:
        assert store.query("select refset, level, count(*) from scores group by all order by "
                           "all") == [("ref-A+ref-B", "seg", 5), ("ref-A+ref-B", "sys", 1)]
        assert store.scalar("select description from metric") == "mine"


def test_comet_json_and_old_text_output(db, tmp_path) -> None:
    write(tmp_path / "c.json", '{"systems/S1.de.txt": [' + ", ".join(
        f'{{"src": "x", "mt": "y", "ref": "z", "COMET": 0.{i}}}' for i in range(5)) + "]}")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "c.json", "--ref", "ref-A"))
    write(tmp_path / "old.txt", "".join(f"Segment {i}\tscore: 0.{i}\n" for i in range(5))
          + "System score: 0.5\n")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "old.txt", "--format", "comet", "--target",
             "S_2", "--ref", "ref-A", "--metric", "COMET"))
    with Store(db, read_only=True) as store:
        assert store.query("select translator, level, count(*) from scores group by all "
                           "order by all") == [("S1", "seg", 5), ("S_2", "seg", 5),
                                                ("S_2", "sys", 1)]


def test_sacrebleu_json_and_sentence_level(db, tmp_path) -> None:
    write(tmp_path / "s.json", '[{"name": "BLEU", "score": 34.2, "signature": '
          '"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"}, {"name": "TER", '
          '"score": 51.1, "signature": "nrefs:1|case:lc|tok:tercom|version:2.6.0"}]')
    ok(ulcdb(db, "ingest", "scores", tmp_path / "s.json", "--target", "S1", "--ref", "ref-A",
             "--rename", "BLEU=sacreBLEU"))  # sacrebleu's name and 0-100 scale
    # without --rename: ulcdb's own BLEU (its signature's settings) on the 0-1 scale (issue 25)
    ok(ulcdb(db, "ingest", "scores", tmp_path / "s.json", "--target", "S1", "--ref", "ref-A"))
    assert {r[1]: r[-1] for r in scores(db, metrics=("BLEU", "sacreBLEU"))} == \
        {"BLEU": 0.342, "sacreBLEU": 34.2}
    write(tmp_path / "sl.txt", "".join(
        f"chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = {i}.5\n"
        for i in range(5)))
    ok(ulcdb(db, "ingest", "scores", tmp_path / "sl.txt", "--target", "S1", "--ref", "ref-A"))
    with Store(db, read_only=True) as store:
        assert dict(store.query("select name, higher_is_better from metric where origin = "
                                "'imported'")) == {"sacreBLEU": True, "TER": False,
                                                   "chrF2": True}
        assert store.scalar("select signature from score_batch where origin like '%s.json'") \
            .startswith("BLEU|nrefs:1")


def test_one_score_per_line(db, tmp_path) -> None:
    write(tmp_path / "bleurt.txt", "0.1\n0.2\nNone\n0.4\n0.5\n")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "bleurt.txt", "--format", "lines", "-m",
             "BLEURT", "--target", "S1", "--ref", "ref-A"))
    assert len(scores(db, metrics=("BLEURT",))) == 4


UNITS = [(d, k) for d, count in DOCS.items() for k in range(1, count + 1)]  # test-bed order


def test_wmt_file_with_blank_lines_and_crlf(db, tmp_path) -> None:
    lines = [f"M\ten-de\ttiny\tref-A\tS1\t{d}\t{k}\t0.{n}"
             for n, (d, k) in enumerate(UNITS, start=1)]
    write(tmp_path / "M.seg.tsv", "\r\n".join(lines[:2]) + "\r\n\r\n" + "\r\n".join(lines[2:])
          + "\r\n")
    ok(ulcdb(db, "ingest", "scores", tmp_path / "M.seg.tsv", "--format", "wmt"))
    assert {r[7]: r[8] for r in scores(db, metrics=("M",))} == {1: 0.1, 2: 0.2, 3: 0.3,
                                                                 4: 0.4, 5: 0.5}


def test_replace(db, tmp_path) -> None:
    path = write(tmp_path / "M.sys.tsv", "M\ten-de\ttiny\tref-A\tS1\t0.5\n")
    ok(ulcdb(db, "ingest", "scores", path))
    write(path, "M\ten-de\ttiny\tref-A\tS1\t0.7\n")
    result = ulcdb(db, "ingest", "scores", path)
    assert result.exit_code == 1 and "use --replace" in result.output
    assert "replaced 1 earlier scores" in ok(ulcdb(db, "ingest", "scores", path, "--replace"))
    assert [r[-1] for r in scores(db, metrics=("M",))] == [0.7]


# --- bad input: one line naming file and line, nothing written ----------------------------------

WMT_SEG = "M\ten-de\ttiny\tref-A\tS1\td1\t{seg}\t{score}\n"


def _wmt(rows: list[str]) -> str:
    return "".join(rows)


BAD_INPUTS = {
    "unknown system": ("M.sys.tsv", "M\ten-de\ttiny\tref-A\tS1\t0.5\nM\ten-de\ttiny\tref-A\t"
                       "S9\t0.5\n", 2, "unknown system or reference 'S9'"),
    "unknown reference": ("M.sys.tsv", "M\ten-de\ttiny\tref-Z\tS1\t0.5\n", 1,
                          "unknown reference 'ref-Z'"),
    "unknown segment": ("M.seg.tsv", _wmt([WMT_SEG.format(seg=1, score=0.1),
                                          WMT_SEG.format(seg=4, score=0.1)]), 2,
                        "document 'd1' has no segment 4"),
    "unknown document": ("M.doc.tsv", "M\ten-de\ttiny\tref-A\tS1\td1\t0.1\n"
                         "M\ten-de\ttiny\tref-A\tS1\td9\t0.1\n", 2, "unknown document 'd9'"),
    "NaN": ("M.seg.tsv", _wmt([WMT_SEG.format(seg=1, score=0.1),
                               WMT_SEG.format(seg=2, score="nan")]), 2, "NaN"),
    "not a number": ("M.seg.tsv", _wmt([WMT_SEG.format(seg=1, score="0.1"),
                                        WMT_SEG.format(seg=2, score="abc")]), 2,
                     "score 'abc' is not a number"),
    "duplicate row": ("M.seg.tsv", _wmt([WMT_SEG.format(seg=1, score=0.1),
                                         WMT_SEG.format(seg=2, score=0.2),
                                         WMT_SEG.format(seg=1, score=0.3)]), 3,
                      "duplicate score (first at line 1)"),
    "column count": ("M.seg.tsv", WMT_SEG.format(seg=1, score=0.1) + "M\ten-de\ttiny\tref-A\t"
                     "S1\td1\t0.2\n", 2, "expected 8 tab-separated columns"),
    "unknown test bed": ("M.sys.tsv", "M\ten-de\tother\tref-A\tS1\t0.5\n", 1,
                         "no test bed for other en-de"),
    "mtme count mismatch": ("COMET-refA.seg.score", "S1 0.1\nS1 0.2\nS1 0.3\nS1 0.4\n", 1,
                            "has 4 lines, the test bed has 5 segments"),
    "mtme unknown system": ("COMET-refA.sys.score", "S1 0.1\nS7 0.2\n", 2,
                            "unknown system or reference 'S7'"),
    "mtme NaN": ("COMET-refA.sys.score", "S1 NaN\n", 1, "NaN or infinite"),
    "mtme duplicate": ("COMET-refA.sys.score", "S1 0.1\nS1 0.2\n", 1, "has 2 lines"),
    "scr without refs": ("X-sys.scr", "tiny\tS1\t0.5\n", None, "do not name their references"),
    "scr bad segment": ("ref-A/X-seg.scr", "tiny\tS1\td-2\t1\t0.5\ntiny\tS1\td-2\t3\t0.5\n", 2,
                        "document 'd-2' has no segment 3"),
    "comet bad line": ("c.txt", "S1\tSegment 0\tscore: 0.5\nhello\n", 2,
                       "not a COMET output line", "--ref", "ref-A"),
    "comet unknown system": ("c.txt", "S1\tSegment 0\tscore: 0.5\nS8\tscore: 0.5\n", 2,
                             "'S8' names no system or reference", "--ref", "ref-A"),
    "lines count mismatch": ("b.txt", "0.1\n0.2\n", 2, "2 lines, the test bed has 5 segments",
                             "--format", "lines", "-m", "B", "--target", "S1", "--ref", "ref-A"),
    "iqxml count mismatch": ("iq/S1/ref-A/X.xml", '<REPORT hyp="S1" metric="X" n_docs="1" '
                             'n_segments="2" ref="ref-A" score="1">\n<DOC id="d1" '
                             'n_segments="2">\n<S n="1">0.1</S>\n</DOC>\n</REPORT>\n', 2,
                             "n_segments='2' but the file has 1 <S> in document 'd1'"),
    "iqxml segment in another document": (
        "iq/S1/ref-A/X.xml", '<REPORT hyp="S1" metric="X" ref="ref-A">\n<DOC id="d-2">\n'
        '<S n="1">0.1</S>\n</DOC>\n</REPORT>\n', 3,
        "segment 1 is in document 'd1' in the test bed, not in 'd-2'"),
    "iqxml folder disagrees": ("iq/S1/ref-B/X.xml", '<IQ metric="X" ref="ref-A" target="S1">'
                               '<S n="1">0.1</S></IQ>', 1, "is not its folder's 'ref-B'"),
    "iqxml infinite": ("X.xml", '<IQ metric="X" ref="ref-A" target="S1">\n<S n="1">inf</S>'
                       "</IQ>", 2, "NaN or infinite"),
    "iqxml segment out of range": ("X.xml", '<IQ metric="X" ref="ref-A" target="S1">\n'
                                   '<S n="6">0.1</S></IQ>', 2,
                                   "segment 6 does not exist (test bed has 1..5)"),
    "table duplicate": ("t.csv", "translator,refset,metric,seg_id,value\nS1,ref-A,X,1,0.1\n"
                        "S1,ref-A,X,1,0.1\n", 3, "duplicate score (first at line 2)"),
    "table not a number": ("t.csv", "translator,refset,metric,seg_id,value\nS1,ref-A,X,1,oops\n",
                           2, "score 'oops' is not a number"),
}


@pytest.mark.parametrize("case", BAD_INPUTS, ids=list(BAD_INPUTS))
def test_bad_input_names_file_and_line_and_writes_nothing(db, tmp_path, case) -> None:
    name, text, line, message, *args = BAD_INPUTS[case]
    path = write(tmp_path / "in" / name, text)
    arg = tmp_path / "in" / "iq" if name.startswith("iq/") else path
    before = fingerprint(db)
    result = ulcdb(db, "ingest", "scores", arg, *args)
    assert result.exit_code == 1, result.output
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in result.output and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert fingerprint(db) == before


def test_later_file_failing_leaves_earlier_files_unwritten(db, tmp_path) -> None:
    good = write(tmp_path / "a" / "M.sys.tsv", "M\ten-de\ttiny\tref-A\tS1\t0.5\n")
    bad = write(tmp_path / "b" / "M.doc.tsv", "M\ten-de\ttiny\tref-A\tS1\td7\t0.5\n")
    before = fingerprint(db)
    result = ulcdb(db, "ingest", "scores", good, bad, "--format", "wmt")
    assert result.exit_code == 1 and f"{bad}:1: unknown document 'd7'" in result.output
    assert fingerprint(db) == before


def test_gzipped_wmt_file(db, tmp_path) -> None:
    path = tmp_path / "M.seg.tsv.gz"
    path.write_bytes(gzip.compress("".join(
        f"M\ten-de\ttiny\tref-A\tS1\t{d}\t{k}\t{k / 10}\n" for d, k in UNITS).encode()))
    ok(ulcdb(db, "ingest", "scores", path))
    assert len(scores(db, metrics=("M",))) == 5


def test_direction_conflicting_with_catalogue(db, tmp_path) -> None:
    path = write(tmp_path / "M.sys.tsv", "M\ten-de\ttiny\tref-A\tS1\t0.5\n")
    ok(ulcdb(db, "ingest", "scores", path))
    path2 = write(tmp_path / "M2.sys.tsv", "M\ten-de\ttiny\tref-A\tS_2\t0.5\n")
    result = ulcdb(db, "ingest", "scores", path2, "--lower-is-better")
    assert result.exit_code == 1 and "higher is better" in result.output


# --- real data --------------------------------------------------------------------------------


ASIYA_TARGETS = ("UEdin", "Online-W", "ref-A")


def test_asiya_golden_iqxml(shared: Path, tmp_path: Path) -> None:
    """Asiya's own IQ-XML files for three targets (all their reference folders) against the
    values Asiya printed (asiya_similarities.tsv)."""
    golden = shared / "golden" / "ende_sample"
    sample = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not (golden / "iqxml").is_dir() or not sample.is_dir():
        pytest.skip("golden en-de sample not in shared data")
    tree = tmp_path / "scores"
    for target in ASIYA_TARGETS:
        shutil.copytree(golden / "iqxml" / "scores" / target, tree / target)
    db = tmp_path / "asiya.duckdb"
    args = ["ingest", "testbed", "--name", "ende", "--source", sample / "source.en.txt",
            "--docs", sample / "docs.tsv"]
    args += [a for r in "ACD" for a in ("--ref", f"ref-{r}={sample / 'refs' / f'ref-{r}.de.txt'}")]
    args += [a for s in ASIYA_TARGETS[:2]
             for a in ("--sys", f"{s}={sample / 'systems' / f'{s}.de.txt'}")]
    ok(ulcdb(db, *args))
    ok(ulcdb(db, "ingest", "scores", tree))
    with Store(db, read_only=True) as store:
        got = {(r[0], r[1], r[2], r[3], r[4] or "", "" if r[5] is None else str(r[5])): r[6]
               for r in store.query("select metric, translator, refset, level, doc_id, seg_id, "
                                    "value from scores")}
    expected = {}
    with (golden / "asiya_similarities.tsv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["system"] in ASIYA_TARGETS:
                key = (row["metric"], row["system"], row["refset"], row["level"],
                       row["doc_id"], row["seg_id"])
                expected[key] = float(row["value"])
    assert len(expected) > 4000
    assert {k: got.get(k) for k in expected} == expected
    assert {m for m, *_ in got} == {"BLEU", "NIST", "-PER", "GTM-1", "GTM-2", "GTM-3", "Ol"}


def test_wmt20_one_language_pair(shared: Path, tmp_path: Path) -> None:
    root = shared / "testbeds" / "wmt20_metrics"
    if not (root / "input_details" / "de-en.txt").exists():
        pytest.skip("wmt20_metrics not in shared data")
    db = tmp_path / "wmt20.duckdb"
    out = ok(ulcdb(db, "ingest", "scores", root, "--lp", "de-en"))
    assert "newstest2020:de-en: segments 785, documents 118, translators 16" in out
    with Store(db, read_only=True) as store:
        counts = store.query("select level, count(*) from scores group by 1 order by 1")
        assert counts == [("doc", 109032), ("seg", 113040), ("sys", 982)]
        assert store.scalar("select count(*) from assessment") == 21628
        sets = dict(store.query(
            "select s.name, list(m.member order by m.member) from named_set s "
            "join named_set_member m using (set_id) group by 1"))
        assert sets["outliers"] == ["WMTBiomedBaseline.387", "yolo.1052", "zlabs-nlp.1153"]
        assert sets["human"] == ["Human-A.0", "Human-B.0"]
        assert store.query("select higher_is_better from metric where name = 'TER'") == [(True,)]
        assert store.scalar("select count(*) from metric where name = 'wmt20:BLEU'") == 1
        assert store.query(
            "select value from scores where metric = 'COMET' and translator = 'OPPO.1360' and "
            "refset = 'ref-A' and level = 'doc' and doc_id = 'salzburg.com.254713'") == \
            [(0.6348066926002502,)]
