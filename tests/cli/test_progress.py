"""Long work shows progress (issue 29 §3): on a terminal every long command draws a bar on
stderr; piped (a CliRunner run is) it writes nothing at all, and stdout is the same either
way.  The library's callback (``ulcdb.scoring.progress.Progress``) is told a total and then
hears steps adding up to it, from the Python API as from the CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.console import Console

import ulcdb
import ulcdb.cli.common as common
from tests.cli_helpers import ulcdb as cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
SYSTEMS = 4  # sysA-sysD of the bundled sample


class Recorder:
    """A progress display that keeps what it is told: each display's total and steps."""

    def __init__(self) -> None:
        self.totals: list[int] = []
        self.steps: list[list[tuple[str, int]]] = []

    @contextmanager
    def __call__(self, total: int) -> Iterator[Callable[[str, int], None]]:
        self.totals.append(total)
        steps: list[tuple[str, int]] = []
        self.steps.append(steps)
        yield lambda label, n: steps.append((label, n))

    def check_complete(self) -> None:
        """Every display's counts increase (no negative step) and end at its total."""
        assert self.totals, "no progress display was opened"
        for total, steps in zip(self.totals, self.steps, strict=True):
            assert all(n >= 0 for _, n in steps)
            assert sum(n for _, n in steps) == total


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store of the bundled sample with BLEU and chrF scored."""
    path = tmp_path_factory.mktemp("progress") / "sample.duckdb"
    result = cli(path, "demo", SAMPLE, "-m", "BLEU,chrF")
    assert result.exit_code == 0, result.output
    return path


def _as_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr taken for a terminal, as when a user runs the command."""
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(common, "err_console", Console(stderr=True, force_terminal=True,
                                                       markup=False, width=120))


