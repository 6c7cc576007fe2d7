"""-WER/-PER/1-WER/1-PER against WER.pl/PER.pl and Asiya 3.0 golden values."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from golden import FamilyScores, golden_value, load_golden

from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.wer_per import ErrorRateFamily, per, wer

ASIYA_TOL = 5e-9 + 1e-12  # Asiya writes %.8f
METRICS = ("-WER", "-PER")


@cache
def _rows(path: Path, metrics: tuple[str, ...]) -> list:
    return [r for r in load_golden(path) if r.metric in metrics]


def _Scorer(shared: Path, pair: str) -> FamilyScores:  # noqa: N802 (the TER module's name)
    """Scores of one sample, computed once per (translator, refset)."""
    return FamilyScores(shared, pair, ErrorRateFamily)


def _span(docs: Documents, doc_id: str) -> tuple[int, int]:
    return next((a, b) for d, a, b in docs.spans() if d == doc_id)


@pytest.mark.parametrize("pair, count", [("ruen", 2920), ("ende", 7680)])
def test_werper_scripts(shared, pair, count):
    """Every WER.pl / PER.pl row, compared as the 15 significant digits Perl prints."""
    scorer = _Scorer(shared, pair)
    rows = _rows(shared / "golden" / f"{pair}_sample" / "werper.tsv", ("WER", "PER"))
    bad = []
    for row in rows:
        scores = scorer(row.system, row.refset)[f"-{row.metric}"]
        if row.level == "doc":
            # The scripts' own document value (Asiya uses the segment mean instead): the
            # corpus formula on the summed seg_stats of the document.
            a, b = _span(scorer.sample.docs, row.doc_id)
            totals = [sum(col) for col in zip(*scores.seg_stats[a:b], strict=True)]
            value = (wer if row.metric == "WER" else per)(*totals)
        else:
            value = 0.0 - golden_value(row, scorer.sample.docs, scores)
        if f"{value:.15g}" != row.value:
            bad.append((row, value))
    assert not bad, bad[:5]
    assert len(rows) == count


@pytest.mark.parametrize("pair, filename, count", [
    ("ruen", "asiya_lex.tsv", 4380),  # ref-A, ref-B, ref-A+ref-B; seg, doc, sys
    ("ende", "asiya_similarities.tsv", 9536),  # -PER only, 1-3 references
    ("ende", "asiya_meta.tsv", 1280),  # -PER vs ref-A+ref-C+ref-D
])
def test_asiya(shared, pair, filename, count):
    scorer = _Scorer(shared, pair)
    rows = _rows(shared / "golden" / f"{pair}_sample" / filename, METRICS)
    bad = []
    for row in rows:
        scores = scorer(row.system, row.refset)
        value = golden_value(row, scorer.sample.docs, scores[row.metric])
        one_minus = golden_value(row, scorer.sample.docs, scores["1" + row.metric])
        if abs(value - float(row.value)) > ASIYA_TOL or one_minus != 1.0 + value:
            bad.append((row, value, one_minus))
    assert not bad, bad[:5]
    assert len(rows) == count


def test_multireference_rules():
    docs = Documents(("d", "d"))
    hyps = ["a b c", "a b"]
    refs = [["a b c", "x y z w"], ["a x c d", "a b"]]
    scores = ErrorRateFamily().compute(hyps, refs, docs, Params())
    # per segment: best single reference
    assert scores["-WER"].seg == [0.0, 0.0]
    # system: best single-reference corpus value, here ref 0: (0 + 4) / 7 vs ref 1: (2 + 0) / 6
    assert scores["-WER"].sys == pytest.approx(-2 / 6)
    assert scores["-WER"].doc == {"d": 0.0}  # mean of segment values
    assert scores["1-WER"].sys == pytest.approx(1 - 2 / 6)
    assert scores["-WER"].seg_stats == [[3.0, 0.0, 3.0, 3.0, 2.0, 2.0, 4.0],
                                        [2.0, 4.0, 0.0, 4.0, 0.0, 2.0, 2.0]]


def test_per_formula_and_tokens():
    # PER: correct 2, |hyp| - |ref| = 2 -> 1 - (2 - 2) / 2 = 1
    assert per(4, 0, 2, 2) == 1.0
    assert wer(3, 1, 2, 0) is None and per(3, 1, 2, 0) is None
    fam = ErrorRateFamily()
    docs = Documents(("d",))
    # U+00A0 is not a separator; case matters unless lowercase
    nbsp = fam.compute(["a\u00a0b"], [["a b"]], docs, Params())
    assert nbsp["-WER"].seg == [-1.0]
    assert fam.compute(["A"], [["a"]], docs, Params())["-WER"].seg == [-1.0]
    assert fam.compute(["A"], [["a"]], docs, Params(lowercase=True))["-WER"].seg == [0.0]
    empty = fam.compute([""], [[""]], docs, Params())
    assert empty["-WER"].seg == [None] and empty["-PER"].sys is None


def test_specs_and_signature():
    family = ErrorRateFamily()
    specs = {s.name: s for s in family.specs()}
    assert set(specs) == {"1-WER", "1-PER", "-WER", "-PER"}
    assert all(s.range_min is None for s in specs.values())
    assert specs["-WER"].range_max == 0.0 and specs["1-PER"].range_max == 1.0
    assert family.signature(Params(lowercase=True), 2).startswith("ErrorRate|nrefs:2|case:lc|")


def test_segment_values_equal_the_scalar_formulas():
    """Segment values are computed on arrays for all segments at once: each equals wer()/per()
    of its statistics, best over the references that have words (None when none has)."""
    import random

    rng = random.Random(3)
    n = 400
    line = lambda: " ".join(rng.choices("abcdef", k=rng.choice((0, 1, 3, 8, 15))))  # noqa: E731
    hyps = [line() for _ in range(n)]
    refs = [[line() for _ in range(n)] for _ in range(3)]
    docs = Documents(tuple(f"d{i // 10}" for i in range(n)))
    for scores, k in zip(ErrorRateFamily().compute_many(hyps, [refs[:1], refs], docs, Params()),
                         (1, 3), strict=True):
        for name, rate in (("WER", wer), ("PER", per)):
            for value, row in zip(scores[f"-{name}"].seg, scores[f"-{name}"].seg_stats,
                                  strict=True):
                found = [rate(row[0], *row[1 + 3 * r:4 + 3 * r]) for r in range(k)]
                values = [0.0 - v for v in found if v is not None]
                assert value == (max(values) if values else None)
        assert None in scores["-WER"].seg  # empty references were met
