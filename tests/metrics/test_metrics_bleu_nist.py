"""BLEU and NIST families against mteval-v13a's golden outputs and sacrebleu."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from golden import GoldenRow, Sample, golden_value, load_golden, load_sample

from ulcdb.metrics.base import Documents, LevelScores, Params
from ulcdb.metrics.bleu import BleuFamily, bleu_from_stats, mteval_bleu, sum_stats
from ulcdb.metrics.nist import (
    InformationWeights,
    NistFamily,
    length_penalty,
    mteval_nist,
    nist_from_stats,
)

PRINTED = 5e-5 + 1e-9  # mteval's %.4f lines
BLEU_REL = 1e-14  # the .scr files: Perl's 15 significant digits
NIST_REL = 1e-12  # plus Perl hash-order summation of the information weights
FAMILIES = {"BLEU": BleuFamily(), "NIST": NistFamily()}
EXPECTED_BLEU = ["BLEU", "BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3", "BLEUi-4"]
EXPECTED_NIST = [
    "NIST",
    "NIST-1",
    "NIST-2",
    "NIST-3",
    "NIST-4",
    "NIST-5",
    "NISTi-2",
    "NISTi-3",
    "NISTi-4",
    "NISTi-5",
]


def _target(row: GoldenRow) -> tuple[str, str, float, float] | None:
    """(family, our metric, rel tol, abs tol) of a golden mteval row; None past our orders."""
    if row.metric in ("BLEU", "NIST"):
        return row.metric, row.metric, BLEU_REL if row.metric == "BLEU" else NIST_REL, 0.0
    if row.metric in ("BLEU-printed", "NIST-printed"):
        family = row.metric.split("-")[0]
        return family, family, 0.0, PRINTED
    if row.metric == "individual-BLEU-1":  # not a metric of the family (= BLEU-1 in ULC)
        return "BLEU", row.metric, 0.0, PRINTED
    kind, family, order = row.metric.split("-")
    n = int(order)
    if n > (4 if family == "BLEU" else 5):
        return None
    # individual-NIST-1 equals cumulative-NIST-1 (both carry the length penalty).
    name = f"{family}-{n}" if kind == "cumulative" or n == 1 else f"{family}i-{n}"
    return family, name, 0.0, PRINTED


def _individual_bleu1(row: GoldenRow, scores: LevelScores) -> float:
    """mteval's individual BLEU-1 (no brevity penalty), which the family does not emit."""
    stats = scores.seg_stats or []
    chosen = sum_stats(stats) if row.level == "sys" else stats[int(row.seg_id) - 1]
    return mteval_bleu(chosen)[1][0]


def _check_golden(shared: Path, pair: str, family: str) -> int:
    sample = load_sample(shared, pair)
    rows = load_golden(shared / "golden" / f"{pair}_sample" / "mteval.tsv")
    cache: dict[tuple[str, str], dict[str, LevelScores]] = {}
    failures, checked = [], 0
    for row in rows:
        target = _target(row)
        if target is None or target[0] != family:
            continue
        _, name, rel, tol = target
        key = (row.system, row.refset)
        if key not in cache:
            cache[key] = FAMILIES[family].compute(
                sample.translator(row.system), sample.refset(row.refset), sample.docs, Params()
            )
        if name == "individual-BLEU-1":
            ours = _individual_bleu1(row, cache[key]["BLEU"])
        else:
            ours = golden_value(row, sample.docs, cache[key][name])
        checked += 1
        if not math.isclose(ours, float(row.value), rel_tol=rel, abs_tol=tol):
            failures.append((row, ours))
    assert not failures, f"{len(failures)} of {checked} differ, e.g. {failures[:3]}"
    return checked


# Rows per family with n <= 4 (BLEU) / 5 (NIST): .scr rows + printed doc lines + n-gram lines.
@pytest.mark.parametrize(
    ("pair", "family", "expected"),
    [
        ("ruen", "BLEU", 2190 + 240 + 8 * 1950),
        ("ruen", "NIST", 2190 + 240 + 10 * 1950),
        ("ende", "BLEU", 5120 + 8 * 80),
        ("ende", "NIST", 5120 + 10 * 80),
    ],
)
def test_every_golden_mteval_row(shared: Path, pair: str, family: str, expected: int) -> None:
    assert _check_golden(shared, pair, family) == expected


# --- sacrebleu on the full en-de test bed -----------------------------------------------

FULL = "testbeds/wmt21_newstest2021_ende"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _full_testbed(shared: Path, system: str, refset: str) -> tuple[list[str], list[list[str]]]:
    base = shared / FULL
    hyps = _lines(base / "systems" / f"{system}.de.txt")
    refs = [_lines(base / "refs" / f"ref-{k}.de.txt") for k in refset]
    return hyps, refs


def _mteval_corner(stats: list[float]) -> bool:
    """Segments where mteval's formula and sacrebleu's sentence BLEU part ways."""
    return stats[0] < 4 or stats[2] == 0


