"""Assessment input: which reader a file needs (by name, --map, or --format), run with
--criterion/--map/--level and --rename applied; the mt-metrics-eval checks against a test bed."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from ulcdb.errors import InputError, UlcdbError
from ulcdb.ingest import assessments as ar
from ulcdb.ingest.model import Assessment
from ulcdb.interchange import mtme
from ulcdb.store import Store


class AssessmentFormat(str, Enum):
    auto = "auto"
    nist = "nist"
    mtme = "mtme"
    table = "table"
    mqm = "mqm"


def parse_mapping(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        key, sep, col = v.partition("=")
        if not sep:
            raise UlcdbError(f"--map takes KEY=COLUMN, got {v!r}")
        out[key.strip()] = col.strip()
    return out


def parse_renames(values: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        old, sep, new = (part.strip() for part in v.partition("="))
        if not sep or not old or not new:
            raise UlcdbError(f"--rename takes OLD=NEW, got {v!r}")
        if old in out:
            raise UlcdbError(f"--rename {old} is given twice")
        out[old] = new
    return out


def assessment_format(path: Path, fmt: AssessmentFormat,
                       mapping: list[str]) -> AssessmentFormat:
    if fmt != AssessmentFormat.auto:
        return fmt
    if path.name.endswith(".score"):
        return AssessmentFormat.mtme
    if mapping:
        return AssessmentFormat.table
    if "mqm" in path.name.lower():
        return AssessmentFormat.mqm
    return AssessmentFormat.nist


def read_assessment_file(path: Path, fmt: AssessmentFormat, criterion: str | None,
                         mapping: list[str], level: str, rename: list[str]
                         ) -> list[Assessment]:
    """Read ``path`` in its format, with --rename OLD=NEW applied to every format."""
    if not path.exists():
        raise InputError(path, None, "no such file")
    renames = parse_renames(rename)
    fmt = assessment_format(path, fmt, mapping)
    if fmt == AssessmentFormat.mtme:
        items = mtme.read_mtme_human(path)
    elif fmt == AssessmentFormat.mqm:
        items = ar.read_wmt_mqm(path)
    elif fmt == AssessmentFormat.table:
        if not mapping:
            raise UlcdbError("--format table needs --map system=COL --map score=COL ...")
        items = ar.read_table(path, parse_mapping(mapping), criterion=criterion, level=level)
    elif not criterion:
        raise UlcdbError("NIST CSV files need --criterion (e.g. adequacy)")
    else:
        items = ar.read_nist_csv(path, criterion)
    return ar.rename_translators(items, renames)




def check_against_testbed(store: Store, testbed: str, path: Path, fmt: AssessmentFormat,
                          mapping: list[str], items: list[Assessment]) -> None:
    """mt-metrics-eval human files: one value per segment/document of every system, names
    (refA for ref-A) matched to the test bed's translators."""
    if assessment_format(path, fmt, mapping) != AssessmentFormat.mtme:
        return
    tid = store.testbed_id(testbed)
    mtme.check_mtme_units(path, *store.query(
        "select (select count(*) from segment where testbed_id = $1), "
        "(select count(*) from document where testbed_id = $1)", [tid])[0])
    mtme.match_mtme_names(items, store.translators(tid))
