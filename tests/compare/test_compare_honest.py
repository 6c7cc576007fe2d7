"""`ulcdb compare` says what its numbers answer (issue 25, section 1), on the WMT21 en-de
sample: resamples enough for clusters to split (or a refusal naming the n needed), a
reference compared as a system against the other references only (checked against
sacrebleu), no test on too few units, provenance with the output, and reference sets named
as every table prints them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from tests.cli_helpers import ingest_ende, ulcdb
from ulcdb.compare import CompareError, CompareTask
from ulcdb.stats.sacrebleu_significance import resamples_needed
from ulcdb.store.database import Store


@pytest.fixture(scope="module")
def db(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_ende(tmp_path_factory.mktemp("honest") / "h.duckdb", ende_sample)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _json(db: Path, *args: str) -> list[dict]:
    result = ulcdb(db, "compare", *args, "-f", "json", "-j", "1")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _error(db: Path, *args: str) -> str:
    result = ulcdb(db, "compare", *args, "-j", "1")
    assert result.exit_code == 1, result.output
    (line,) = [x for x in result.output.splitlines() if x.strip() and "computed" not in x]
    return line


def test_resamples_needed_by_hand() -> None:
    """Holm over 190 pairs multiplies the smallest p-value 1/(n+1) by 190: below 0.05 from
    n = 3800 on (190/3801 = 0.04999), not at 3799 (190/3800 = 0.05)."""
    assert resamples_needed(190, 0.05) == 3800
    assert resamples_needed(1, 0.05) == 20  # 1/21 < 0.05 = 1/20
    assert resamples_needed(6, 0.01) == 600


def test_all_pairs_get_resamples_that_can_split_clusters(db: Path) -> None:
    """20 systems, 190 pairs: sacrebleu's 1000 resamples give no adjusted p below
    190/1001 = 0.19, so every system fell into one cluster whatever the data; now 8000 are
    drawn (smallest adjusted p 190/8001 = 0.024 <= 0.05/2) and the header says why."""
    rows = _json(db, "-m", "BLEU")
    assert {r["n_samples"] for r in rows} == {8000} and len(rows) == 20
    pairs = _json(db, "-m", "BLEU", "--pairs")
    assert len(pairs) == 190
    assert min(p["p_holm"] for p in pairs) >= 190 / 8001
    table = ulcdb(db, "compare", "-m", "BLEU")
    assert ("8000 resamples chosen for 190 pairs per metric: the smallest p-value after "
            "Holm-Bonferroni is 190/8001 = 0.0237 (< 0.05); sacrebleu's default 1000 could "
            "give no less than 0.1898") in table.stdout.replace("\n", " ")
    # a small comparison keeps sacrebleu's default (and its p-values, see test_compare.py)
    assert {r["n_samples"] for r in _json(db, "-m", "BLEU", "-s", "ICL,UF,P3AI")} == {1000}


@pytest.mark.parametrize("by", [(), ("--by", "length")])
def test_too_few_resamples_are_refused_with_the_n_needed(db: Path, by: tuple[str, ...]) -> None:
    line = _error(db, "-m", "BLEU", "-n", "1000", *by)
    assert line == ("Error: --resamples 1000 cannot give a p-value below 0.05 after "
                    "Holm-Bonferroni over 190 pairs (the smallest is 190/1001 = 0.19): use at "
                    "least 3800, or leave it out (8000)")
    with pytest.raises(CompareError, match="use at least 3800"):
        CompareTask("ende", ("BLEU",), tuple(f"s{i}" for i in range(20)), "ref-A",
                    "case:mixed", resamples=3799)
    CompareTask("ende", ("BLEU",), tuple(f"s{i}" for i in range(20)), "ref-A", "case:mixed",
                resamples=3800)


@pytest.mark.parametrize("n", ["0", "-5"])
def test_non_positive_resamples_are_refused(db: Path, n: str) -> None:
    line = _error(db, "-m", "BLEU", "-b", "ICL", "-s", "UF", "-n", n)
    assert line == (f"Error: --resamples must be a positive number, not {n} (leave it out "
                    "for the default, 1000)")


def test_reference_as_baseline_against_the_other_references(db: Path,
                                                            ende_sample: Path) -> None:
    """-b ref-A: ref-A and the systems are scored against ref-B, ref-C and ref-D only (the
    human-parity question); ref-A's BLEU equals sacrebleu's against those three, and no
    score of a translation against a set holding it is stored."""
    rows = _json(db, "-b", "ref-A", "-s", "Online-W,ICL", "-m", "BLEU")
    others = ["ref-B.draft-cd9d313", "ref-C", "ref-D"]
    refs = [_lines(ende_sample / "refs" / f"{r}.de.txt") for r in others]
    for r in rows:
        assert r["refset"] == "ref-B-draft+ref-C+ref-D"
        name = r["system"]
        hyp = _lines(ende_sample / ("refs" if name == "ref-A" else "systems")
                     / f"{name}.de.txt")
        assert 100 * r["score"] == pytest.approx(BLEU().corpus_score(hyp, refs).score,
                                                 rel=1e-12)
    assert next(r for r in rows if r["system"] == "ref-A")["score"] < 0.5  # not 1.0
    header = ulcdb(db, "compare", "-b", "ref-A", "-s", "Online-W,ICL", "-m", "BLEU").stdout
    assert ("ref-A compared as a system (the human-parity question)"
            in header.replace("\n", " "))
    # -s may name references too: each is scored against the references not compared
    pair = _json(db, "-s", "ref-A,ref-C,Online-W", "-m", "BLEU")
    assert {r["refset"] for r in pair} == {"ref-B-draft+ref-D"}
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from scores where "
                            "list_contains(string_split(refset, '+'), translator)") == 0


def test_reference_as_system_with_no_other_reference_is_refused(db: Path) -> None:
    assert _error(db, "-b", "ref-A", "-r", "ref-A", "-s", "ICL", "-m", "chrF") == (
        "Error: ref-A compared as a system leaves no reference to score against: name other "
        "references with -r")


def test_too_few_units_get_no_test_and_say_why(db: Path) -> None:
    """One segment: every resample is the same, so p = 1/(n+1) and the interval 0 whatever
    the systems; below 10 units no interval, no p-value, no star, and the row says why."""
    rows = _json(db, "-b", "ICL", "-s", "UF", "-r", "ref-A", "-m", "BLEU",
                 "--where", "seg_id = 3")
    for r in rows:
        assert (r["n_units"], r["p_value"], r["ci"], r["mean"]) == (1, None, None, None)
        assert r["note"] == "only 1 segment (a test needs 10): no interval, no p-value"
    table = ulcdb(db, "compare", "-b", "ICL", "-s", "UF", "-r", "ref-A", "-m", "BLEU",
                  "--where", "seg_id = 3").stdout
    body = table.split("┡")[1].split("└")[0]  # the rows
    assert "*" not in body and "± 0.0000" not in body
    assert "only 1 segment" in table
    assert "significantly different" not in table  # no test ran: no legend of its star
    byl = _json(db, "-s", "ICL,UF,P3AI", "-r", "ref-A", "-m", "BLEU", "--by", "length")
    small = [r for r in byl if r["n_units"] < 10]
    assert small and all(r["cluster"] is None and r["ci"] is None for r in small)
    assert all(r["cluster"] is not None and r["ci"] is not None
               for r in byl if r["n_units"] >= 10)


def test_provenance_goes_with_the_output(db: Path) -> None:
    args = ("-b", "ICL", "-s", "UF", "-r", "ref-A", "-m", "BLEU,chrF")
    table = ulcdb(db, "compare", *args, "-j", "1")
    assert table.exit_code == 0
    assert table.stdout.startswith(
        "paired bootstrap resampling (1000 resamples, seed 12345) of segments, references "
        "ref-A, variant case:mixed: each system against ICL")
    result = ulcdb(db, "compare", *args, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {(r["refset"], r["variant"]) for r in rows} == {("ref-A", "case:mixed")}
    assert {(r["refset"], r["variant"]) for r in _json(db, *args)} == {("ref-A", "case:mixed")}


def test_printed_refset_name_is_accepted(db: Path) -> None:
    """-r ref-A+ref-C (as every table prints the set) is -r ref-A,ref-C, for compare and
    score."""
    plus = _json(db, "-b", "ICL", "-s", "UF", "-r", "ref-A+ref-C", "-m", "BLEU")
    comma = _json(db, "-b", "ICL", "-s", "UF", "-r", "ref-A,ref-C", "-m", "BLEU")
    assert plus == comma and {r["refset"] for r in plus} == {"ref-A+ref-C"}
    result = ulcdb(db, "score", "-s", "UF", "-r", "ref-A+ref-C", "-m", "BLEU", "-G", "sys",
                   "-f", "csv")
    assert result.exit_code == 0, result.output
    (row,) = list(csv.DictReader(io.StringIO(result.stdout)))
    assert row["refset"] == "ref-A+ref-C"
    assert float(row["BLEU"]) == pytest.approx(plus[1]["score"], rel=1e-12)
    bad = ulcdb(db, "score", "-r", "ref-A+ref-Z", "-m", "BLEU")
    assert bad.exit_code == 1 and "no reference named 'ref-Z'" in bad.output


def test_serve_page_rows_and_header_say_the_same(db: Path) -> None:
    """The comparison page builds its rows and header from the same library results: no
    interval but the reason on too few units, and compare.header's provenance."""
    from ulcdb.compare import CompareTask, run
    from ulcdb.compare.header import header_lines
    from ulcdb.serve.compare_page import _header, rows

    _json(db, "-b", "ICL", "-s", "UF", "-r", "ref-A", "-m", "BLEU")  # the scores stored
    with Store(db, read_only=True) as store:
        report = run(store, CompareTask("ende", ("BLEU",), ("ICL", "UF"), "ref-A",
                                        "case:mixed", "ICL", segments=frozenset({3})))
    shown = rows(report)
    assert [r["interval"] for r in shown] == [
        "only 1 segment (a test needs 10): no interval, no p-value"] * 2
    assert not any(r["significant"] for r in shown)
    assert _header(report) == ". ".join(header_lines(report))
    assert _header(report).startswith("paired bootstrap resampling (1000 resamples, seed "
                                      "12345) of segments, references ref-A, variant "
                                      "case:mixed: each system against ICL")
