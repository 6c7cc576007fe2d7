"""chrF / chrF++ against sacrebleu 2.6.0 itself and the WMT21 published system chrF."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from golden import load_sample
from sacrebleu.metrics import CHRF

from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.chrf import ChrfFamily

ENDE = "wmt21_newstest2021_ende"
SACREBLEU = {"chrF": {}, "chrF++": {"word_order": 2}}


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _full_testbed(shared: Path, system: str, refs: str):
    base = shared / "testbeds" / ENDE
    with open(base / "docs.tsv", encoding="utf-8") as fh:
        docs = Documents(tuple(r["doc_id"] for r in csv.DictReader(fh, delimiter="\t")))
    hyps = _lines(base / "systems" / f"{system}.de.txt")
    return hyps, [_lines(base / "refs" / f"ref-{k}.de.txt") for k in refs], docs


def _published_chrf(shared: Path, system: str, refs: str) -> float:
    """WMT21's system chrF (sacrebleu, 0-100); ``chrf-all`` is references A, C and D."""
    name = "chrf-all" if refs == "ACD" else f"chrf-{refs}"
    with open(shared / "testbeds" / ENDE / "metrics" / "sys_bleu_chrf.tsv", encoding="utf-8") as fh:
        rows = csv.DictReader(fh, delimiter="\t")
        return next(float(r["score"]) for r in rows if (r["system"], r["metric"]) == (system, name))


@pytest.mark.parametrize("system, refs", [("UEdin", "ACD"), ("Online-W", "A")])
def test_full_testbed_equals_sacrebleu(shared, system, refs):
    """Full en-de test bed (1,002 segments): system vs corpus_score, segments vs sentence_score.

    chrF's system value is also WMT21's published one (sacrebleu corpus chrF, 0-100). For
    three references that published value stands in for a live chrF corpus_score, which
    would add several seconds; chrF++ is always checked live.
    """
    hyps, references, docs = _full_testbed(shared, system, refs)
    scores = ChrfFamily().compute(hyps, references, docs, Params())
    published = _published_chrf(shared, system, refs) / 100
    assert scores["chrF"].sys == pytest.approx(published, abs=1e-12)
    for name, kwargs in SACREBLEU.items():
        metric = CHRF(**kwargs)
        if name == "chrF++" or len(refs) == 1:
            expected = metric.corpus_score(hyps, references).score / 100
            assert scores[name].sys == pytest.approx(expected, abs=1e-9)
        for i in range(0, len(hyps), 10):  # sentence_score is slow: every 10th segment
            expected = metric.sentence_score(hyps[i], [r[i] for r in references]).score / 100
            assert scores[name].seg[i] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("refset, lowercase", [
    ("ref-A", False), ("ref-A+ref-C+ref-D", False), ("ref-A+ref-C+ref-D", True)])
def test_sample_every_level(shared, refset, lowercase):
    """en-de sample: every segment, document and system value, and the statistics."""
    sample = load_sample(shared, "ende")
    references = sample.refset(refset)
    family = ChrfFamily()
    for system in ("HuaweiTSC", "UEdin"):
        hyps = sample.translator(system)
        scores = family.compute(hyps, references, sample.docs, Params(lowercase=lowercase))
        for name, kwargs in SACREBLEU.items():
            metric = CHRF(lowercase=lowercase, **kwargs)
            stats = metric._extract_corpus_statistics(hyps, references)
            assert scores[name].seg_stats == [[float(x) for x in s] for s in stats]
            assert scores[name].sys == metric.corpus_score(hyps, references).score / 100
            for doc, a, b in sample.docs.spans():
                part = [r[a:b] for r in references]
                assert scores[name].doc[doc] == metric.corpus_score(hyps[a:b], part).score / 100
            for i, hyp in enumerate(hyps):
                expected = metric.sentence_score(hyp, [r[i] for r in references]).score / 100
                assert scores[name].seg[i] == expected


def test_specs_and_signature():
    family = ChrfFamily()
    specs = {s.name: s for s in family.specs()}
    assert set(specs) == {"chrF", "chrF++"}
    assert all((s.range_min, s.range_max) == (0.0, 1.0) for s in specs.values())
    sig = family.signature(Params(), 3)
    assert "chrF|nrefs:3|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0" in sig
    assert "chrF++|nrefs:3|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0" in sig
    assert "case:lc" in family.signature(Params(lowercase=True), 1)


def test_table_f_scores_equal_sacrebleus_to_the_bit():
    """Segments are scored as one table (issue 28): each F-score equals sacrebleu's
    ``_compute_f_score`` on that row, zero counts and empty orders included."""
    from numpy.random import default_rng

    from ulcdb.metrics.chrf import f_scores

    rng = default_rng(28)
    for metric in (CHRF(), CHRF(word_order=2)):
        rows = []
        for _ in range(2000):
            row = []
            for _ in range(metric.order):
                hyp, ref = (int(rng.integers(0, 30)) * int(rng.random() < 0.9) for _ in "hr")
                row += [hyp, ref, int(rng.integers(0, min(hyp, ref) + 1))]
            rows.append(row)
        table = f_scores(metric, np.asarray(rows, dtype=np.int64))
        assert table.tolist() == [metric._compute_f_score(row) for row in rows]


def test_an_undefined_reference_line_is_left_out_as_sacrebleu_does():
    hyps = ["the cat sat on the mat", "a dog barks", "it rains"]
    refs = [["the cat sat on a mat", "a dog barked", "it is raining"],
            ["a cat sat on the mat", None, "it rains"]]
    scores = ChrfFamily().compute(hyps, refs, Documents(("a", "a", "b")), Params())
    for name, kwargs in SACREBLEU.items():
        metric = CHRF(**kwargs)
        assert scores[name].sys == metric.corpus_score(hyps, refs).score / 100
        assert scores[name].seg[1] == metric.sentence_score(hyps[1], [refs[0][1]]).score / 100
