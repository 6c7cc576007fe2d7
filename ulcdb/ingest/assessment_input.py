"""Assessment input: which reader a file needs (by name, --map, or --format), run with
--criterion/--map/--level and --rename applied; the mt-metrics-eval checks against a test bed."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ulcdb.errors import InputError, UlcdbError

if TYPE_CHECKING:  # every `ulcdb` command reads AssessmentFormat: the readers load on use
    from ulcdb.ingest.model import Assessment
    from ulcdb.store.database import Store


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
    return AssessmentFormat.auto  # a headered table (see headered_table), else NIST CSV


# A headered CSV/TSV read without --map: its columns, by the names WMT releases use.
SYSTEM_COLUMNS = ("system", "sys", "system_name", "translator")
SCORE_COLUMNS = {"da_raw": "DA-raw", "raw": "DA-raw", "da_z": "DA-z", "z": "DA-z",
                 "mqm_avg_score": "MQM", "mqm": "MQM", "adequacy": "adequacy",
                 "fluency": "fluency", "score": None}  # score: the criterion comes from -c


def headered_table(path: Path, criterion: str | None, level: str = "seg"
                   ) -> list[tuple[dict[str, str], str]]:
    """(mapping, criterion) per score column of a CSV/TSV whose header names a system column
    and score columns WMT releases use (da_raw, da_z, ...), its units those of ``level``;
    [] when the file is not one (a NIST CSV, headered or not)."""
    from ulcdb.formats.nist import assessments as nist_assessments
    from ulcdb.ingest.textio import head_line

    first = head_line(path)
    fields = [f.strip() for f in first.split("\t" if "\t" in first else ",")]
    lower = [f.lower() for f in fields]
    system = next((fields[lower.index(c)] for c in SYSTEM_COLUMNS if c in lower), None)
    if system is None or nist_assessments.is_nist_header(fields):
        return []
    unit = _unit_columns(path, fields, level)
    judge = next(({"judge": fields[lower.index(c)]} for c in ("judge", "rater", "annotator")
                  if c in lower), {})
    scores = [(f, SCORE_COLUMNS[f.lower()]) for f in fields if f.lower() in SCORE_COLUMNS]
    if not scores:
        raise InputError(path, 1, f"no score column among {', '.join(fields)} (known: "
                         f"{', '.join(SCORE_COLUMNS)}); name one with --map score=COLUMN "
                         "-c CRITERION")
    if criterion and len(scores) == 1:
        scores = [(scores[0][0], criterion)]
    out = []
    for column, name in scores:
        if name is None:
            raise InputError(path, 1, f"column {column!r} holds scores of which criterion? "
                             "Say it with -c/--criterion")
        out.append(({"system": system, **unit, **judge, "score": column}, name))
    return out


def _unit_columns(path: Path, fields: list[str], level: str) -> dict[str, str]:
    """The mapping of a headered table's unit columns at ``level``; a header without them
    (WMT's da_sys.tsv read at the default seg level) is refused saying which --level fits."""
    lower = [f.lower() for f in fields]
    keys = {"seg": ["seg_id"] if "seg_id" in lower else ["doc_id", "seg_in_doc"],
            "doc": ["doc_id"], "sys": []}.get(level, [])
    if all(k in lower for k in keys):
        return {k: fields[lower.index(k)] for k in keys}
    fits = ("--level doc for document scores" if "doc_id" in lower
            else "--level sys for system scores")
    units = {"seg": "seg_id (or doc_id and seg_in_doc)", "doc": "doc_id"}[level]
    raise InputError(path, 1, f"no {units} column in the header for {level}-level scores; "
                     f"give {fits}")


def read_assessment_file(path: Path, fmt: AssessmentFormat, criterion: str | None,
                         mapping: list[str], level: str, rename: list[str]
                         ) -> list[Assessment]:
    """Read ``path`` in its format, with --rename OLD=NEW applied to every format; rows that
    name no criterion get ``criterion``."""
    from ulcdb.formats import assessments as ar
    from ulcdb.formats.nist import assessments as nist_assessments
    from ulcdb.formats.wmt import mqm as wmt_mqm
    from ulcdb.ingest import mtme_testbeds
    from ulcdb.ingest.textio import check_file

    check_file(path)  # a FIFO or device is refused before anything reads it
    renames = parse_renames(rename)
    fmt = assessment_format(path, fmt, mapping)
    if fmt == AssessmentFormat.mtme:
        items = mtme_testbeds.read_mtme_human(path)
    elif fmt == AssessmentFormat.mqm:
        items = wmt_mqm.read_wmt_mqm(path)
    elif fmt == AssessmentFormat.table:
        if not mapping:
            raise UlcdbError("--format table needs --map system=COL --map score=COL ...")
        items = ar.read_table(path, parse_mapping(mapping), criterion=criterion, level=level)
    elif fmt == AssessmentFormat.auto and (columns := headered_table(path, criterion, level)):
        items = [a for m, name in columns for a in ar.read_table(path, m, name, level)]
    elif not criterion:
        raise UlcdbError("NIST CSV files need --criterion (e.g. adequacy)")
    else:
        items = nist_assessments.read_nist_csv(path, criterion)
    if criterion:
        for a in items:
            a.criterion = a.criterion or criterion
    return ar.rename_translators(items, renames)




def _check_mqm_documents(store: Store, testbed: str, path: Path) -> None:
    """An MQM table's doc_id column must agree with the test bed's document of each seg_id:
    a file numbering another test bed's segments would otherwise load under wrong ones."""
    from ulcdb.formats.wmt import mqm as wmt_mqm
    from ulcdb.store.database import named_query

    docs = dict(store.query(named_query("segment_documents"), [store.testbed_id(testbed)]))
    for line, seg, doc in wmt_mqm.read_mqm_documents(path):
        if seg in docs and docs[seg] != doc:
            raise InputError(path, line, f"segment {seg} is in document {docs[seg]!r} of test "
                             f"bed {testbed!r}, the file says {doc!r}: does it number another "
                             "test bed's segments?")


def check_against_testbed(store: Store, testbed: str, path: Path, fmt: AssessmentFormat,
                          mapping: list[str], items: list[Assessment]) -> None:
    """mt-metrics-eval human files: one value per segment/document of every system, names
    (refA for ref-A) matched to the test bed's translators."""
    from ulcdb.ingest import mtme_testbeds
    from ulcdb.store.database import named_query

    if assessment_format(path, fmt, mapping) == AssessmentFormat.mqm:
        _check_mqm_documents(store, testbed, path)
    if assessment_format(path, fmt, mapping) != AssessmentFormat.mtme:
        return
    tid = store.testbed_id(testbed)
    mtme_testbeds.check_mtme_units(path, *store.query(named_query("testbed_unit_counts"),
                                                      [tid])[0])
    mtme_testbeds.match_mtme_names(items, store.translators(tid))
