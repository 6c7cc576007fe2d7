"""`ulcdb report OUT.html` (issue 29): one self-contained file, opened in headless Chromium
with no network: no console message, every chart drawn, and every number shown equal to
`ulcdb compare -f json` and `ulcdb meta -f json` on the same store.  Skips without Chromium."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from serve_helpers import build_sample_store

from tests.cli_helpers import ulcdb

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
METRICS = "BLEU,chrF"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_store(tmp_path_factory.mktemp("report") / "sample.duckdb")


def make_report(store: Path, out: Path, *extra: str) -> str:
    result = ulcdb(store, "report", out, "-m", METRICS, *extra)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def open_offline(page: Path) -> tuple[str, list[str]]:
    """The DOM after scripts ran, and the console messages, with every network request
    refused."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed")
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-dev-shm-usage",
           "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=10000", "--dump-dom", page.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    console = [ln for ln in done.stderr.splitlines() if ":CONSOLE" in ln]
    return done.stdout, console


def rows(page: str, part: str, metric: str | None = None) -> list[dict[str, str]]:
    """The rows of the table ``data-part=part`` (and metric): field -> shown text."""
    pattern = rf'<table[^>]*data-part="{part}"' + (rf'[^>]*data-metric="{re.escape(metric)}"'
                                                     if metric else "") + r".*?</table>"
    table = re.search(pattern, page, re.S)
    assert table, f"no table {part} {metric}"
    out = []
    for attrs, body in re.findall(r"<tr([^>]*)>(.*?)</tr>", table.group(0), re.S):
        if "<th" in body:
            continue
        row = {k: html.unescape(v) for k, v in re.findall(r'data-(\w+)="([^"]*)"', attrs)}
        for field, cell in re.findall(r'<td[^>]*data-field="(\w+)"[^>]*>(.*?)</td>', body,
                                      re.S):
            row[field] = html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
        out.append(row)
    return out


def cli_json(store: Path, *args: str) -> list[dict]:
    result = ulcdb(store, *args, "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def f4(v: float | None) -> str:
    return "" if v is None else f"{v:.4f}"


def test_report_is_self_contained(store: Path, tmp_path: Path) -> None:
    text = make_report(store, tmp_path / "r.html", "-c", "adequacy")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="https?:', text)
    assert f"Made with <code>ulcdb --db {store} report {tmp_path / 'r.html'} -m {METRICS} -c " \
        "adequacy</code> by ulcdb" in text
    assert "BLEU|nrefs:3|case:mixed|tok:13a" in text  # the signatures of the numbers


def test_every_number_equals_the_cli(store: Path, tmp_path: Path) -> None:
    page, console = open_offline(_made(store, tmp_path))
    assert console == [], console
    charts = re.findall(r'<div class="chart[^"]*"([^>]*)>', page)
    assert len(charts) >= 6 and all('data-rendered="1"' in a for a in charts), charts
    whole = cli_json(store, "compare", "-m", METRICS)
    for metric in METRICS.split(","):
        shown = rows(page, "systems", metric)
        expected = [r for r in whole if r["metric"] == metric]
        assert [r["system"] for r in shown] == [r["system"] for r in expected]
        for got, want in zip(shown, expected, strict=True):
            assert got["score"] == f4(want["score"])
            assert got["range"] == f"[{f4(want['ci_low'])}, {f4(want['ci_high'])}]"
            assert got["interval"] == f"{f4(want['mean'])} ± {f4(want['ci'])}"
            assert (got["rank"], got["cluster"]) == (str(want["rank"]), str(want["cluster"]))
    leader = next(r["system"] for r in whole if r["metric"] == "BLEU" and r["rank"] == 1)
    bucketed = cli_json(store, "compare", "-m", METRICS, "-b", leader, "--by", "length")
    for metric in METRICS.split(","):
        shown = rows(page, "by-length", metric)
        expected = [r for r in bucketed if r["metric"] == metric]
        assert len(shown) == len(expected) > 0
        for got, want in zip(shown, expected, strict=True):
            assert (got["system"], got["bucket"]) == (want["system"], want["bucket"])
            assert got["score"] == f4(want["score"])
            assert got["p_value"].rstrip(" *") == f4(want["p_value"])
    for level in ("sys", "seg"):
        meta = cli_json(store, "meta", "-c", "adequacy", "-G", level, "-m", METRICS)
        table = re.search(rf'data-part="meta" data-criterion="adequacy" data-level="{level}"'
                          r".*?</table>", page, re.S)
        assert table
        shown = {r["metric"]: r for r in rows(table.group(0).replace(
            'data-part="meta"', 'data-part="meta-x"', 1).join(["<table ", ""]), "meta-x")}
        for want in meta["results"]:
            got = shown[want["metric"]]
            assert got["n_items"] == str(want["n_items"])
            for coef in ("pearson", "spearman", "kendall_tau_b"):
                assert got[coef] == (f"{f4(want[coef])} [{f4(want[coef + '_lo95'])}, "
                                     f"{f4(want[coef + '_hi95'])}]")


def _made(store: Path, tmp_path: Path) -> Path:
    out = tmp_path / "r.html"
    make_report(store, out, "-c", "adequacy")
    return out


def test_baseline_report_and_refusals(store: Path, tmp_path: Path) -> None:
    text = make_report(store, tmp_path / "b.html", "-b", "sysB")
    assert "each system against sysB" in text
    result = ulcdb(store, "report", tmp_path / "r.pdf")
    assert result.exit_code == 1 and "HTML file" in result.output
    result = ulcdb(store, "report", tmp_path / "missing" / "r.html")
    assert result.exit_code == 1 and "does not exist" in result.output
    result = ulcdb(store, "report", tmp_path / "x.html", "-b", "nobody")
    assert result.exit_code == 1 and "nobody" in result.output
    assert not (tmp_path / "x.html").exists()


def test_many_systems_get_grids_that_render(store: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Past GRID_SYSTEMS systems the per-bucket charts are buckets x systems grids of the
    difference to the baseline (a WMT test bed's 20 systems x 60 documents)."""
    import ulcdb.htmlreport.page as page_module

    monkeypatch.setattr(page_module, "GRID_SYSTEMS", 2)
    text = make_report(store, tmp_path / "g.html", "-b", "sysA")
    assert "BLEU per doc: difference to sysA" in text
    page, console = open_offline(tmp_path / "g.html")
    assert console == [], console
    charts = re.findall(r'<div class="chart[^"]*"([^>]*)>', page)
    assert charts and all('data-rendered="1"' in a for a in charts)