@pytest.mark.parametrize("system", ["HuaweiTSC", "ICL"])
@pytest.mark.parametrize("refset", ["A", "C", "D", "ACD"])
def test_full_testbed_equals_sacrebleu(shared: Path, system: str, refset: str) -> None:
    hyps, refs = _full_testbed(shared, system, refset)
    docs = Documents(tuple(["all"] * len(hyps)))
    bleu = BleuFamily().compute(hyps, refs, docs, Params())["BLEU"]
    assert bleu.sys == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score / 100, abs=1e-9)
    assert bleu.doc["all"] == bleu.sys
    stats = bleu.seg_stats or []
    corners = [i for i, row in enumerate(stats) if _mteval_corner(row)]
    assert len(corners) <= 3
    for i, hyp in enumerate(hyps):
        if i in corners:
            continue
        expected = sacrebleu.sentence_bleu(hyp, [ref[i] for ref in refs]).score / 100
        assert bleu.seg[i] == pytest.approx(expected, abs=1e-9), i


def test_mteval_corner_cases_on_full_testbed(shared: Path) -> None:
    """mteval, not sacrebleu's sentence_bleu, where they differ (HuaweiTSC vs ref-A)."""
    hyps, refs = _full_testbed(shared, "HuaweiTSC", "A")
    bleu = BleuFamily().compute(hyps, refs, Documents(tuple(["d"] * len(hyps))), Params())
    stats = bleu["BLEU"].seg_stats or []
    assert [i for i, row in enumerate(stats) if _mteval_corner(row)] == [244, 669]
    # No matching unigram: smoothed precisions 1/(2^k * n-grams), sacrebleu says 0.
    assert stats[244] == [10, 7, 0, 0, 0, 0, 10, 9, 8, 7]
    assert bleu["BLEU"].seg[244] == pytest.approx((1 / 20 / 36 / 64 / 112) ** 0.25, rel=1e-14)
    # Three tokens: no 4-gram counts as precision 1 and the mean still divides by 4.
    assert stats[669] == [3, 10, 2, 0, 0, 0, 3, 2, 1, 0]
    bp = math.exp(1 - 10 / 3)
    assert bleu["BLEU"].seg[669] == pytest.approx(bp * (2 / 3 / 4 / 4) ** 0.25, rel=1e-14)
    assert bleu["BLEUi-4"].seg[669] == 1.0
    assert bleu["BLEU-3"].seg[669] == pytest.approx(bp * (2 / 3 / 4 / 4) ** (1 / 3), rel=1e-14)


# --- behaviour on small inputs ------------------------------------------------------------


def _one_doc(n: int) -> Documents:
    return Documents(tuple(["d"] * n))


def test_specs_and_signatures() -> None:
    bleu, nist = BleuFamily(), NistFamily()
    assert [s.name for s in bleu.specs()] == EXPECTED_BLEU
    assert [s.name for s in nist.specs()] == EXPECTED_NIST
    assert all(s.family == "BLEU" and s.range_max == 1.0 for s in bleu.specs())
    assert all(s.family == "NIST" and s.range_max is None for s in nist.specs())
    assert all(s.higher_is_better and "mteval-v13a" in s.description for s in bleu.specs())
    assert all(s.higher_is_better and "mteval-v13a" in s.description for s in nist.specs())
    signature = bleu.signature(Params(lowercase=True), 3)
    for part in ("BLEU|", "nrefs:3", "case:lc", "tok:13a", "smooth:exp", bleu.version):
        assert part in signature
    assert "case:mixed" in nist.signature(Params(), 1)
    assert "tok:13a" in nist.signature(Params(), 1)


def test_closest_reference_length_prefers_the_shorter_on_ties() -> None:
    hyps = ["a b c d e"]
    refs = [["a b c d e f"], ["a b c d"]]
    out = BleuFamily().compute(hyps, refs, _one_doc(1), Params())
    assert (out["BLEU"].seg_stats or [])[0][:2] == [5, 4]
    assert out["BLEU"].seg[0] == pytest.approx(1.0)


def test_levels_come_from_summed_statistics() -> None:
    hyps = ["the cat sat on the mat .", "a dog barked loudly at night", "it rained today"]
    refs = [["the cat sat on a mat .", "a dog barked at night", "it was raining today"]]
    docs = Documents(("x", "x", "y"))
    for family, from_stats in (
        (BleuFamily(), bleu_from_stats),
        (NistFamily(), lambda s: nist_from_stats(s, 1)),
    ):
        out = family.compute(hyps, refs, docs, Params())
        stats = out[family.name].seg_stats or []
        for name, scores in out.items():
            assert scores.doc["x"] == from_stats(sum_stats(stats[:2]))[name]
            assert scores.doc["y"] == scores.seg[2]
            assert scores.sys == pytest.approx(from_stats(sum_stats(stats))[name], rel=1e-15)
    mean = sum(out["NIST"].seg) / 3
    assert out["NIST"].sys != pytest.approx(mean)


