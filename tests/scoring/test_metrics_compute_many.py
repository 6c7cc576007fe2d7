"""Scoring several reference sets at once: each set's scores equal scoring it alone, bit for bit
(the work the families share between sets never leaks from one set into another)."""

from __future__ import annotations

from pathlib import Path

import pytest
from golden import load_sample

from ulcdb.metrics.base import Params
from ulcdb.metrics.chrf import ChrfFamily
from ulcdb.metrics.meteor import MeteorFamily
from ulcdb.metrics.nist import NistFamily
from ulcdb.metrics.overlap import OverlapFamily
from ulcdb.metrics.rouge import RougeFamily
from ulcdb.metrics.ter import TerFamily
from ulcdb.metrics.wer_per import ErrorRateFamily

FAMILIES = [ChrfFamily, MeteorFamily, NistFamily, OverlapFamily, RougeFamily, TerFamily,
            ErrorRateFamily]
# What scoring.plan_pairs asks of a system: single references, all three, every pair.
REFSETS = ["ref-A", "ref-C", "ref-D", "ref-A+ref-C+ref-D", "ref-C+ref-D", "ref-A+ref-D",
           "ref-A+ref-C"]


@pytest.fixture(scope="module")
def sample(shared: Path):
    return load_sample(shared, "ende")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("target", ["UEdin", "Online-W", "ref-A"])
def test_each_set_scores_as_if_alone(sample, family, target: str) -> None:
    fam = family()
    hyps = sample.translator(target)
    refsets = [sample.refset(name) for name in REFSETS if target not in name.split("+")]
    if target.startswith("ref-"):
        refsets.append([sample.refs["ref-C"], sample.refs["ref-D"]])
    params = Params()
    many = fam.compute_many(hyps, refsets, sample.docs, params)
    single = [fam.compute(hyps, refs, sample.docs, params) for refs in refsets]
    # repr: every float exactly (and NaN equal to itself), every level, every statistic.
    assert repr(many) == repr(single)


@pytest.mark.parametrize("family", [ChrfFamily, MeteorFamily, NistFamily, ErrorRateFamily],
                         ids=lambda f: f.__name__)
def test_compute_many_lowercase_and_equal_copies(sample, family) -> None:
    # Equal references given as distinct lists, and the lowercase option.
    fam = family()
    hyps = sample.translator("UEdin")
    a, c = sample.refs["ref-A"], sample.refs["ref-C"]
    refsets = [[a], [list(a)], [c, list(a)], [list(c), a]]
    params = Params(lowercase=True)
    many = fam.compute_many(hyps, refsets, sample.docs, params)
    assert repr(many) == repr([fam.compute(hyps, refs, sample.docs, params) for refs in refsets])


def test_rouge_reference_cache_is_bounded(sample) -> None:
    from ulcdb.metrics import rouge

    fam = RougeFamily()
    hyps = sample.translator("UEdin")
    for k in range(rouge._REFERENCE_CACHE_SIZE + 3):
        ref = [f"{line} {k}" for line in sample.refs["ref-A"]]
        fam.compute_many(hyps, [[ref]], sample.docs, Params())
    assert len(rouge._REFERENCE_CACHE) == rouge._REFERENCE_CACHE_SIZE
