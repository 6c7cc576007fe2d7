"""Human assessments: the generic table reader and the parsing every reader shares (NIST
CSVs are read in ``formats.nist.assessments``, WMT MQM in ``formats.wmt.mqm``); each
reader returns a list of :class:`Assessment`, store-independent.

The readers only check the files themselves; the store layer later checks that every
translator, document and segment exists in the test bed, and resolves positions.

What ``seg_id`` and ``doc_id`` mean in a returned Assessment (the store relies on this):

* level ``seg``, ``doc_id`` None: ``seg_id`` is the test-bed segment number (1-based, the line
  of the source file).
* level ``seg``, ``doc_id`` set: ``seg_id`` is the 1-based position of the segment *within*
  document ``doc_id`` (NIST/Asiya CSV, ``read_table`` with ``seg_in_doc``).
* level ``doc``, ``doc_id`` set: the document named ``doc_id``; ``seg_id`` is None.
* level ``doc``, ``doc_id`` None: ``seg_id`` is the 1-based position of the document in
  test-bed order (mt-metrics-eval ``*.doc.score`` files, which do not name documents).
* level ``sys``: ``seg_id`` and ``doc_id`` are None.

Missing scores (``None`` in mt-metrics-eval and MQM files, ``None`` or an empty cell in tables)
are skipped, not returned.  ``line`` is the 1-based line of the file each score came from.
Scores are stored as the file gives them (no sign flips or rescaling); ``-0.0`` becomes ``0.0``.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.model import Assessment
from ulcdb.ingest.textio import numbered_lines, parse_number, parse_position

LEVELS = ("seg", "doc", "sys")
MISSING = frozenset({"None"})
TABLE_MISSING = frozenset({"None", ""})
TABLE_KEYS = ("system", "score", "seg_id", "seg_in_doc", "doc_id", "criterion", "judge")

Row = tuple[int, list[str]]


# --- shared helpers -------------------------------------------------------------------------


def file_lines(path: str | Path) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers; invalid UTF-8 names its line."""
    return numbered_lines(path, what="assessments")


def csv_rows(path: str | Path, lines: list[tuple[int, str]], delimiter: str) -> list[Row]:
    """Split each line as CSV (tab-separated files take no quoting)."""
    rows = []
    for number, text in lines:
        try:
            reader = (csv.reader([text], delimiter=delimiter, quoting=csv.QUOTE_NONE, strict=True)
                      if delimiter == "\t" else
                      csv.reader([text], delimiter=delimiter, quoting=csv.QUOTE_MINIMAL,
                                 strict=True))
            fields = next(reader)
        except csv.Error as exc:
            raise InputError(path, number, f"bad CSV line: {exc}") from None
        rows.append((number, fields))
    return rows


def optional_score(path: str | Path, line: int, text: str,
                   missing: frozenset[str]) -> float | None:
    """The score in ``text``; None where it is one of the ``missing`` marks."""
    return None if text.strip() in missing else score_field(path, line, text)


def score_field(path: str | Path, line: int, text: str) -> float:
    """The finite number in ``text``."""
    return parse_number(path, line, text)


def position_field(path: str | Path, line: int, text: str, what: str) -> int:
    """A 1-based position such as a segment number."""
    return parse_position(path, line, text, what)


