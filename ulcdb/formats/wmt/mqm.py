"""WMT MQM assessments (mt-metrics-eval's MQM TSV), read."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.formats.assessments import (
    MISSING,
    check_count,
    file_lines,
    name_field,
    optional_score,
    position_field,
)
from ulcdb.ingest.model import Assessment

MQM_COLUMNS = ("system", "mqm_avg_score", "seg_id")


def read_wmt_mqm(path: str | Path, rename: Mapping[str, str] | None = None) -> list[Assessment]:
    """Read WMT MQM average segment scores, criterion ``MQM``.

    Accepts Google's ``*.avg_seg_scores.tsv`` (header ``system mqm_avg_score seg_id``, tabs and
    spaces mixed, ``None`` = not rated) and cleaned tables with a ``doc_id`` column too: columns
    are found by header name and split on any whitespace.  ``seg_id`` is the test-bed number in
    both, so ``doc_id`` is left None.  Values are kept as written: the WMT21 files hold negated
    MQM (<= 0, higher is better, 0 = no error).  ``rename`` maps system names (e.g.
    ``{"Nemo": "NVIDIA-NeMo"}``).

    Example: ``read_wmt_mqm("mqm_newstest2021_ende.avg_seg_scores.tsv", {"Nemo": "NVIDIA-NeMo"})``
    """
    rename = rename or {}
    lines = file_lines(path)
    (header_line, header_text), data = lines[0], lines[1:]
    header = header_text.split()
    absent = [c for c in MQM_COLUMNS if c not in header]
    if absent:
        raise InputError(path, header_line, f"header lacks column(s) {absent}: {header}")
    col = {name: header.index(name) for name in MQM_COLUMNS}
    first: dict[tuple[str, int], int] = {}
    result = []
    for line, text in data:
        fields = text.split()
        check_count(path, line, fields, len(header), " ".join(header))
        system = name_field(path, line, fields[col["system"]], "system")
        system = rename.get(system, system)
        seg = position_field(path, line, fields[col["seg_id"]], "seg_id")
        if (system, seg) in first:
            earlier = first[system, seg]
            message = f"second score for {system} segment {seg} (first at line {earlier})"
            raise InputError(path, line, message)
        first[system, seg] = line
        value = optional_score(path, line, fields[col["mqm_avg_score"]], MISSING)
        if value is not None:
            result.append(Assessment(system, "MQM", value, "seg", seg, None, "", line))
    return result


def read_mqm_documents(path: str | Path) -> list[tuple[int, int, str]]:
    """(line, seg_id, doc_id) of every row of an MQM table with a ``doc_id`` column (a
    cleaned table; Google's files have none: ``[]``), to check the file numbers segments as
    the test bed does.  Rows are checked by ``read_wmt_mqm``."""
    (_, header_text), *data = file_lines(path)
    header = header_text.split()
    if "doc_id" not in header:
        return []
    seg_col, doc_col = header.index("seg_id"), header.index("doc_id")
    return [(line, int(fields[seg_col]), fields[doc_col])
            for line, fields in ((line, text.split()) for line, text in data)]

