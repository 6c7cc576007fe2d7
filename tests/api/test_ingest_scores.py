"""Scores computed elsewhere come in from Python as from `ulcdb ingest scores`: a notebook
that built its store with ``ingest_testbed`` and ``ingest_assessments`` had no way to bring
its COMET scores in but the command line.  Same files, same rows stored, same summary, same
refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import sample_store
from cli_helpers import ulcdb as cli

import ulcdb
from ulcdb.errors import ChoiceError, ReadOnly, UlcdbError

SYSTEMS = ("sysA", "sysB", "sysC", "sysD")
STORED = ("select metric, translator, refset, level, seg_id, value from scores where metric = "
          "'Ximp' order by all")


def _scores(tmp: Path) -> Path:
    """System scores of a new metric, against ref-A and ref-B as one set."""
    table = tmp / "ximp.csv"
    table.write_text("metric,target,refset,level,value\n" + "".join(
        f"Ximp,{s},ref-A+ref-B,sys,0.{i}\n" for i, s in enumerate(SYSTEMS, 1)))
    return table


def test_ingest_scores_stores_what_the_command_stores(tmp_path: Path) -> None:
    table = _scores(tmp_path)
    by_cli, by_api = sample_store(tmp_path / "cli.duckdb"), sample_store(tmp_path / "api.duckdb")
    said = cli(by_cli, "ingest", "scores", table, "--format", "table", "--lower-is-better",
               "--range-min", "0", "--range-max", "1")
    assert said.exit_code == 0, said.output
    with ulcdb.open(by_api) as db:
        report = db.ingest_scores(table, fmt="table", higher_is_better=False, range_min=0,
                                  range_max=1)
        rows = db.sql(STORED).to_pylist()
        metric = next(m for m in db.metrics() if m.name == "Ximp")
    assert said.stdout.strip() == report.summary() == (
        "1 file(s): stored scores sys 4; new metrics: Ximp")
    assert [(r["translator"], r["refset"], r["value"]) for r in rows] == [
        (s, "ref-A+ref-B", v) for s, v in zip(SYSTEMS, (0.1, 0.2, 0.3, 0.4), strict=True)]
    assert (metric.higher_is_better, metric.range_min, metric.range_max) == (False, 0.0, 1.0)
    with ulcdb.open(by_cli) as db:
        assert db.sql(STORED).to_pylist() == rows


@pytest.mark.parametrize(("args", "kwargs", "kind", "message"), [
    (["--format", "xml"], {"fmt": "xml"}, ChoiceError,
     "format 'xml': choose auto, iqxml, mtme, wmt, wmt20, nist, sacrebleu, comet, table or "
     "lines (did you mean iqxml?)"),
    (["--refset-map", "newstestM2020="], {"refset_map": {"newstestM2020": ""}}, UlcdbError,
     "--refset-map takes REFSET=REF[+REF...], got 'newstestM2020='"),
])
def test_ingest_scores_refuses_as_the_command(tmp_path: Path, args: list[str],
                                              kwargs: dict[str, object], kind: type,
                                              message: str) -> None:
    table, db = _scores(tmp_path), sample_store(tmp_path / "s.duckdb")
    with ulcdb.open(db) as database, pytest.raises(kind) as caught:
        database.ingest_scores(table, **kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message
    said = cli(db, "ingest", "scores", table, *args)
    assert said.exit_code == (2 if kind is ChoiceError else 1)
    assert said.output.strip().splitlines()[-1] == f"Error: {message}"


def test_ingest_scores_into_a_read_only_store_is_refused(tmp_path: Path) -> None:
    table, db = _scores(tmp_path), sample_store(tmp_path / "s.duckdb")
    with ulcdb.open(db, read_only=True) as database, pytest.raises(ReadOnly) as caught:
        database.ingest_scores(table)
    said = cli(db, "--read-only", "ingest", "scores", table)
    assert said.output == f"Error: {caught.value}\n" == (
        f"Error: cannot write what this command stores: the store {db} is open read-only\n")
