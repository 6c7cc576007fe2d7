"""Each criterion's scale: given with `ingest assessments --scale`, known from WMT's criterion
names, or unknown; DARR's default threshold (25 on raw DA 0..100) only where it fits."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_helpers import copy_store, ulcdb
from test_ingest_store import SAMPLE, fingerprint, plain_args

from ulcdb.store.database import Store

DA = SAMPLE / "human" / "da.tsv"
DA_MAP = ("--map", "system=system", "--map", "seg_id=seg_id", "--map", "score=da_raw",
          "--map", "judge=judge")


def _ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("scale")
    path = tmp_path / "store.duckdb"
    _ok(ulcdb(path, *plain_args()))
    _ok(ulcdb(path, "ingest", "assessments", DA, *DA_MAP, "-c", "DA-raw"))
    _ok(ulcdb(path, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv", "-c",
              "adequacy"))
    return path


@pytest.fixture
def db(built_db: Path, tmp_path: Path) -> Path:
    """The plain sample with DA-raw and adequacy (built once per module): a copy for each test."""
    return copy_store(built_db, tmp_path, built_db.name)


def _scales(db: Path) -> dict[str, tuple]:
    with Store(db, read_only=True) as store:
        return {c: (lo, hi, src) for c, lo, hi, src in store.query(
            "select criterion, scale_min, scale_max, scale_source from criterion_scale")}


def test_scales_from_format_given_and_unknown(db: Path) -> None:
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:100"))
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "z-like", "--scale", ":"))
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "MQM", "--scale", "-100:100"))
    assert _scales(db) == {"DA-raw": (0, 100, "format"), "adequacy": (None, None, None),
                           "mine": (0, 100, "given"), "z-like": (None, None, "given"),
                           "MQM": (-100, 100, "given")}  # given wins over the name


def test_a_different_scale_needs_replace(db: Path) -> None:
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:100"))
    again = _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale",
                      "0:100"))
    assert "already there" in again
    before = fingerprint(db)
    refused = ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:200")
    assert refused.exit_code == 1 and "--replace" in refused.output
    assert "0:100" in refused.output and "0:200" in refused.output
    assert fingerprint(db) == before and _scales(db)["mine"] == (0, 100, "given")
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:200",
              "--replace"))
    assert _scales(db)["mine"] == (0, 200, "given")


def test_values_outside_the_scale_are_refused(db: Path) -> None:
    with open(DA, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    first_high = next(i for i, r in enumerate(rows, start=2) if float(r["da_raw"]) > 50)
    before = fingerprint(db)
    result = ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:50")
    assert result.exit_code == 1
    assert f"da.tsv:{first_high}:" in result.output and "outside the scale 0:50" in result.output
    assert fingerprint(db) == before and "mine" not in _scales(db)
    for bad in ("0-100", "100:0", "a:1"):
        result = ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", bad)
        assert result.exit_code == 1 and "--scale" in result.output, bad
        assert "Traceback" not in result.output


def test_darr_is_offered_only_where_the_threshold_fits(db: Path) -> None:
    _ok(ulcdb(db, "score", "-m", "chrF", "-G", "seg", "-f", "csv"))
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "mine", "--scale", "0:100"))
    _ok(ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "tenths", "--scale", "0:1000"))
    base = ("meta", "-G", "seg", "-m", "chrF", "-B", "0", "-f", "json", "--include-human")

    def coefficients(criterion: str, *extra: str) -> set[str]:
        out = json.loads(_ok(ulcdb(db, *base, "-c", criterion, *extra)))
        return set(out["results"][0])

    assert "darr_tau" in coefficients("DA-raw") and "darr_tau" in coefficients("mine")
    assert "darr_tau" not in coefficients("tenths")
    assert "darr_tau" not in coefficients("adequacy")
    table = _ok(ulcdb(db, "meta", "-G", "seg", "-m", "chrF", "-B", "0", "-c", "adequacy"))
    assert "DARR left out" in table and "unknown scale" in table
    refused = ulcdb(db, "meta", "-G", "seg", "-m", "chrF", "-c", "tenths", "--coef", "darr_tau")
    assert refused.exit_code == 1
    assert "scale 0..1000" in refused.output and "--threshold" in refused.output
    assert "darr_tau" in coefficients("tenths", "--threshold", "250")