def test_case_sensitivity() -> None:
    hyps, refs = ["Hello World"], [["hello world"]]
    mixed = BleuFamily().compute(hyps, refs, _one_doc(1), Params())
    lower = BleuFamily().compute(hyps, refs, _one_doc(1), Params(lowercase=True))
    assert mixed["BLEU-1"].seg[0] < 0.3
    assert lower["BLEU-1"].seg[0] == 1.0
    nist = NistFamily().compute(hyps, refs, _one_doc(1), Params(lowercase=True))
    assert nist["NIST-1"].seg[0] > 0


def test_empty_hypothesis_follows_mteval() -> None:
    out = BleuFamily().compute([""], [["a b c"]], _one_doc(1), Params())
    assert out["BLEU"].seg[0] == 0.0
    assert out["BLEUi-2"].seg[0] == 1.0  # mteval: an order without n-grams has precision 1
    assert NistFamily().compute([""], [["a b c"]], _one_doc(1), Params())["NIST"].seg[0] == 0.0


def test_nist_information_weights_and_length_penalty() -> None:
    info = InformationWeights.from_references([["a", "b", "a"], ["a", "c"], ["0", "b"]])
    assert info(("a",)) == pytest.approx(-math.log2(3 / 7))
    assert info(("a", "b")) == pytest.approx(-math.log2(1 / 3))
    assert info(("0", "b")) == pytest.approx(-math.log2(1 / 7))  # Perl: prefix "0" is false
    assert length_penalty(2, 3, 1) == pytest.approx(0.5)
    assert length_penalty(4, 6, 2) == 1.0
    assert length_penalty(0, 6, 2) == 0.0


def test_nist_depends_on_the_scored_set_but_bleu_does_not(shared: Path) -> None:
    sample: Sample = load_sample(shared, "ruen")
    hyps, refs = sample.systems["Online-B"], sample.refset("ref-A")
    first = sum(1 for d in sample.docs.doc_ids if d == sample.docs.doc_ids[0])
    part = Documents(sample.docs.doc_ids[:first])
    for family, same in ((BleuFamily(), True), (NistFamily(), False)):
        whole = family.compute(hyps, refs, sample.docs, Params())[family.name]
        alone = family.compute(hyps[:first], [r[:first] for r in refs], part, Params())
        assert (alone[family.name].seg == whole.seg[:first]) is same


def test_inputs_are_checked() -> None:
    for family in (BleuFamily(), NistFamily()):
        with pytest.raises(ValueError):
            family.compute(["a", "b"], [["a"]], _one_doc(2), Params())
        with pytest.raises(ValueError):
            family.compute(["a"], [["a"]], _one_doc(2), Params())
        with pytest.raises(ValueError):
            family.compute(["a"], [], _one_doc(1), Params())


def _random_stats(rng, rows: int, orders: int, gains: bool) -> list[list[float]]:
    """Statistics rows with the corner cases: empty hypotheses, orders without n-grams or
    without a match, no reference words (NIST); NIST's gains are floats."""
    out = []
    for _ in range(rows):
        hyp = int(rng.integers(0, 40))
        ref = int(rng.integers(0, 40))
        totals = [max(hyp - k, 0) for k in range(orders)]
        matched = [int(rng.integers(0, t + 1)) if rng.random() < 0.8 else 0 for t in totals]
        if gains:
            matched = [m * float(rng.random()) * 7 for m in matched]
        out.append([hyp, ref, *matched, *totals])
    return out


def test_whole_tables_score_every_row_as_the_one_row_formulas() -> None:
    """The families score a table of statistics at once (logs and exps with ``math``: numpy's
    own differ in the last bit for some values); each value equals, to the bit, the per-row
    formula mteval's lines are checked against."""
    from numpy.random import default_rng

    from ulcdb.metrics.bleu import bleu_table
    from ulcdb.metrics.nist import mteval_nist_table

    rng = default_rng(28)
    bleu = _random_stats(rng, 3000, 4, gains=False)
    columns = bleu_table(np.asarray(bleu, dtype=float))
    for name in EXPECTED_BLEU:
        assert columns[name].tolist() == [bleu_from_stats(row)[name] for row in bleu], name
    nist = _random_stats(rng, 3000, 5, gains=True)
    for nrefs in (1, 3):
        cumulative, individual = mteval_nist_table(np.asarray(nist, dtype=float), nrefs)
        for row, c, i in zip(nist, cumulative.tolist(), individual.tolist(), strict=True):
            assert (c, i) == mteval_nist(row, nrefs)


def test_document_sums_add_rows_in_order_even_when_a_document_comes_back() -> None:
    from ulcdb.metrics.bleu import summed_rows

    rows = [[0.1, 1.0], [0.2, 2.0], [0.3, 4.0], [1e16, 8.0], [-1e16, 16.0], [0.7, 32.0]]
    docs = Documents(("a", "b", "a", "b", "b", "a"))
    ids, sums = summed_rows(np.asarray(rows), docs)
    assert ids == ["a", "b"]
    assert sums.tolist() == [sum_stats([rows[0], rows[2], rows[5]]),
                             sum_stats([rows[1], rows[3], rows[4]]), sum_stats(rows)]
    assert sums[1][0] == (0.2 + 1e16) - 1e16 != 0.2  # in order, not pairwise or exact
