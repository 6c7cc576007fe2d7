"""`ulcdb export` of a metric stored under another variant than the one asked (default
case:mixed): it wrote nothing and said "wrote 0 files", an empty result that reads like an
answer.  It now refuses, naming the variants the metric has (issue 25).  Sample test bed; the
imported scores are made up here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
WHY = ("Error: no scores of Ylc to write under variant 'case:mixed': they are stored under "
       "case:lc (give --variant)")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("export_variant")
    path = tmp / "s.duckdb"
    assert ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "sample"
                 ).exit_code == 0
    scores = tmp / "ylc.tsv"
    scores.write_text("system\tseg_id\tscore\n" + "".join(
        f"sysA\t{i}\t{0.125 * (i % 8)}\n" for i in range(1, 13)))
    result = ulcdb(path, "ingest", "scores", scores, "--format", "table", "--map",
                   "target=system", "--map", "seg_id=seg_id", "--map", "value=score",
                   "--metric", "Ylc", "--ref", "ref-A", "--level", "seg", "--variant",
                   "case:lc")
    assert result.exit_code == 0, result.output
    # other metrics have scores under case:mixed: the variant exists, Ylc has none there
    assert ulcdb(path, "score", "-m", "BLEU", "-j", "1", "-f", "csv").exit_code == 0
    return path


@pytest.mark.parametrize("fmt", ["comet", "wmt", "nist"])
def test_a_metric_of_another_variant_is_refused_with_its_variants(db: Path, tmp_path: Path,
                                                                  fmt: str) -> None:
    out = tmp_path / fmt
    result = ulcdb(db, "export", fmt, out, "-m", "Ylc")
    assert result.exit_code == 1
    assert result.output.strip() == WHY
    assert not out.exists() or not any(out.iterdir())


def test_with_its_variant_the_scores_are_written(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "comet"
    result = ulcdb(db, "export", "comet", out, "-m", "Ylc", "--variant", "case:lc")
    assert result.exit_code == 0, result.output
    (written,) = [p for p in out.rglob("*") if p.is_file()]
    text = written.read_text(encoding="utf-8")
    assert all(f"{0.125 * (i % 8)}" in text or f"{0.125 * (i % 8):g}" in text
               for i in range(1, 13))
