"""`--scale 100` and `-w` on score and compare tables (issue 29): sacrebleu's 0-100 for the
metrics bounded by 1, unbounded ones (NIST) as they are, the store and csv/json on 0-1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serve_helpers import build_sample_store

from tests.cli_helpers import ulcdb


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_store(tmp_path_factory.mktemp("scale") / "s.duckdb")


def stored(store: Path, metric: str, system: str) -> float:
    result = ulcdb(store, "sql", f"select value from scores where metric = '{metric}' and "
                   f"translator = '{system}' and level = 'sys' and "
                   "refset = 'ref-A+ref-B+ref-C'", "-f", "json")
    return float(json.loads(result.stdout)[0]["value"])


def test_score_table_on_sacrebleus_scale(store: Path) -> None:
    result = ulcdb(store, "score", "-m", "BLEU,NIST", "--scale", "100", "-w", "2")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "sysA" in line)
    assert f"{stored(store, 'BLEU', 'sysA') * 100:.2f}" in row  # 85.35
    assert f"{stored(store, 'NIST', 'sysA'):.2f}" in row  # NIST is unbounded: as it is
    plain = ulcdb(store, "score", "-m", "BLEU", "-f", "json", "--scale", "100")
    assert json.loads(plain.stdout)[0]["BLEU"] == pytest.approx(stored(store, "BLEU", "sysA"))


def test_compare_table_on_sacrebleus_scale(store: Path) -> None:
    result = ulcdb(store, "compare", "-b", "sysB", "-m", "BLEU", "--scale", "100", "-w", "1")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "sysA" in line)
    assert f"{stored(store, 'BLEU', 'sysA') * 100:.1f}" in row


@pytest.mark.parametrize("args", [["--scale", "10"], ["-w", "-1"]])
def test_bad_scale_or_width_is_one_line(store: Path, args: list[str]) -> None:
    result = ulcdb(store, "score", "-m", "BLEU", *args)
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
