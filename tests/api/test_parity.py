"""One way in (issue 26): each command run from the command line (`-f json`) and from Python
(``ulcdb.open``) on the bundled sample gives the same rows, and the same mistakes the same
error message, since both call ``ulcdb.ops``."""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from cli_helpers import ulcdb as cli

import ulcdb
from ulcdb.api import Database
from ulcdb.errors import (
    ChoiceError,
    MetaError,
    NotFound,
    OutputError,
    QueryError,
    ReadOnly,
    UlcdbError,
)

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
NOWHERE = Path(tempfile.gettempdir()) / "ulcdb-parity-not-written"  # errors come first
SYSTEM_ONLY = "Xsys"  # a metric imported with system-level scores only


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store of the sample (BLEU, chrF and NIST scored), and Xsys imported at
    system level only."""
    path = tmp_path_factory.mktemp("parity") / "sample.duckdb"
    result = cli(path, "demo", SAMPLE, "-m", "BLEU,chrF,NIST")
    assert result.exit_code == 0, result.output
    table = path.parent / "xsys.csv"
    table.write_text("metric,target,refset,level,value\n" + "".join(
        f"{SYSTEM_ONLY},{s},ref-A,sys,0.{i}\n" for i, s in enumerate(
            ("sysA", "sysB", "sysC", "sysD"), 1)))
    result = cli(path, "ingest", "scores", table, "--format", "table")
    assert result.exit_code == 0, result.output
    return path


def _plain(value: Any) -> Any:
    """A value as `-f json` prints it: NaN and infinities as null."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _records(table: pa.Table) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in table.to_pylist()]


