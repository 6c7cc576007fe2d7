"""NIST MetricsMATR assessment CSVs, read."""

from __future__ import annotations

from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.formats.assessments import (
    check_count,
    csv_rows,
    file_lines,
    name_field,
    position_field,
    score_field,
)
from ulcdb.ingest.model import Assessment

NIST_HEADER = (("system",), ("document", "doc"), ("segment", "seg"), ("judge",), ("score",))


def is_nist_header(fields: list[str]) -> bool:
    names = [f.strip().lower().removesuffix("id") for f in fields]
    return len(names) == len(NIST_HEADER) and all(
        name in allowed for name, allowed in zip(names, NIST_HEADER, strict=True)
    )


def read_nist_csv(path: str | Path, criterion: str) -> list[Assessment]:
    """Read NIST MetricsMATR / Asiya CSV: ``systemId,documentId,segmentId,judgeId,score``.

    The header is optional.  ``segmentId`` is the segment's position within ``documentId``, so
    each Assessment has ``doc_id`` set and ``seg_id`` = seg-in-doc (see the module docstring).

    Example: ``read_nist_csv("sample/human/adequacy.csv", "adequacy")``
    """
    if not criterion.strip():
        raise InputError(path, None, "no criterion given for the NIST CSV scores")
    rows = csv_rows(path, file_lines(path), ",")
    if is_nist_header(rows[0][1]):
        rows = rows[1:]
    if not rows:
        raise InputError(path, None, "header but no assessments")
    return [_nist_assessment(path, line, fields, criterion) for line, fields in rows]


def _nist_assessment(path: str | Path, line: int, fields: list[str], crit: str) -> Assessment:
    check_count(path, line, fields, 5, "systemId,documentId,segmentId,judgeId,score")
    system, doc, seg, judge, score = fields
    return Assessment(
        translator=name_field(path, line, system, "systemId"),
        criterion=crit,
        value=score_field(path, line, score),
        level="seg",
        seg_id=position_field(path, line, seg, "segmentId"),
        doc_id=name_field(path, line, doc, "documentId"),
        judge=judge.strip(),
        line=line,
    )