def name_field(path: str | Path, line: int, text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise InputError(path, line, f"empty {what}")
    return text


def check_count(path: str | Path, line: int, fields: list[str], expected: int, form: str) -> None:
    if len(fields) != expected:
        message = f"expected {expected} columns ({form}), found {len(fields)}"
        raise InputError(path, line, message)


def rename_translators(items: list[Assessment], rename: Mapping[str, str]) -> list[Assessment]:
    """Give translators their test-bed names (``--rename OLD=NEW``); others stay as read."""
    for a in items:
        a.translator = rename.get(a.translator, a.translator)
    return items


def parse_scale(text: str) -> tuple[float | None, float | None]:
    """``MIN:MAX`` (``--scale``) as two bounds; an empty side is unbounded (``:`` for z-scores).

    Example: ``parse_scale("0:100") == (0.0, 100.0)``, ``parse_scale("-25:0")``
    """
    parts = text.split(":")
    if len(parts) != 2:
        raise InputError("--scale", None, f"give the scale as MIN:MAX (e.g. 0:100), not {text!r}")
    bounds = []
    for part in parts:
        try:
            bounds.append(float(part) + 0.0 if part.strip() else None)
        except ValueError:
            raise InputError("--scale", None, f"{part!r} in {text!r} is not a number") from None
    lo, hi = bounds
    if any(b is not None and not math.isfinite(b) for b in bounds) or (
            lo is not None and hi is not None and lo >= hi):
        raise InputError("--scale", None, f"the scale {text!r} needs finite MIN < MAX")
    return lo, hi


# --- NIST / Asiya CSV -----------------------------------------------------------------------


# --- generic tables -------------------------------------------------------------------------


def _check_mapping(path: str | Path, mapping: Mapping[str, str], criterion: str | None,
                   level: str) -> None:
    """Refuse mappings that are incomplete or ambiguous for ``level``."""
    unknown = sorted(set(mapping) - set(TABLE_KEYS))
    if unknown:
        raise InputError(path, None, f"unknown mapping keys {unknown}; use {list(TABLE_KEYS)}")
    if level not in LEVELS:
        raise InputError(path, None, f"level {level!r} is not one of {list(LEVELS)}")
    for key in ("system", "score"):
        if key not in mapping:
            raise InputError(path, None, f"the mapping names no {key!r} column")
    if criterion is not None and not criterion.strip():
        raise InputError(path, None, "empty criterion name")
    if (criterion is None) == ("criterion" not in mapping):
        message = "give either a criterion or a 'criterion' column in the mapping (one of them)"
        raise InputError(path, None, message)
    needed = {
        "seg": ({"seg_id"}, {"doc_id", "seg_in_doc"}),
        "doc": ({"doc_id"},),
        "sys": (set(),),
    }[level]
    located = set(mapping) & {"seg_id", "seg_in_doc", "doc_id"}
    if located not in needed:
        forms = " or ".join("+".join(sorted(keys)) for keys in needed if keys)
        wanted = forms or "none of seg_id, seg_in_doc, doc_id"
        message = f"at {level} level the mapping needs {wanted}; it has {sorted(located)}"
        raise InputError(path, None, message)


def _guess_delimiter(path: str | Path, header: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    for candidate in ("\t", ",", ";"):
        if candidate in header:
            return candidate
    raise InputError(path, None, "cannot tell the column delimiter; give it explicitly")


def _column_index(path: str | Path, line: int, header: list[str],
                  mapping: Mapping[str, str]) -> dict[str, int]:
    names = [h.strip() for h in header]
    index = {}
    for key, column in mapping.items():
        count = names.count(column)
        if count != 1:
            problem = "no" if count == 0 else "more than one"
            message = f"{problem} column {column!r} (mapped as {key}) in header {names}"
            raise InputError(path, line, message)
        index[key] = names.index(column)
    return index


def read_table(path: str | Path, mapping: Mapping[str, str], criterion: str | None = None,
               level: str = "seg", delimiter: str | None = None) -> list[Assessment]:
    """Read a CSV/TSV with a header, taking columns as ``mapping`` says.

    ``mapping`` maps keys to header names: ``system`` and ``score`` always; at seg level
    ``seg_id`` (test-bed number) or ``doc_id`` + ``seg_in_doc``; at doc level ``doc_id``;
    optional ``judge`` and ``criterion`` (else pass ``criterion``).  The delimiter comes from
    the extension (.tsv tab, .csv comma) or the header unless given.  Empty and ``None``
    scores are skipped.

    Example: ``read_table("human/da_seg.tsv", {"system": "system", "seg_id": "seg_id",
    "score": "da_raw"}, criterion="DA-raw")``
    """
    _check_mapping(path, mapping, criterion, level)
    lines = file_lines(path)
    rows = csv_rows(path, lines, delimiter or _guess_delimiter(path, lines[0][1]))
    (header_line, header), data = rows[0], rows[1:]
    index = _column_index(path, header_line, header, mapping)
    if not data:
        raise InputError(path, None, "header but no assessments")
    result = []
    for line, fields in data:
        check_count(path, line, fields, len(header), "as many as the header")
        found = _table_assessment(path, line, fields, index, criterion, level)
        if found is not None:
            result.append(found)
    return result


def _table_assessment(path: str | Path, line: int, fields: list[str], index: dict[str, int],
                      criterion: str | None, level: str) -> Assessment | None:
    def cell(key: str) -> str | None:
        return fields[index[key]] if key in index else None

    value = optional_score(path, line, fields[index["score"]], TABLE_MISSING)
    if value is None:
        return None
    seg_text = cell("seg_id") if "seg_id" in index else cell("seg_in_doc")
    doc_text = cell("doc_id")
    crit_text = cell("criterion")
    return Assessment(
        translator=name_field(path, line, fields[index["system"]], "system"),
        criterion=name_field(path, line, crit_text, "criterion") if crit_text else criterion or "",
        value=value,
        level=level,
        seg_id=None if seg_text is None else position_field(path, line, seg_text, "segment number"),
        doc_id=None if doc_text is None else name_field(path, line, doc_text, "document id"),
        judge=(cell("judge") or "").strip(),
        line=line,
    )


# --- WMT MQM (Google) -----------------------------------------------------------------------


