"""The comparison page of `ulcdb serve` (issue 14): headless Chromium on /-/compare over the
sample store; the numbers on the page (scores, intervals, p-values, ranks, clusters, per
bucket) must equal `ulcdb compare -f json` on the same store, both charts must render, a
system name with markup stays text, and a choice that cannot be compared shows a message.
Screenshots go to artifacts/screenshots/.  Skips when Chromium is absent."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from serve_helpers import EVIL, serving_evil_sample
from test_serve_browser import CHROMIUM, dom, screenshot

from tests.cli_helpers import ulcdb

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    yield from serving_evil_sample(tmp_path_factory.mktemp("compare_page"))


def _cli(store: Path, *args: str) -> list[dict]:
    result = ulcdb(store, "compare", "-m", "BLEU", "-r", "ref-A", "-f", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _table(page: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, f"no table {table_id}"
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]


def _f(v: float | None) -> str:
    return "" if v is None else f"{v:.4f}"


def test_against_a_baseline_with_buckets(served) -> None:
    base, store = served
    url = f"{base}/-/compare?metric=BLEU&refset=ref-A&baseline=sysA&by=length"
    page = dom(url)
    assert "Compare systems" in page
    for chart in ("chart-scores", "chart-buckets"):
        div = re.search(rf'<div id="{chart}"[^>]*>', page)
        assert div and 'data-rendered="1"' in div.group(0), f"{chart} did not render"
    assert page.count("<svg") >= 2
    want = {r["system"]: r for r in _cli(store, "-b", "sysA", "-s", f"sysB,sysC,{EVIL}")}
    rows = _table(page, "compare-table")
    assert [r[0].replace(" (baseline)", "") for r in rows] == ["sysA", "sysB", "sysC", EVIL]
    for system, score, interval, span, p in rows:
        w = want[system.replace(" (baseline)", "")]
        assert score == _f(w["score"])
        assert interval == f"{_f(w['mean'])} ± {_f(w['ci'])}"
        assert span == f"[{_f(w['ci_low'])}, {_f(w['ci_high'])}]"
        assert p.rstrip(" *") == _f(w["p_value"])
        assert p.endswith("*") == (w["p_value"] is not None and w["p_value"] < 0.05)
    buckets = _cli(store, "-b", "sysA", "-s", f"sysB,sysC,{EVIL}", "--by", "length")
    shown = _table(page, "bucket-table")
    assert len(shown) == len(buckets)
    for (bucket, n, system, score, _span, p), w in zip(shown, buckets, strict=True):
        assert (bucket, int(n), system, score, p.rstrip(" *")) == (
            w["bucket"], w["n_units"], w["system"], _f(w["score"]), _f(w["p_value"]))
    assert "pwned" not in re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    screenshot(url, "compare_baseline_buckets", height=1300)


def test_every_pair_with_clusters(served) -> None:
    base, store = served
    url = f"{base}/-/compare?metric=chrF&refset=ref-A&method=bs"
    page = dom(url)
    want = _cli(store, "-m", "chrF", "-s", f"sysA,sysB,sysC,{EVIL}")
    rows = _table(page, "compare-table")
    assert [(int(c), int(k), s, score) for c, k, s, score, *_ in rows] == \
        [(w["cluster"], w["rank"], w["system"], _f(w["score"])) for w in want]
    assert 'data-rendered="1"' in re.search(r'<div id="chart-scores"[^>]*>', page).group(0)
    assert "chart-buckets" not in page
    screenshot(url, "compare_all_pairs", height=900)


def test_a_subset_of_systems_and_ar(served) -> None:
    base, store = served
    page = dom(f"{base}/-/compare?metric=BLEU&refset=ref-A&baseline=sysB&method=ar"
               "&system=sysA&system=sysB")
    want = {r["system"]: r for r in _cli(store, "-b", "sysB", "-s", "sysA", "--method",
                                         "ar")}
    rows = _table(page, "compare-table")
    assert [r[0] for r in rows] == ["sysB (baseline)", "sysA"]
    assert rows[1][4].rstrip(" *") == _f(want["sysA"]["p_value"])
    assert rows[1][2] == ""  # approximate randomization has no interval


def test_word_accuracy_by_frequency(served) -> None:
    base, store = served
    url = (f"{base}/-/compare?metric=BLEU&refset=ref-A&baseline=sysA&analysis=word-freq"
           "&system=sysA&system=sysB")
    page = dom(url)
    div = re.search(r'<div id="chart-analysis"[^>]*>', page)
    assert div and 'data-rendered="1"' in div.group(0)
    result = ulcdb(store, "compare", "--analysis", "word-freq", "-b", "sysA", "-s", "sysB",
                   "-r", "ref-A", "-f", "json")
    assert result.exit_code == 0, result.output
    want = {(r["bucket"], r["system"]): r for r in json.loads(result.stdout)}
    shown = _table(page, "analysis-table")
    assert [r[0] for r in shown] == list(dict.fromkeys(b for b, _ in want))
    for bucket, n_ref, a, b, delta, p in shown:
        wa, wb = want[bucket, "sysA"], want[bucket, "sysB"]
        assert int(n_ref) == wa["n_ref"]
        assert a == f"{_f(wa['fmeas'])} [{_f(wa['f_low'])}, {_f(wa['f_high'])}]"
        assert b == f"{_f(wb['fmeas'])} [{_f(wb['f_low'])}, {_f(wb['f_high'])}]"
        assert delta == f"{wb['fmeas'] - wa['fmeas']:+.4f}"
        assert p.rstrip("*") == _f(wb["p_value"])
    screenshot(url, "compare_word_freq", height=1300)
    two_refs = dom(f"{base}/-/compare?metric=BLEU&refset=ref-A%2Bref-B&analysis=word-freq")
    assert 'id="analysis-error"' in two_refs and "one reference" in two_refs
    assert 'id="compare-table"' in two_refs  # the comparison itself still shows


def test_a_choice_that_cannot_be_compared_says_why(served) -> None:
    base, _ = served
    page = dom(f"{base}/-/compare?metric=BLEU&refset=ref-A&system=sysA")
    assert 'id="compare-error"' in page and "at least two systems" in page


def test_only_fields_the_documents_have_are_offered(served) -> None:
    """The sample's documents have a genre, not a domain: the page offered "domain" and, asked
    for it, showed one bucket "(none)" (the whole set again); asked in the URL all the same, it
    says why it cannot split."""
    base, _ = served
    page = dom(f"{base}/-/compare?metric=BLEU&refset=ref-A")
    assert '<option value="genre"' in page and '<option value="domain"' not in page
    asked = dom(f"{base}/-/compare?metric=BLEU&refset=ref-A&by=domain")
    assert 'id="compare-error"' in asked and "has a domain" in asked