def _json(db: Path, *args: object) -> Any:
    result = cli(db, *args, "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _api(db: Path, call: Callable[[Database], Any], read_only: bool = False) -> Any:
    """``call(database)`` on the store, closed again so the CLI can open it."""
    with ulcdb.open(db, read_only=read_only) as database:
        return call(database)


ROWS = [
    (("score", "-m", "BLEU,chrF", "-G", "all"),
     lambda d: d.score("BLEU,chrF", level="all")),
    (("score", "-m", "BLEU,NIST", "-s", "sysB,sysA", "-G", "doc", "--queen",
      "--sort", "BLEU"),
     lambda d: d.score("BLEU,NIST", systems="sysB,sysA", level="doc", queen=True,
                       sort="BLEU")),
    (("queen", "-m", "BLEU,NIST", "-G", "all", "--doref"),
     lambda d: d.queen("BLEU,NIST", level="all", doref=True)),
    (("queen", "-m", "BLEU,chrF", "-G", "seg", "-T", "1-3", "--strict"),
     lambda d: d.queen("BLEU,chrF", level="seg", segments="1-3", strict=True)),
    (("king", "-m", "BLEU,chrF,NIST", "-G", "sys", "--orange"),
     lambda d: d.king("BLEU,chrF,NIST", level="sys", orange=True)),
    (("king", "-m", "BLEU,chrF,NIST", "-G", "doc", "--optimize"),
     lambda d: d.king("BLEU,chrF,NIST", level="doc", search="optimize")),
    (("jack", "-m", "BLEU,NIST", "-G", "all"),
     lambda d: d.jack("BLEU,NIST", level="all")),
    # --strict and -TT change JACK (and QUEEN-based KING); the API's king and jack had neither
    (("jack", "-m", "BLEU,chrF", "-G", "all", "--strict"),
     lambda d: d.jack("BLEU,chrF", level="all", strict=True)),
    (("jack", "-m", "BLEU,chrF", "-G", "seg", "-TT", "-T", "2-9"),
     lambda d: d.jack("BLEU,chrF", level="seg", trans_topic=True, segments="2-9")),
    (("king", "-m", "BLEU,chrF", "-G", "seg", "--strict", "-TT"),
     lambda d: d.king("BLEU,chrF", level="seg", strict=True, trans_topic=True)),
    (("compare", "-b", "sysA", "-m", "BLEU,chrF", "-r", "ref-A", "-n", "200"),
     lambda d: d.compare("BLEU,chrF", baseline="sysA", refs="ref-A", resamples=200)),
    (("compare", "-m", "BLEU", "-n", "200", "--by", "doc"),
     lambda d: d.compare("BLEU", resamples=200, by="doc")),
    (("compare", "-m", "chrF", "-n", "200", "--pairs"),
     lambda d: d.compare("chrF", resamples=200, pairs=True)),
    (("compare", "--analysis", "word-freq", "-b", "sysA", "-r", "ref-A"),
     lambda d: d.compare(analysis="word-freq", baseline="sysA", refs="ref-A")),
    (("sql", "select metric, translator, value from scores where level = 'sys' "
      "order by all"),
     lambda d: d.sql("select metric, translator, value from scores where level = 'sys' "
                     "order by all")),
]


@pytest.mark.parametrize(("args", "call"), ROWS, ids=[" ".join(a[:3]) for a, _ in ROWS])
def test_same_rows(db: Path, args: tuple[str, ...], call: Callable[[Database], pa.Table]
                   ) -> None:
    want = _json(db, *args)
    got = _records(_api(db, call))
    assert got == want
    assert want  # rows to compare, not two empty lists


def test_meta_same_rows(db: Path) -> None:
    args = ("-c", "DA-raw", "-m", "BLEU,chrF,NIST", "--coef", "pearson,kendall_tau_b", "-B",
            "100")
    for level in ("sys", "seg"):
        want = _json(db, "meta", "-G", level, *args)["results"]
        got = _records(_api(db, lambda d, lv=level: d.meta(  # type: ignore[misc]
            "DA-raw", level=lv, metrics="BLEU,chrF,NIST",
            coefficients=["pearson", "kendall_tau_b"], n_resamples=100)))
        # the same numbers; DuckDB's parallel sums may differ in the last bit between runs
        assert [list(r) for r in got] == [list(r) for r in want] and len(want) == 3
        assert got == [{k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v
                        for k, v in r.items()} for r in want]


def _near(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records whose numbers match to 1e-12 (DuckDB's parallel sums may differ in the last
    bit between runs)."""
    return [{k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v
             for k, v in r.items()} for r in records]


def test_meta_significance_comes_with_the_table(db: Path) -> None:
    """`meta --sig` and `meta protocol` print the tests of every pair of metrics beside the
    results (-f json's "significance"); ``meta(sig=...)`` computed them and dropped them,
    ``meta_protocol`` dropped its own: both travel with the table, read by
    ``ulcdb.api.significance``."""
    from ulcdb.api import significance

    args = ("-c", "DA-raw", "-G", "seg", "-m", "BLEU,chrF,NIST", "--coef", "pearson", "-B",
            "100")
    want = _json(db, "meta", *args, "--sig", "permutation")
    table = _api(db, lambda d: d.meta("DA-raw", level="seg", metrics="BLEU,chrF,NIST",
                                      coefficients=["pearson"], n_resamples=100,
                                      sig="permutation"))
    assert _records(table) == _near(want["results"]) and len(want["significance"]) == 3
    assert significance(table).to_pylist() == _near(want["significance"])
    assert significance(_api(db, lambda d: d.meta("DA-raw", metrics="BLEU,chrF",
                                                  n_resamples=10))).num_rows == 0
    want = _json(db, "meta", "protocol", "wmt24", "-c", "DA-raw", "-m", "BLEU,chrF,NIST",
                 "-B", "20")
    table = _api(db, lambda d: d.meta_protocol("wmt24", "DA-raw", metrics="BLEU,chrF,NIST",
                                               n_resamples=20))
    assert _records(table) == _near(want["results"]) and want["significance"]
    assert significance(table).to_pylist() == _near(want["significance"])


def test_meta_reads_the_readings_as_the_command_spells_them(db: Path) -> None:
    """`--reading seg-mean` is the API's reading="seg-mean" too (it was refused: "reading
    must be one of metric, seg_mean, doc_mean, not 'seg-mean'"), in meta and meta_protocol."""
    want = _json(db, "meta", "-c", "DA-raw", "-m", "BLEU,chrF", "--reading", "seg-mean", "-B",
                 "50")["results"]
    got = _records(_api(db, lambda d: d.meta("DA-raw", metrics="BLEU,chrF", reading="seg-mean",
                                             n_resamples=50)))
    assert got == _near(want) and {r["reading"] for r in got} == {"seg_mean"}
    want = _json(db, "meta", "protocol", "wmt24", "-c", "DA-raw", "-m", "BLEU,chrF",
                 "--reading", "doc-mean", "-B", "0")["results"]
    assert _records(_api(db, lambda d: d.meta_protocol(
        "wmt24", "DA-raw", metrics="BLEU,chrF", reading="doc-mean", n_resamples=0))) == _near(
        want)


def test_meta_takes_names_as_a_string_too(db: Path) -> None:
    """coefficients, exclude and testbeds as -t, --coef and -x take them, comma-separated:
    a string was read letter by letter ("no test bed named 's'")."""
    want = _json(db, "meta", "-c", "DA-raw", "-m", "BLEU,chrF", "--coef", "pearson,spearman",
                 "-x", "sysD", "-B", "20")["results"]
    got = _records(_api(db, lambda d: d.meta("DA-raw", metrics="BLEU,chrF",
                                             coefficients="pearson,spearman", exclude="sysD",
                                             n_resamples=20)))
    assert got == _near(want) and {r["n_targets"] for r in got} == {3}
    want = _json(db, "meta", "protocol", "wmt24", "-t", "sample", "-c", "DA-raw", "-m",
                 "BLEU,chrF", "-B", "0")["results"]
    assert _records(_api(db, lambda d: d.meta_protocol(
        "wmt24", "DA-raw", testbeds="sample", metrics="BLEU,chrF", n_resamples=0))) == _near(
        want)


def test_meta_sorts_equal_coefficients_in_one_order() -> None:
    """`meta --sort pearson` ordered metrics of equal correlation (BLEU under two variants of
    identical scores) by the last bit of their values, which DuckDB's parallel sums change
    from run to run: the command and the API listed them in different orders.  Values equal
    to 12 decimals keep the order they were evaluated in."""
    from types import SimpleNamespace

    from ulcdb.meta import MetaReport

    values = {("BLEU", "case:mixed"): 0.8148252392773151,
              ("BLEU", "case:mixed|ann:x"): 0.8148252392773153,
              ("chrF", "case:mixed"): 0.8275850807765974, ("TER", "case:mixed"): math.nan}
    report = SimpleNamespace(metrics=lambda: list(values),
                             value=lambda metric, variant, coef: values[metric, variant])
    assert MetaReport.ordered(report, "pearson") == [  # type: ignore[arg-type]
        ("chrF", "case:mixed"), ("BLEU", "case:mixed"), ("BLEU", "case:mixed|ann:x"),
        ("TER", "case:mixed")]


def test_export_writes_the_same_files(db: Path, tmp_path: Path) -> None:
    result = cli(db, "export", "nist", tmp_path / "cli", "-m", "BLEU", "--level", "sys")
    assert result.exit_code == 0, result.output
    _api(db, lambda d: d.export("nist", tmp_path / "api", metrics=["BLEU"], levels=["sys"]))
    files = sorted(p.relative_to(tmp_path / "cli") for p in (tmp_path / "cli").rglob("*.scr"))
    assert files and files == sorted(p.relative_to(tmp_path / "api")
                                     for p in (tmp_path / "api").rglob("*.scr"))
    for name in files:
        assert (tmp_path / "cli" / name).read_text() == (tmp_path / "api" / name).read_text()
    result = cli(db, "export", "table", "scores", tmp_path / "cli.csv")
    assert result.exit_code == 0, result.output
    n = _api(db, lambda d: d.export_table("scores", tmp_path / "api.csv"))
    assert result.stdout.strip() == f"wrote {n} rows to {tmp_path / 'cli.csv'}"
    assert (tmp_path / "cli.csv").read_text() == (tmp_path / "api.csv").read_text()


def test_export_takes_names_as_score_does(db: Path, tmp_path: Path) -> None:
    """One name, or several comma-separated, as a string: the selection of the list (it
    was read letter by letter: "no scores of metric 'B'")."""
    listed = _api(db, lambda d: d.export("nist", tmp_path / "list", metrics=["BLEU", "chrF"],
                                         targets=["sysA"], levels=["sys"]))
    named = _api(db, lambda d: d.export("nist", tmp_path / "str", metrics="BLEU,chrF",
                                        targets="sysA", levels="sys"))
    assert {p.name for p in listed} == {"BLEU-sys.scr", "chrF-sys.scr"}
    assert [p.relative_to(tmp_path / "str") for p in named] == [
        p.relative_to(tmp_path / "list") for p in listed]


def test_export_says_a_metric_has_fewer_targets(db: Path, tmp_path: Path) -> None:
    """Xsys is imported for the 4 systems against ref-A, where BLEU also has the references
    ref-B and ref-C: the export writes both as they are and says so (it said only "wrote N
    files"), the same from the command line and from Python."""
    note = ("Xsys has scores of fewer targets than another metric (4 of 6 against ref-A): "
            "written as they are")
    result = cli(db, "export", "nist", tmp_path / "cli", "-m", f"BLEU,{SYSTEM_ONLY}",
                 "--level", "sys")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == note
    with pytest.warns(ulcdb.UlcdbNote) as told:
        _api(db, lambda d: d.export("nist", tmp_path / "api", metrics=f"BLEU,{SYSTEM_ONLY}",
                                    levels="sys"))
    assert [str(w.message) for w in told] == [note]
    result = cli(db, "export", "nist", tmp_path / "one", "-m", "BLEU", "--level", "sys")
    assert result.exit_code == 0 and not result.stderr  # alone, nothing to compare with


def test_export_refuses_levels_its_format_does_not_choose(db: Path, tmp_path: Path) -> None:
    """`ulcdb export iqxml|sacrebleu|comet` have no --level: every level they hold is
    written, so levels=["seg"] would be ignored without a word."""
    for fmt in ("iqxml", "sacrebleu", "comet"):
        with pytest.raises(ChoiceError) as raised:
            _api(db, lambda d, f=fmt: d.export(f, tmp_path / f, levels=["seg"]))  # type: ignore[misc]
        assert str(raised.value) == (f"export {fmt} writes every level its format holds: "
                                     "levels are chosen for mtme, wmt and nist only")
    assert not list(tmp_path.iterdir())


def test_ingest_assessments_takes_scale_and_rename(db: Path, tmp_path: Path) -> None:
    """`ingest assessments --scale --rename` from Python: the same refusals, the same scale
    recorded (the API had neither, so a criterion's scale, which DARR's threshold needs, could
    not be recorded from Python)."""
    adequacy = SAMPLE / "human" / "adequacy.csv"  # scores 1..5
    copy = tmp_path / "copy.duckdb"
    for args, options in (
            (("--scale", "0:3"), {"scale": "0:3"}),  # a 5 lies outside
            (("--scale", "0-5"), {"scale": "0-5"}),  # not MIN:MAX
            (("--rename", "sysA=sysZ"), {"rename": {"sysA": "sysZ"}})):  # no such system
        result = cli(db, "ingest", "assessments", adequacy, "-c", "adeq", *args)
        assert result.exit_code == 1, result.output
        shutil.copy(db, copy)
        with pytest.raises(UlcdbError) as raised:
            _api(copy, lambda d, o=options: d.ingest_assessments(  # type: ignore[misc]
                adequacy, criterion="adeq", **o))
        assert result.output == f"Error: {raised.value}\n"
    shutil.copy(db, copy)
    result = cli(copy, "ingest", "assessments", adequacy, "-c", "adeq", "--scale", "1:5",
                 "--rename", "sysA=sysA")
    assert result.exit_code == 0, result.output
    query = "select name, scale_min, scale_max from criterion where name = 'adeq'"
    want = _api(copy, lambda d: d.sql(query)).to_pylist()
    shutil.copy(db, copy)
    report = _api(copy, lambda d: d.ingest_assessments(adequacy, criterion="adeq",
                                                       scale="1:5", rename={"sysA": "sysA"}))
    assert result.stdout.strip() == report.summary()
    assert _api(copy, lambda d: d.sql(query)).to_pylist() == want == [
        {"name": "adeq", "scale_min": 1.0, "scale_max": 5.0}]


def test_qarla_remakes_scores_as_the_commands_do(db: Path, tmp_path: Path) -> None:
    """queen, king and jack take remake (`--remake`): the scores computed again, the same
    rows."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    batches = "select max(batch_id) as n from score_batch"  # a remake stores new batches
    for call, args in ((lambda d: d.queen("BLEU", remake=True), ("queen", "-m", "BLEU")),
                       (lambda d: d.king("BLEU", remake=True), ("king", "-m", "BLEU")),
                       (lambda d: d.jack("BLEU", remake=True), ("jack", "-m", "BLEU"))):
        before = _api(copy, lambda d: d.sql(batches)).to_pylist()[0]["n"]
        assert _records(_api(copy, call)) == _json(copy, *args)
        assert _api(copy, lambda d: d.sql(batches)).to_pylist()[0]["n"] > before


def test_delete_says_the_same(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    result = cli(copy, "delete", "scores", "-m", "NIST", "-s", "sysA", "--yes")
    assert result.exit_code == 0, result.output
    shutil.copy(db, copy)
    what = _api(copy, lambda d: d.delete_scores("NIST", targets="sysA"))
    assert result.stdout.strip() == f"deleted {what}"
    count = "select count(*) as n from scores where metric = 'NIST' and translator = 'sysA'"
    assert _api(copy, lambda d: d.sql(count)).to_pylist() == [{"n": 0}]


MISTAKES: list[tuple[tuple[str, ...], Callable[[Database], Any], type[UlcdbError]]] = [
    (("score", "-m", "BLEU", "-G", "system"), lambda d: d.score("BLEU", level="system"),
     ChoiceError),
    (("queen", "-m", "BLEU,NIST", "-G", "sytem"), lambda d: d.queen("BLEU,NIST",
                                                                  level="sytem"),
     ChoiceError),
    (("meta", "-c", "DA-raw", "-G", "system"), lambda d: d.meta("DA-raw", level="system"),
     ChoiceError),
    (("score", "-m", "BLUE"), lambda d: d.score("BLUE"), NotFound),
    (("king", "-m", "BLEU,chrFF"), lambda d: d.king("BLEU,chrFF"), NotFound),
    (("score", "-m", "BLEU", "-s", "sysE"), lambda d: d.score("BLEU", systems="sysE"),
     NotFound),
    (("compare", "-b", "sysE", "-m", "BLEU"), lambda d: d.compare("BLEU", baseline="sysE"),
     UlcdbError),
    (("queen", "-m", SYSTEM_ONLY), lambda d: d.queen(SYSTEM_ONLY), NotFound),
    (("meta", "-c", "DA-raw", "-m", "-WER"), lambda d: d.meta("DA-raw", metrics="-WER"),
     MetaError),
    (("sql", "select * from scroes"), lambda d: d.sql("select * from scroes"), QueryError),
    (("sql", "-- nothing"), lambda d: d.sql("-- nothing"), QueryError),
    (("tune", "BLEU"), lambda d: d.tune("BLEU"), UlcdbError),
    (("tune", "TINE", "-G", "doc"), lambda d: d.tune("TINE", level="doc"), ChoiceError),
    (("tune", "TINE", "-c", "MQM"), lambda d: d.tune("TINE", criterion="MQM"), MetaError),
    (("export", "nist", str(NOWHERE), "--level", "system"),
     lambda d: d.export("nist", str(NOWHERE), levels=["system"]), ChoiceError),
    (("export", "nist", str(NOWHERE), "-m", "BLUE"),
     lambda d: d.export("nist", str(NOWHERE), metrics=["BLUE"]), UlcdbError),
    (("export", "nist", str(SAMPLE / "ULC.config"), "-m", "BLEU"),  # a file, not a folder
     lambda d: d.export("nist", SAMPLE / "ULC.config", metrics=["BLEU"]), OutputError),
    (("export", "table", "scores", str(SAMPLE)),  # a folder, not a file
     lambda d: d.export_table("scores", SAMPLE), OutputError),
    (("delete", "system", "sysE", "--yes"), lambda d: d.delete_translator("sysE"), NotFound),
    (("delete", "scores", "-m", "BLUE", "--yes"), lambda d: d.delete_scores("BLUE"),
     UlcdbError),
]


@pytest.mark.parametrize(("args", "call", "kind"), MISTAKES,
                         ids=[" ".join(a[:4]) for a, _, _ in MISTAKES])
def test_same_error(db: Path, args: tuple[str, ...], call: Callable[[Database], Any],
                    kind: type[UlcdbError]) -> None:
    """The library's one line from both; a bad choice exits 2 as a usage error (it was
    Typer's box around the message), any other mistake 1."""
    result = cli(db, *args)
    with pytest.raises(kind) as raised:
        _api(db, call)
    assert result.output == f"Error: {raised.value}\n"
    assert result.exit_code == (2 if isinstance(raised.value, ChoiceError) else 1)


# Values the command line's parser refuses (its choices listed in --help) that the API took
# without a word: --ulc rwa scored with asiya, --unit para resampled segments, --by single
# and search="optimise" ran the default search, role="sytem" found "no sytem named sysA".
REFUSED: list[tuple[tuple[str, ...] | None, Callable[[Database], Any], str]] = [
    (("score", "-m", "BLEU", "--ulc", "rwa"), lambda d: d.score("BLEU", ulc="rwa"),
     "ulc 'rwa': choose asiya, raw or seg-mean (did you mean raw?)"),
    (("compare", "-b", "sysA", "-m", "BLEU", "--unit", "para"),
     lambda d: d.compare("BLEU", baseline="sysA", unit="para"),
     "unit 'para': choose seg or doc"),
    (("king", "-m", "BLEU,chrF", "--by", "single"), lambda d: d.king("BLEU,chrF", by="single"),
     "by 'single': choose auto, queen or ulc"),
    (None, lambda d: d.king("BLEU,chrF", search="optimise"),
     "search 'optimise': choose optimize or exhaustive (did you mean optimize?)"),
    # the command line's role is a command (`delete system`): click's "No such command"
    (None, lambda d: d.delete_translator("sysA", role="sytem"),
     "role 'sytem': choose system or reference (did you mean system?)"),
    (("export", "iqxml", str(NOWHERE), "--layout", "asiay"),
     lambda d: d.export("iqxml", str(NOWHERE), layout="asiay"),
     "layout 'asiay': choose iqmt or asiya (did you mean asiya?)"),
    # the options Typer refused in its usage box, the API in words of its own or not at all
    (("compare", "-m", "BLEU", "--method", "bx"), lambda d: d.compare("BLEU", method="bx"),
     "method 'bx': choose bs or ar"),
    (("compare", "--analysis", "words", "-b", "sysA"),
     lambda d: d.compare(analysis="words", baseline="sysA"),
     "analysis 'words': choose word-freq or category (did you mean word-freq?)"),
    (("export", "table", "scores", str(NOWHERE), "--format", "xls"),
     lambda d: d.export_table("scores", NOWHERE, fmt="xls"),
     "format 'xls': choose csv, tsv, parquet or json"),
    (("ingest", "testbed", str(SAMPLE / "ULC.config"), "--format", "ulc"),
     lambda d: d.ingest_testbed(SAMPLE / "ULC.config", fmt="ulc"),
     "format 'ulc': choose auto, plain, sgml, wmt, mtme, config or long"),
    (("ingest", "assessments", str(SAMPLE / "human" / "adequacy.csv"), "-c", "a", "--format",
      "csv"), lambda d: d.ingest_assessments(SAMPLE / "human" / "adequacy.csv", criterion="a",
                                              fmt="csv"),
     "format 'csv': choose auto, nist, mtme, table or mqm"),
    # --level was taken and ignored by formats other than table: 120 assessments stored
    (("ingest", "assessments", str(SAMPLE / "human" / "adequacy.csv"), "-c", "a", "--level",
      "system"), lambda d: d.ingest_assessments(SAMPLE / "human" / "adequacy.csv",
                                                criterion="a", level="system"),
     "level 'system': choose seg, doc or sys (did you mean sys?)"),
    (("meta", "protocol", "wmt25", "-c", "DA-raw"),
     lambda d: d.meta_protocol("wmt25", "DA-raw"),
     "protocol 'wmt25': choose wmt23 or wmt24 (did you mean wmt23?)"),
    (None, lambda d: d.export("scr", str(NOWHERE)),
     "format 'scr': choose iqxml, mtme, wmt, nist, sacrebleu or comet"),
]

# meta's (MetaTask's): the same line from `ulcdb meta`, caught as ChoiceError and MetaError
META_REFUSED: list[tuple[tuple[str, ...], dict[str, Any], str]] = [
    (("--grouping", "flt"), {"grouping": "flt"},
     "grouping 'flt': choose flat, item or system (did you mean flat?)"),
    (("--reading", "seg_man"), {"reading": "seg_man"},
     "reading 'seg_man': choose metric, seg-mean or doc-mean (did you mean seg-mean?)"),
    (("--human", "derive"), {"human_from": "derive"},
     "human source 'derive': choose auto, ingested or derived (did you mean derived?)"),
    (("--resample", "para"), {"resample": "para"}, "resample 'para': choose seg, doc or sys"),
    (("-G", "sys", "--resample", "seg"), {"level": "sys", "resample": "seg"},
     "at sys level, resample 'seg': choose sys"),
    (("--acc-ties", "eq"), {"accuracy_ties": "eq"},
     "accuracy ties 'eq': choose acc_eq or skip_human_ties"),
    (("--coef", "pearson,kendal"), {"coefficients": "pearson,kendal"},
     "coefficient 'kendal': choose pearson, spearman, kendall_tau_b, kendall_tau_c, darr_tau, "
     "darr_tau_noties or accuracy (did you mean kendall_tau_b?)"),
    (("--sig", "perm"), {"sig": "perm"},
     "significance test 'perm': choose paired-bootstrap or permutation (did you mean "
     "permutation?)"),
]


@pytest.mark.parametrize(("args", "call", "message"), REFUSED,
                         ids=[m.split(" ")[0] for _, _, m in REFUSED])
def test_what_the_parser_refuses_the_api_refuses(db: Path, args: tuple[str, ...] | None,
                                                 call: Callable[[Database], Any],
                                                 message: str) -> None:
    """The API names the choices, and nothing is scored, written or deleted first; the
    command line says the same line (it said Typer's "Invalid value for '--ulc': 'rwa' is
    not one of 'asiya', 'raw', 'seg-mean'." in a box)."""
    if args is not None:
        result = cli(db, *args)
        assert (result.exit_code, result.output) == (2, f"Error: {message}\n")
    before = db.read_bytes()
    with pytest.raises(ChoiceError) as raised:
        _api(db, call)
    assert str(raised.value) == message
    assert db.read_bytes() == before and not NOWHERE.exists()


@pytest.mark.parametrize(("args", "options", "message"), META_REFUSED,
                         ids=[m.split(" '")[0] for _, _, m in META_REFUSED])
def test_meta_refuses_a_choice_as_every_command(db: Path, args: tuple[str, ...],
                                                options: dict[str, Any], message: str) -> None:
    """MetaTask said "grouping must be one of flat, item, system, not 'flt'" (a MetaError),
    every other command "grouping 'flt': choose ..." (a ChoiceError); the command line
    printed Typer's box for its options.  One line now, one exception that both ``except
    ChoiceError`` and ``except MetaError`` (as before) catch."""
    result = cli(db, "meta", "-c", "DA-raw", "-m", "BLEU", "-B", "0", *args)
    assert (result.exit_code, result.output) == (2, f"Error: {message}\n")
    for kind in (ChoiceError, MetaError):
        with pytest.raises(kind) as raised:
            _api(db, lambda d: d.meta("DA-raw", metrics="BLEU", n_resamples=0, **options))
        assert str(raised.value) == message


def test_read_only_store_refuses_to_compute_in_one_message(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    result = cli(copy, "--read-only", "score", "--metrics=-WER")
    with pytest.raises(ReadOnly) as raised:
        _api(copy, lambda d: d.score("-WER"), read_only=True)
    assert str(raised.value) == (f"cannot write the missing scores of -WER: the store {copy} "
                                 "is open read-only")
    assert result.exit_code == 1 and result.output == f"Error: {raised.value}\n"
    # nothing was written, and what is stored is read as before
    assert _json(copy, "--read-only", "score", "-m", "BLEU") == _records(
        _api(copy, lambda d: d.score("BLEU"), read_only=True))
    assert _api(copy, lambda d: d.sql("select count(*) as n from scores where metric = "
                                      "'-WER'")).to_pylist() == [{"n": 0}]


def test_read_only_cli_writes_nothing(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    before = copy.read_bytes()
    for args in (("init", "--force"), ("delete", "system", "sysA", "--yes"),
                 ("ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c", "other"),
                 ("demo", SAMPLE)):
        result = cli(copy, "--read-only", *args)
        assert result.exit_code == 1 and "is open read-only" in result.output, args
        assert copy.read_bytes() == before, args


@pytest.mark.parametrize(("args", "call"), [
    (("ingest", "testbed", "--name", "more", "--source", SAMPLE / "plain" / "source.es.txt",
      "--ref", f"ref-A={SAMPLE / 'plain' / 'refs' / 'ref-A.en.txt'}"),
     lambda d: d.ingest_testbed(name="more", source=SAMPLE / "plain" / "source.es.txt",
                                refs={"ref-A": SAMPLE / "plain" / "refs" / "ref-A.en.txt"})),
    (("ingest", "assessments", SAMPLE / "human" / "da.tsv", "--replace", "--skip-unknown"),
     lambda d: d.ingest_assessments(SAMPLE / "human" / "da.tsv", replace=True,
                                    skip_unknown=True)),
])
def test_read_only_store_refuses_an_ingest_in_one_message(
        db: Path, tmp_path: Path, args: tuple[object, ...],
        call: Callable[[Database], Any]) -> None:
    """An ingest into a store opened read-only: the command's ReadOnly line; from Python it
    was DuckDB's InvalidInputException ('Cannot execute statement of type "INSERT" on
    database ... attached in read-only mode')."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    result = cli(copy, "--read-only", *args)
    with pytest.raises(ReadOnly) as raised:
        _api(copy, call, read_only=True)
    assert str(raised.value) == (f"cannot write what this command stores: the store {copy} "
                                 "is open read-only")
    assert result.exit_code == 1 and result.output == f"Error: {raised.value}\n"
