"""Without --variant, `ulcdb meta` correlates every stored variant and a row names its
variant only when its metric has several: a metric scored lowercased alone was correlated
as "BLEU" under a header naming no variant, on a test bed whose case is mixed (issue 25).
The header now says the variant wherever the rows do not.  WMT21 en-de sample, MQM; expected
numbers from plain SQL on the store and scipy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scipy.stats

from tests.cli_helpers import ulcdb
from tests.meta.test_meta_honest import _ok, _sql

ONLY_LC = ("variant case:lc: the only one scored here (the test bed's case is case:mixed; "
           "--variant chooses)")


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("variant_said") / "ende.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", ende_sample / "segments_long.tsv", "--name", "ende"))
    for args in (("-m", "BLEU", "--case", "lc"), ("-m", "chrF"), ("-m", "chrF", "--case", "lc")):
        _ok(ulcdb(db, "score", *args, "-r", "ref-A", "-G", "seg", "-f", "csv", "-j", "1"))
    return db


def _meta(db: Path, *args: str) -> dict:
    return json.loads(_ok(ulcdb(db, "meta", "-c", "MQM", "-r", "ref-A", *args, "-B", "0",
                                "-f", "json")))


def test_the_only_variant_is_said_when_not_the_test_beds_case(ende: Path) -> None:
    out = _meta(ende, "-m", "BLEU")
    assert ONLY_LC in out["run"]["summary"]
    (row,) = out["results"]
    assert (row["label"], row["variant"]) == ("BLEU", "case:lc")
    pairs = _sql(ende, "select s.value, h.mqm from scores s join (select translator, "
                 "avg(value) as mqm from assessments where criterion = 'MQM' and role = "
                 "'system' group by 1) h using (translator) where s.metric = 'BLEU' and "
                 "s.level = 'sys' and s.refset = 'ref-A' and s.variant = 'case:lc'")
    assert len(pairs) == 8
    assert row["pearson"] == pytest.approx(
        scipy.stats.pearsonr([p[1] for p in pairs], [p[0] for p in pairs])[0], abs=1e-12)
    named = _meta(ende, "-m", "BLEU", "--variant", "case:lc")
    assert ONLY_LC not in named["run"]["summary"]
    assert named["results"][0]["pearson"] == pytest.approx(row["pearson"], abs=1e-12)


def test_rows_without_a_variant_get_it_in_the_header(ende: Path) -> None:
    out = _meta(ende, "-m", "BLEU,chrF")
    assert "variant of the rows without one: BLEU case:lc" in out["run"]["summary"]
    assert sorted(r["label"] for r in out["results"]) == ["BLEU", "chrF [case:lc]",
                                                          "chrF [case:mixed]"]
    mixed = _meta(ende, "-m", "chrF", "--variant", "case:mixed")
    assert not any(line.startswith("variant") for line in mixed["run"]["summary"])


def test_protocol_says_it_too(ende: Path) -> None:
    result = ulcdb(ende, "meta", "protocol", "wmt24", "-c", "MQM", "-m", "BLEU", "-r", "ref-A",
                   "--bootstrap", "0", "-f", "json")
    out = json.loads(_ok(result))
    assert ONLY_LC in out["run"]["warnings"]
