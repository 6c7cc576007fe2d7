"""DR and DR_doc: Asiya 3.0's scorer on Boxer's flat XML (../shared/golden/dr_boxer, numbers
printed by Asiya's IQ/Scoring/DR.pm), the boxer-xml importer, and hand-computed cases."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ulcdb.annotation.model import FAILED, OK, Analysis
from ulcdb.cli.main import app
from ulcdb.errors import InputError
from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.dr.boxer import read_boxer_xml
from ulcdb.metrics.dr.drs import Cond, FlatDrs
from ulcdb.metrics.dr.family import DrDocFamily, DrFamily
from ulcdb.metrics.dr.scoring import dr_scores, features

LC = Params(lowercase=True)


def asiya_name(name: str) -> str:
    """Asiya's ``DR-Or(pred)`` is ulcdb's ``DR-Or-pred``."""
    return name.replace("(", "-").replace(")", "")


def expected(path: Path) -> dict[str, float]:
    rows = (line.split("\t") for line in path.read_text().splitlines() if line.strip())
    return {asiya_name(m): float(v) for _, m, v in rows}


@pytest.fixture
def golden(shared: Path) -> Path:
    path = shared / "golden" / "dr_boxer"
    if not (path / "ref.xml").is_file():
        pytest.skip(f"no DR golden data at {path}")
    return path


def boxer(path: Path) -> Analysis:
    (b,) = read_boxer_xml(path)
    return Analysis(status=OK, drs=b.drs.to_json())


# -- Asiya's numbers on Boxer output ------------------------------------------------------------
def test_scorer_matches_asiya_on_every_man_likes_mary(golden: Path) -> None:
    want = expected(golden / "expected_seg1.tsv")
    res = DrFamily().compute([boxer(golden / "out.xml")], [[boxer(golden / "ref.xml")]],
                             Documents(("d1",)), LC)
    checked = [n for n in want if n in res]
    # Every STM, Or and Orp value Asiya prints (not its Pr/Rr/Fr, Ol and OK extras).
    assert len(checked) == 36
    for name in checked:
        assert res[name].seg[0] == pytest.approx(want[name], abs=1e-8), name
    # Pooled, not averaged: Or(*) = 11/36, STM-4 = 23/31 (the README's hand check).
    assert res["DR-Or-*"].seg[0] == pytest.approx(float(Fraction(11, 36)), abs=1e-12)
    assert res["DR-STM-4"].seg[0] == pytest.approx(float(Fraction(23, 31)), abs=1e-12)


def test_parse_failure_is_null_and_left_out_of_the_system_score(golden: Path) -> None:
    want = expected(golden / "expected_parsefail.tsv")
    assert want["OK"] == 0  # Asiya: not OK, its Or/Orp 0 are left out of the system mean
    from ulcdb.annotation.boxer_import import boxer_analyses

    texts = lambda f: (golden / f).read_text().splitlines()  # noqa: E731
    hyps = boxer_analyses(golden / "out2.xml", texts("out2.txt"), "out")
    refs = boxer_analyses(golden / "ref2.xml", texts("ref2.txt"), "ref")
    assert [a.status for a in hyps] == [OK, FAILED] and [a.status for a in refs] == [OK, OK]
    seg1 = expected(golden / "expected_seg1.tsv")
    res = DrFamily().compute(hyps, [refs], Documents(("d1", "d1")), LC)
    for name in ("DR-Or-*", "DR-Orp-*", "DR-STM-4", "DR-Or-pred"):
        assert res[name].seg[1] is None  # NULL, never 0: x-b backs it off
        assert res[name].sys == pytest.approx(seg1[name], abs=1e-8)  # mean over OK segments
        assert res[name].doc["d1"] == pytest.approx(seg1[name], abs=1e-8)
    doc = DrDocFamily().compute(hyps, [refs], Documents(("d1", "d1")), LC)
    assert doc["DRdoc-Or-*"].seg == [None, None]  # no document DRSs from Boxer segment output


def test_identical_drs_scores_one_and_case_follows_params(golden: Path) -> None:
    ref = read_boxer_xml(golden / "ref.xml")[0].drs
    s = dr_scores(features(ref), features(ref))
    assert all(v == 1.0 for k, v in s.items() if k.endswith("-*") or "STM-" in k)
    upper = FlatDrs.from_json(ref.to_json())
    upper.words = {i: (w.upper(), p) for i, (w, p) in upper.words.items()}
    assert dr_scores(features(upper, True), features(ref, True))["DR-Or-*"] == 1.0
    assert dr_scores(features(upper), features(ref))["DR-Or-*"] < 1.0


def test_ordered_children_and_dates() -> None:
    """or/imp/whq number their children; timex credits its date; a DRS without l0 is not
    analysed."""
    drs = FlatDrs(words={"i1": ("today", "NN")}, refs={"x1": ["i1"]}, conds={
        "l0": Cond("drs", children=["l1"]), "l1": Cond("or", children=["l2", "l3"]),
        "l2": Cond("drs", children=["l4"]), "l3": Cond("drs"),
        "l4": Cond("timex", {"arg": "x1"}, indices=["i1"], date="20100101")})
    f = features(drs)
    assert f.paths[3] == {("drs", "or", "drs-1"): 1, ("drs", "or", "drs-2"): 1,
                          ("or", "drs-1", "timex"): 1}
    assert f.paths[4] == {("drs", "or", "drs-1", "timex"): 1}
    assert f.words["drs-1"] == {"today.a": 1, "today": 1, "20100101": 1}
    assert "drs-2" not in f.words and f.words["dr"] == {"today": 1}
    assert not FlatDrs(conds={"l1": Cond("drs")}).ok()


# -- the importer -------------------------------------------------------------------------------
@pytest.fixture
def store(tmp_path: Path, golden: Path):
    from ulcdb.formats.plain import read_plain
    from ulcdb.ingest.load import load_testbed
    from ulcdb.store.database import Store

    src = tmp_path / "src.txt"
    src.write_text("a\nb\n")
    (tmp_path / "docs.txt").write_text("doc1\ndoc2\n")
    data = read_plain("tb", src, {"ref": golden / "ref2.txt"}, {"out": golden / "out2.txt"},
                      tmp_path / "docs.txt")
    st = Store(tmp_path / "t.duckdb")
    load_testbed(st, data)
    st.close()
    return tmp_path / "t.duckdb"


def test_cli_import_and_score_boxer(store: Path, golden: Path) -> None:
    runner = CliRunner()
    for who, f in (("ref", "ref2.xml"), ("out", "out2.xml")):
        res = runner.invoke(app, ["--db", str(store), "ingest", "annotations", str(golden / f),
                                  "--translator", who, "--format", "boxer-xml", "--tool",
                                  "boxer"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["--db", str(store), "score", "-m", "DR-Or-*,DR-STM-4", "--annotator",
                              "boxer", "--case", "lc", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    from ulcdb.store.database import Store

    with Store(store, read_only=True) as st:
        rows = dict(((m, lv, s), v) for m, lv, s, v in st.query(
            "select metric, level, seg_id, value from scores where translator = 'out' "
            "and refset = 'ref'"))
        sig = st.scalar("select signature from score_batch where family = 'DR'")
    seg1 = expected(golden / "expected_seg1.tsv")
    assert rows[("DR-Or-*", "seg", 1)] == pytest.approx(seg1["DR-Or-*"], abs=1e-8)
    # Analyses belong to texts: out's segment 2 is the text Boxer parsed as ref's segment 2
    # (the golden files' failure is hand-made), so it keeps that DRS (what fails is tested
    # above on the files alone).
    assert rows[("DR-Or-*", "seg", 2)] == 1.0
    assert rows[("DR-STM-4", "sys", None)] == pytest.approx((seg1["DR-STM-4"] + 1) / 2)
    assert "drs:boxer-xml" in sig and "ann:boxer" in sig


def test_cli_import_and_score_boxer_documents(store: Path, golden: Path) -> None:
    """Boxer run on <META>-separated documents: one <xfdrs> per document (here documents of
    one segment each, so the golden numbers apply to DR_doc); its DRS is scored by DRdoc."""
    runner = CliRunner()
    for who, f in (("ref", "ref2.xml"), ("out", "out.xml")):
        res = runner.invoke(app, ["--db", str(store), "ingest", "annotations", str(golden / f),
                                  "--translator", who, "--format", "boxer-xml-doc", "--tool",
                                  "boxer"])
        assert res.exit_code == 0, res.output
        assert "document drs" in res.output
    res = runner.invoke(app, ["--db", str(store), "score", "-m", "DRdoc-Or-*,DR-Or-*",
                              "--annotator", "boxer", "--case", "lc", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    from ulcdb.store.database import Store

    with Store(store, read_only=True) as st:
        rows = dict(((m, lv, s), v) for m, lv, s, v in st.query(
            "select metric, level, seg_id, value from scores where translator = 'out' "
            "and refset = 'ref'"))
    seg1 = expected(golden / "expected_seg1.tsv")
    assert rows[("DRdoc-Or-*", "seg", 1)] == pytest.approx(seg1["DR-Or-*"], abs=1e-8)
    # out.xml has no d2, but ref's document 2 is the same text, which Boxer parsed.
    assert rows[("DRdoc-Or-*", "seg", 2)] == 1.0
    assert rows[("DRdoc-Or-*", "sys", None)] == pytest.approx((seg1["DR-Or-*"] + 1) / 2)
    # No segment DRSs were imported: DR is NULL on this annotation.
    assert rows[("DR-Or-*", "seg", 1)] is None


@pytest.mark.parametrize("text, line, problem", [
    ('<xfdrs-output>\n<xfdrs xml:id="d1">\n<cons>\n</xfdrs>\n</xfdrs-output>\n', 4,
     "malformed XML"),
    ('<xfdrs-output>\n<xfdrs xml:id="d1">\n<cons>\n<pred arg="x1"/>\n</cons>\n</xfdrs>\n'
     '</xfdrs-output>\n', 4, "without label"),
    ('<xfdrs-output>\n<xfdrs xml:id="d2"/>\n<xfdrs xml:id="d1"/>\n</xfdrs-output>\n', 3,
     "out of order"),
    ('<xfdrs-output>\n<xfdrs xml:id="d3"/>\n</xfdrs-output>\n', 2, "only 2 segments"),
    ('<xfdrs-output>\n<xfdrs xml:id="d1"><words><word xml:id="i1">Hello</word></words>'
     '</xfdrs>\n</xfdrs-output>\n', 2, "do not spell"),
])
def test_bad_boxer_files_refused_with_line(store: Path, tmp_path: Path, text: str, line: int,
                                           problem: str) -> None:
    from ulcdb.annotation.importers import import_annotations
    from ulcdb.store.database import Store

    bad = tmp_path / "bad.xml"
    bad.write_text(text)
    with Store(store) as st:
        before = st.scalar("select count(*) from annotated_text")
        with pytest.raises(InputError) as exc:
            import_annotations(st, bad, "tb", "out", "boxer-xml", tool="boxer")
        assert st.scalar("select count(*) from annotated_text") == before
    assert exc.value.line == line and problem in exc.value.message
    res = CliRunner().invoke(app, ["--db", str(store), "ingest", "annotations", str(bad),
                                   "--translator", "out", "--format", "boxer-xml"])
    assert res.exit_code != 0 and f"bad.xml:{line}:" in res.output.replace("\n", "")
