"""The notes a command prints on stderr reach Python callers too (issue 26): each one warned
as a ``ulcdb.UlcdbNote`` from the caller's line and carried by the returned table (schema
metadata ``ulcdb.notes``, read by ``ulcdb.api.notes``), the same notes in the same order as
the command's for the same call.

The scoring summary (``computed ...; N family-pairs already stored``) is no note: only its
last clause, ``imported scores used as they are: ...``, is one.  The stores: the tiny
WMT20-layout release of ``tests/qarla/test_qarla_wmt20.py`` (imported scores only, the human
systems that are the references' own texts), and the bundled sample's demo store with a
metric imported at system level."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from cli_helpers import ulcdb as cli

import ulcdb
from tests.qarla.test_qarla_wmt20 import MT, _release
from ulcdb.api import Database, notes
from ulcdb.formats.wmt import wmt20
from ulcdb.store.database import Store

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
IMPORTED = "imported scores used as they are: "
SUMMARY = re.compile(r"computed .+?; \d+ family-pairs already stored(?:; (.+))?")


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny en-de release (references A, B, P; MetricX and MetricY imported), and the
    metric set `mine` = MetricX and RG-1 (English-only ROUGE: left out for German)."""
    root = tmp_path_factory.mktemp("notes-release")
    _release(root / "release")
    db = root / "s.duckdb"
    with Store(db) as store:
        wmt20.ingest_wmt20(store, root / "release")
    _ok(cli(db, "set", "define", "metric", "mine", "MetricX", "RG-1"))
    return db


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's demo store (BLEU scored) and Ximp imported at system level against the
    whole reference set."""
    db = tmp_path_factory.mktemp("notes-sample") / "sample.duckdb"
    _ok(cli(db, "demo", SAMPLE, "-m", "BLEU"))
    table = db.parent / "ximp.csv"
    table.write_text("metric,target,refset,level,value\n" + "".join(
        f"Ximp,{s},ref-A+ref-B+ref-C,sys,0.{i}\n" for i, s in enumerate(
            ("sysA", "sysB", "sysC", "sysD"), 1)))
    _ok(cli(db, "ingest", "scores", table, "--format", "table"))
    return db


def _ok(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return result


def _api(db: Path, call: Callable[[Database], pa.Table]) -> tuple[pa.Table, list[str]]:
    """The table of ``call`` and the messages of the UlcdbNote warnings it gave."""
    with warnings.catch_warnings(record=True) as caught, ulcdb.open(db) as database:
        warnings.simplefilter("always")
        table = call(database)
    ours = [w for w in caught if w.category is ulcdb.UlcdbNote]
    assert all(w.filename == __file__ for w in ours)  # the caller's line, not ulcdb's
    return table, [str(w.message) for w in ours]


def _split(stderr: str) -> tuple[list[str], str]:
    """A QARLA command's stderr: its note lines (one a line), then the scoring summary
    (Rich breaks that one where it is long), whitespace made single."""
    lines = stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("computed "))
    return lines[:at], " ".join(" ".join(lines[at:]).split())


def _imported(summary: str) -> list[str]:
    """The summary's note on imported scores, if it has one."""
    found = SUMMARY.fullmatch(summary)
    assert found is not None, summary
    return [found[1]] if found[1] else []


QARLA = [
    (("king", "-m", "MetricX", "-r", "ref-A,ref-B", "-G", "seg", "--orange"),
     lambda d: d.king("MetricX", refs="ref-A,ref-B", level="seg", orange=True)),
    (("king", "-m", "MetricX", "-r", "ref-A,ref-B", "-G", "seg", "-s",
      ",".join([*MT, "Human-A.0"])),
     lambda d: d.king("MetricX", refs="ref-A,ref-B", level="seg",
                      systems=",".join([*MT, "Human-A.0"]))),
    (("queen", "-m", "MetricX,MetricY", "-G", "all"),
     lambda d: d.queen("MetricX,MetricY", level="all")),
]


@pytest.mark.parametrize(("args", "call"), QARLA, ids=[" ".join(a[:4]) for a, _ in QARLA])
def test_qarla_notes_are_the_commands(release: Path, args: tuple[str, ...],
                                      call: Callable[[Database], pa.Table]) -> None:
    said, summary = _split(_ok(cli(release, *args, "-f", "json")).stderr)
    table, warned = _api(release, call)
    assert warned == notes(table) == [*said, *_imported(summary)]
    assert any("reference's own text" in n for n in warned)  # the notes the issue is about
    assert any(n.startswith(IMPORTED + "MetricX (") for n in warned)


