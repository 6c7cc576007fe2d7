"""The browser test: `ulcdb serve` on a free loopback port over a store built from sample/,
headless Chromium on the home page, a table, a canned query with parameters and a plot page;
asserts on what the pages show and saves screenshots to artifacts/screenshots/.

Skips cleanly when Debian's `chromium` is absent (.ci/run installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from serve_helpers import REPO, serving_evil_sample

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = REPO / "artifacts" / "screenshots"
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def chromium(*args: str, timeout: float = 60) -> str:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--disable-background-networking", "--disable-dev-shm-usage", "--no-first-run",
           "--disable-extensions", "--virtual-time-budget=8000", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return done.stdout


def dom(url: str) -> str:
    return chromium("--dump-dom", url)


def screenshot(url: str, name: str, height: int = 1000) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    out = SHOTS / f"{name}.png"
    out.unlink(missing_ok=True)
    chromium(f"--screenshot={out}", f"--window-size=1280,{height}", url)
    assert out.exists() and out.stat().st_size > 5000, f"no screenshot of {url}"
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    for base, store in serving_evil_sample(tmp_path_factory.mktemp("browser")):
        yield base, store.stem


def test_home_page(server) -> None:
    base, db = server
    page = dom(base + "/")
    assert "ulcdb - MT evaluation store" in page
    assert f'href="/{db}"' in page and "/-/plots" in page
    screenshot(base + "/", "home")


def test_table_with_facets(server) -> None:
    base, db = server
    url = f"{base}/{db}/scores?level=sys&refset=ref-A%2Bref-B%2Bref-C"
    page = dom(url)
    assert "<h1" in page and "scores" in page
    for facet in ("testbed", "level", "metric", "refset", "translator"):
        assert f'data-column="{facet}"' in page, facet
    assert re.search(r"[0-9,]+ rows? where", page)
    assert "sysA" in page and "BLEU" in page
    screenshot(url, "table")


def test_canned_query_with_parameters(server) -> None:
    base, db = server
    url = f"{base}/{db}/segment_analysis?seg_id=3&metric=BLEU&refset=ref-A&testbed=&metric_set="
    page = dom(url)
    assert "Segment analysis" in page
    assert 'name="seg_id"' in page and 'value="3"' in page
    rows = re.findall(r"<tr>", page)
    assert len(rows) >= 1 + 8  # header + source + 4 systems + 3 references
    for who in ("source", "sysA", "sysB", "sysC", "sysD", "ref-A", "ref-B", "ref-C"):
        assert who in page, who
    screenshot(url, "canned_query", height=900)


def test_plot_page(server) -> None:
    base, _ = server
    url = f"{base}/-/plots/system-scores?metric=BLEU&refset=ref-A"
    page = dom(url)
    assert "System scores per metric" in page
    assert 'id="chart"' in page and 'data-rendered="1"' in page, "vega-embed did not render"
    assert "<svg" in page and "sysA" in page
    screenshot(url, "plot_system_scores", height=800)
    for slug in ("metric-human", "metric-correlation"):
        page = dom(f"{base}/-/plots/{slug}")
        assert 'data-rendered="1"' in page and "<svg" in page, slug
        screenshot(f"{base}/-/plots/{slug}", f"plot_{slug.replace('-', '_')}", height=800)


def test_names_cannot_break_out_of_the_plot_script(server) -> None:
    base, _ = server
    page = dom(f"{base}/-/plots/system-scores?metric=BLEU&refset=ref-A")
    assert 'data-rendered="1"' in page and "<svg" in page
    assert "pwned" not in re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "sysD&lt;/script&gt;" in page  # the name is shown as text in the chart