def _run(db: Path, *args: object) -> tuple[str, str]:
    result = cli(db, *args)
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_the_bar_is_drawn_on_a_terminal_only(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped, the helper writes nothing (not even rich's closing blank line)."""
    with common.progress_bar(3, "testing") as advance:
        advance("BLEU", 3)
    assert capsys.readouterr() == ("", "")
    _as_terminal(monkeypatch)
    with common.progress_bar(3, "testing") as advance:
        advance("BLEU", 3)
    out, err = capsys.readouterr()
    assert out == "" and "testing BLEU" in err and "3/3" in err


@pytest.mark.parametrize("args", [("-b", "sysA"), (), ("--method", "ar", "-n", "200"),
                                  ("-b", "sysA", "--by", "length"), ("--by", "doc")])
def test_compare_shows_its_tests(db: Path, monkeypatch: pytest.MonkeyPatch,
                                 args: tuple[str, ...]) -> None:
    """compare -b, all pairs (bs and ar) and --by: nothing on stderr when piped, the bar with
    its total on a terminal, and the same JSON on stdout."""
    command = ("compare", "-m", "BLEU,chrF", *args, "-f", "json")
    piped_out, piped_err = _run(db, *command)
    assert "testing" not in piped_err and "\x1b" not in piped_err  # the header is there
    rows = json.loads(piped_out)
    buckets = {r.get("bucket") for r in rows}
    per_metric = SYSTEMS if "-b" in args else SYSTEMS + SYSTEMS * (SYSTEMS - 1) // 2
    total = 2 * per_metric * len(buckets)
    _as_terminal(monkeypatch)
    shown_out, shown_err = _run(db, *command)
    assert shown_out == piped_out
    assert "testing" in shown_err and f"{total}/{total}" in shown_err


@pytest.mark.parametrize("kwargs", [{"baseline": "sysA"}, {}, {"method": "ar", "resamples": 200},
                                    {"baseline": "sysA", "by": "length"}])
def test_compare_api_hears_every_step(db: Path, kwargs: dict[str, object]) -> None:
    """Database.compare(progress=): one display for the tests (scores are there), whose steps
    name the metrics (and buckets) and add up to 2 metrics x the systems' tests."""
    shown = Recorder()
    with ulcdb.open(db) as database:
        table = database.compare("BLEU,chrF", progress=shown, **kwargs)
    shown.check_complete()
    buckets = len(set(table.column("bucket").to_pylist())) if "by" in kwargs else 1
    per_metric = SYSTEMS if "baseline" in kwargs else SYSTEMS + SYSTEMS * (SYSTEMS - 1) // 2
    assert shown.totals == [2 * per_metric * buckets]
    labels = {label.split()[-1] for label, _ in shown.steps[0]}
    assert labels == {"BLEU", "chrF"}


def test_word_freq_analysis_shows_each_system(db: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """compare --analysis word-freq: a step per system's word accuracy (its bootstrap), on a
    terminal only; the API's display hears the same steps."""
    command = ("compare", "--analysis", "word-freq", "-r", "ref-A", "-f", "json")
    piped_out, piped_err = _run(db, *command)
    assert "testing" not in piped_err
    shown = Recorder()
    with ulcdb.open(db) as database:
        database.compare(analysis="word-freq", refs="ref-A", progress=shown)
    shown.check_complete()
    assert shown.totals == [SYSTEMS]
    assert [label for label, _ in shown.steps[0]] == ["sysA", "sysB", "sysC", "sysD"]
    _as_terminal(monkeypatch)
    shown_out, shown_err = _run(db, *command)
    assert shown_out == piped_out
    assert "testing" in shown_err and f"{SYSTEMS}/{SYSTEMS}" in shown_err


def test_score_api_hears_the_pairs_scored(tmp_path: Path) -> None:
    """Database.score(progress=) as `ulcdb score`'s bar: each pair once per family computed."""
    path = tmp_path / "s.duckdb"
    _run(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample")
    shown = Recorder()
    with ulcdb.open(path) as database:
        database.score("BLEU,chrF", progress=shown)
    shown.check_complete()
    assert len(shown.totals) == 1 and shown.totals[0] > 0
    assert {label for label, _ in shown.steps[0]} == {"BLEU", "chrF"}


def test_report_shows_its_parts(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                ) -> None:
    """`ulcdb report`: the whole set's tests, then one step per bucket view, analysis and
    criterion x level (the sample has DA-raw and adequacy: 2 + 2 + 2 x 2 = 8 parts)."""
    from ulcdb.htmlreport.gather import ReportRequest, gather
    from ulcdb.ops.access import Opened
    from ulcdb.store.database import Store

    shown = Recorder()
    with Store(db, read_only=True) as store:
        gather(Opened(store), ReportRequest(metrics="BLEU,chrF"), shown)
    shown.check_complete()
    assert shown.totals == [2 * (SYSTEMS + SYSTEMS * (SYSTEMS - 1) // 2), 8]
    assert [label for label, _ in shown.steps[1]] == [
        "by length", "by doc", "word-freq", "category", "meta DA-raw sys", "meta DA-raw seg",
        "meta adequacy sys", "meta adequacy seg"]
    _, piped_err = _run(db, "report", tmp_path / "a.html", "-m", "BLEU,chrF")
    assert "reporting" not in piped_err and "\x1b" not in piped_err
    _as_terminal(monkeypatch)
    _, shown_err = _run(db, "report", tmp_path / "b.html", "-m", "BLEU,chrF")
    assert "reporting" in shown_err and "8/8" in shown_err


def test_the_genetic_search_ticks_once_per_generation() -> None:
    from ulcdb.tune.tine import genetic_search

    ticks: list[int] = []
    genetic_search(lambda a, b: -abs(a - b), seed=3, individuals=6, generations=4,
                   tick=lambda: ticks.append(1))
    assert len(ticks) == 4 + 1  # the first population and each of 4 generations


def test_tune_shows_scoring_then_generations(ruen_sample: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Database.tune(progress=) hears the pairs scored (TINE-L, TINE-A per system and
    reference: one family) then the 101 generations; `ulcdb tune` draws them on a terminal only."""
    from ulcdb.metrics import tine_resources
    from ulcdb.tune.tine import GENERATIONS

    verbnet = ruen_sample.parents[2] / "resources" / "verbnet3.zip"
    if not verbnet.is_file():
        pytest.skip(f"no {verbnet}")
    monkeypatch.setenv("ULCDB_VERBNET", str(verbnet))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tine_resources.verbnet.cache_clear()
    db = tmp_path / "t.duckdb"
    _run(db, "ingest", "testbed", ruen_sample / "segments_long.tsv", "--name", "ruen",
         "--src-lang", "ru", "--tgt-lang", "en")
    shown = Recorder()
    systems = "AFRL,Facebook-AI"
    with ulcdb.open(db) as database:
        refs = [t.name for t in database.translators() if t.role == "reference"]
        database.tune(criterion="DA-raw", systems=systems, seed=1, progress=shown)
    shown.check_complete()
    generations = [n for label, n in shown.steps[0] if label == "generations"]
    assert len(generations) == GENERATIONS + 1
    assert shown.totals[0] - len(generations) == len(refs) * len(systems.split(","))  # 1 family
    args = ("tune", "TINE", "-c", "DA-raw", "-s", systems, "--seed", "2", "-f", "csv")
    piped_out, piped_err = _run(db, *args)
    assert "tuning" not in piped_err.replace("tuning TINE on", "") and "\x1b" not in piped_err
    _as_terminal(monkeypatch)
    shown_out, shown_err = _run(db, *args)
    assert shown_out == piped_out
    total = shown.totals[0]
    assert "tuning generations" in shown_err and f"{total}/{total}" in shown_err


def test_annotate_shows_the_texts_annotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    """`ulcdb annotate`: the bar counts the distinct texts, to the number the summary gives;
    nothing on stderr when piped."""
    piped, shown = tmp_path / "piped.duckdb", tmp_path / "shown.duckdb"
    for db in (piped, shown):
        _run(db, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample")
    piped_out, piped_err = _run(piped, "annotate", "--jobs", "1")
    assert piped_err == ""
    texts = int(re.search(r"(\d+) texts annotated", piped_out)[1])  # type: ignore[index]
    _as_terminal(monkeypatch)
    shown_out, shown_err = _run(shown, "annotate", "--jobs", "1")
    assert shown_out == piped_out
    assert "annotating" in shown_err and f"{texts}/{texts}" in shown_err


EXPORTS = [("iqxml", {}), ("mtme", {}), ("wmt", {}), ("nist", {}), ("sacrebleu", {}),
           ("comet", {})]


@pytest.mark.parametrize(("fmt", "options"), EXPORTS)
def test_export_hears_each_metric_written(db: Path, tmp_path: Path, fmt: str,
                                          options: dict[str, object]) -> None:
    """Database.export(progress=): each metric written (wmt: each metric and level, one file
    each; sacrebleu: its one aggregation), the steps adding up to the total."""
    shown = Recorder()
    with ulcdb.open(db, read_only=True) as database:
        paths = database.export(fmt, tmp_path / fmt, progress=shown, **options)
        metrics = database.sql("select distinct metric from scores order by 1")
        levels = database.sql("select distinct metric, level from scores")
    shown.check_complete()
    labels = [label for label, _ in shown.steps[0]]
    if fmt == "wmt":  # one file per metric and level
        assert shown.totals == [len(paths)] == [levels.num_rows]
        assert sorted(labels) == sorted(p.name.removesuffix(".tsv") for p in paths)
    elif fmt == "sacrebleu":
        assert shown.totals == [1] and labels == ["sacrebleu"]
    else:  # BLEU and chrF's families: BLEU-1..4, chrF++...
        assert shown.totals == [metrics.num_rows] and metrics.num_rows > 2
        assert labels == metrics.column("metric").to_pylist()


@pytest.mark.parametrize("fmt", [f for f, _ in EXPORTS] + ["table"])
def test_export_draws_on_a_terminal_only(db: Path, tmp_path: Path, fmt: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    args: tuple[object, ...] = ("export", fmt, tmp_path / "piped")
    if fmt == "table":
        args = ("export", "table", "testbed", tmp_path / "piped.csv")
    piped_out, piped_err = _run(db, *args)
    assert piped_err == ""
    _as_terminal(monkeypatch)
    shown_out, shown_err = _run(db, *(str(a).replace("piped", "shown") for a in args))
    assert shown_out.replace("shown", "piped") == piped_out
    assert "writing" in shown_err
    total = {"sacrebleu": 1, "table": 1}.get(fmt)
    if total is not None:
        assert f"{total}/{total}" in shown_err
    else:
        done = re.findall(r"(\d+)/(\d+)", shown_err)[-1]
        assert done[0] == done[1] and int(done[0]) > 2