def test_king_says_what_it_left_out_and_why_there_is_no_ulc(release: Path) -> None:
    """WMT20's case: Human-A.0 and Human-B.0 are ref-A's and ref-B's own texts, and the
    release has no scores against ref-A+ref-B to bound ULC: the words a notebook user reads."""
    _, warned = _api(release, lambda d: d.king("MetricX", refs="ref-A,ref-B", level="seg"))
    assert warned[:2] == [
        "left out of the systems compared, as a reference's own text: Human-A.0 (= ref-A), "
        "Human-B.0 (= ref-B); name them with -s to compare them",
        "no KING of ULC at seg level: MetricX has no seg scores against ref-A+ref-B, whose "
        "system scores bound ULC's normalisation"]


def test_score_notes_are_the_commands(release: Path) -> None:
    """`score -f json` prints the selection's notes and the imported scores' note on stderr;
    the table format has the imported clause in the summary it prints above the table."""
    args = ("score", "-m", "mine", "-r", "ref-A")
    said = _ok(cli(release, *args, "-f", "json")).stderr.splitlines()
    shown = " ".join(_ok(cli(release, *args)).stdout.split())
    table, warned = _api(release, lambda d: d.score("mine", refs="ref-A"))
    assert said and said[0].startswith("left out for target language de: RG-1")
    assert warned == notes(table) == said and said[-1] == IMPORTED + "MetricX (6 pairs)"
    assert f"family-pairs already stored; {IMPORTED}MetricX (6 pairs) " in shown


def test_meta_notes_are_the_commands(sample: Path) -> None:
    args = ("-G", "sys", "-m", "BLEU,Ximp,-WER", "--coef", "pearson", "-B", "100")
    said = _ok(cli(sample, "meta", "-c", "DA-raw", *args, "-f", "json")).stderr.splitlines()
    table, warned = _api(sample, lambda d: d.meta("DA-raw", level="sys",
                                                  metrics="BLEU,Ximp,-WER",
                                                  coefficients=["pearson"], n_resamples=100))
    assert warned == notes(table) == said == [
        "not scored at sys level, left out: -WER; run `ulcdb score -t sample -m -WER` first",
        IMPORTED + "Ximp"]
    assert [r["metric"] for r in table.to_pylist()] == ["BLEU", "Ximp"]


def test_meta_notes_say_the_human_translations_left_out(sample: Path) -> None:
    """Against ref-A alone, ref-B is a human translation, left out: `meta` says so in its
    summary (the table format's header, `-f json`'s run.summary), which the API's table has
    no place for; its notes follow the stderr ones."""
    done = _ok(cli(sample, "meta", "-c", "DA-raw", "-G", "sys", "-m", "BLEU,-WER", "-r",
                   "ref-A", "--coef", "pearson", "-B", "100", "-f", "json"))
    summary = json.loads(done.stdout)["run"]["summary"]
    table, warned = _api(sample, lambda d: d.meta("DA-raw", level="sys", metrics="BLEU,-WER",
                                                  refs="ref-A", coefficients=["pearson"],
                                                  n_resamples=100))
    assert warned == notes(table) == [*done.stderr.splitlines(), summary[-1]] == [
        "not scored at sys level, left out: -WER; run `ulcdb score -t sample -m -WER` first",
        "left out: ref-B (human translation); --include-human brings human translations in"]


def test_meta_protocol_notes_are_the_commands(sample: Path) -> None:
    """Ximp has system scores only: left out of WMT24's segment-level columns, with the file
    it was imported from named (`ulcdb score` cannot compute it)."""
    said = _ok(cli(sample, "meta", "protocol", "wmt24", "-c", "DA-raw", "-m", "BLEU,Ximp",
                   "-B", "20", "-f", "json")).stderr.splitlines()
    table, warned = _api(sample, lambda d: d.meta_protocol("wmt24", "DA-raw",
                                                           metrics="BLEU,Ximp",
                                                           n_resamples=20))
    assert warned == notes(table) == said
    assert [n for n in warned if "Ximp" in n] == [
        "sample: not scored at seg level, left out: Ximp; Ximp is imported only, not computed by "
        f"ulcdb: its import ({sample.parent / 'ximp.csv'}) holds no seg-level scores against "
        "'ref-A+ref-B+ref-C' in test bed 'sample'; import a file that has them"]


