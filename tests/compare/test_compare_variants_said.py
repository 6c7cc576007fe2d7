"""`ulcdb compare` of a metric imported under one variant only beside metrics computed under
the test bed's: each is compared on its own variant, and the header said "variant case:lc,
case:mixed" without saying which is whose (issue 25).  Sample test bed; the imported scores
are made up here, their means computed by hand."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[float]]]:
    tmp = tmp_path_factory.mktemp("variants_said")
    path = tmp / "s.duckdb"
    assert ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample"
                 ).exit_code == 0
    values = {s: [round(0.05 * ((i * (k + 3)) % 17), 4) for i in range(1, 13)]
              for k, s in enumerate(("sysA", "sysB", "sysC", "sysD"))}
    scores = tmp / "yimp.tsv"
    scores.write_text("system\tseg_id\tscore\n" + "".join(
        f"{s}\t{i}\t{v}\n" for s, vs in values.items() for i, v in enumerate(vs, 1)))
    result = ulcdb(path, "ingest", "scores", scores, "--format", "table", "--map",
                   "target=system", "--map", "seg_id=seg_id", "--map", "value=score",
                   "--metric", "Yimp", "--ref", "ref-A", "--level", "seg", "--variant",
                   "case:lc")
    assert result.exit_code == 0, result.output
    return path, values


def test_each_variant_is_named_with_its_metrics(db: tuple[Path, dict[str, list[float]]]
                                                 ) -> None:
    path, values = db
    result = ulcdb(path, "compare", "-b", "sysA", "-s", "sysB", "-m", "Yimp,BLEU", "-r",
                   "ref-A", "-j", "1", "-f", "csv")
    assert result.exit_code == 0, result.output
    assert (
        "paired bootstrap resampling (1000 resamples, seed 12345) of segments, references "
        "ref-A, variant case:lc (Yimp); case:mixed (BLEU): each system against sysA"
    ) in result.stderr.splitlines()
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    yimp = {r["system"]: float(r["score"]) for r in rows if r["metric"] == "Yimp"}
    for system in ("sysA", "sysB"):
        assert yimp[system] == pytest.approx(sum(values[system]) / 12, abs=1e-12)
    alone = ulcdb(path, "compare", "-b", "sysA", "-s", "sysB", "-m", "BLEU", "-r", "ref-A",
                  "-j", "1", "-f", "csv")
    assert alone.exit_code == 0 and (
        "paired bootstrap resampling (1000 resamples, seed 12345) of segments, references "
        "ref-A, variant case:mixed: each system against sysA") in alone.stderr.splitlines()