def test_compare_notes_are_the_commands(sample: Path) -> None:
    """The buckets too small for a test: the last lines of the command's header."""
    said = _ok(cli(sample, "compare", "-m", "BLEU", "-n", "200", "--by", "doc", "-f",
                   "json")).stderr.splitlines()
    table, warned = _api(sample, lambda d: d.compare("BLEU", resamples=200, by="doc"))
    assert warned == notes(table) == said[-1:]
    assert warned[0].startswith("buckets with fewer than 10 segments, too few for a test")


def test_an_analysis_caption_is_no_note(sample: Path) -> None:
    """What the numbers of `compare --analysis` are is said above them, and is no note."""
    said = _ok(cli(sample, "compare", "--analysis", "word-freq", "-b", "sysA", "-r", "ref-A",
                   "-f", "json")).stderr
    table, warned = _api(sample, lambda d: d.compare(analysis="word-freq", baseline="sysA",
                                                     refs="ref-A"))
    assert said.startswith("word accuracy (F-measure of matched words) by frequency")
    assert len(said.splitlines()) == 1 and table.num_rows > 0
    assert warned == notes(table) == []


def test_notes_can_be_errors_or_silenced(release: Path) -> None:
    assert issubclass(ulcdb.UlcdbNote, UserWarning)
    with warnings.catch_warnings(), ulcdb.open(release) as db:
        warnings.simplefilter("error", ulcdb.UlcdbNote)
        with pytest.raises(ulcdb.UlcdbNote, match="left out of the systems compared"):
            db.queen("MetricX")
        warnings.simplefilter("ignore", ulcdb.UlcdbNote)
        assert notes(db.queen("MetricX"))[0].startswith("left out of the systems compared")


NOTHING_TO_SAY = [
    lambda d: d.score("BLEU", level="all"),
    lambda d: d.queen("BLEU", level="sys"),
    lambda d: d.king("BLEU", level="sys"),
    lambda d: d.jack("BLEU", level="sys"),
    lambda d: d.compare("BLEU", baseline="sysA", resamples=200),
    lambda d: d.meta("DA-raw", metrics="BLEU", coefficients=["pearson"], n_resamples=100),
]


@pytest.mark.parametrize("call", NOTHING_TO_SAY, ids=["score", "queen", "king", "jack", "compare",
                                                  "meta"])
def test_nothing_to_note_warns_nothing(sample: Path, call: Callable[[Database], pa.Table]
                                       ) -> None:
    table, warned = _api(sample, call)
    assert warned == [] and table.num_rows > 0
    assert json.loads(table.schema.metadata[b"ulcdb.notes"]) == []


def test_tables_without_a_command_note_have_none(sample: Path) -> None:
    table, warned = _api(sample, lambda d: d.sql("select 1 as one"))
    assert warned == [] and notes(table) == [] and table.schema.metadata is None


def test_compare_of_imported_scores_says_so_when_it_computes_nothing(release: Path) -> None:
    """Only imported scores, nothing computed: the command still names the imported scores
    it used as they are (before, only its summary did, printed when it computed something),
    and the API says the same."""
    said = _ok(cli(release, "compare", "-m", "MetricX", "-b", "sysA", "-r", "ref-A", "-n",
                   "100", "-f", "json")).stderr.splitlines()
    table, warned = _api(release, lambda d: d.compare("MetricX", baseline="sysA", refs="ref-A",
                                                      resamples=100))
    told = [line for line in said if line.startswith(IMPORTED)]
    assert told == [IMPORTED + "MetricX (6 pairs)"]
    assert not any(line.startswith("computed") for line in said)
    assert warned == notes(table) and told[0] in warned


def test_meta_protocol_notes_say_what_was_left_out(sample: Path) -> None:
    """Against ref-A alone, ref-B is a human translation, left out, as `meta` says in its
    notes: `meta protocol` said so only in its summary, so ``meta_protocol`` gave no word of
    it (nor of the targets it dropped for want of a human score), where ``meta`` did."""
    done = _ok(cli(sample, "meta", "protocol", "wmt24", "-c", "DA-raw", "-m", "BLEU", "-r",
                   "ref-A", "-B", "20", "-f", "json"))
    summary = json.loads(done.stdout)["run"]["summary"]
    table, warned = _api(sample, lambda d: d.meta_protocol("wmt24", "DA-raw", metrics="BLEU",
                                                           refs="ref-A", n_resamples=20))
    assert "sample left out: ref-B (human translation)" in summary
    assert warned == notes(table) == [*done.stderr.splitlines(),
                                      "sample left out: ref-B (human translation)"]
