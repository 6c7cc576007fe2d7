"""Long TSV test beds: one row per (segment, translator), as WMT test beds are often shared.

Header columns (any order): ``seg_id``, ``doc_id``, ``source``, ``translator``, ``kind``
(``system`` or ``reference``), ``translation``; optional ``seg_in_doc``, ``orig_lang``.
Human-score columns (``da_raw``, ``da_z``, ``mqm_avg_score``, ...: ``HUMAN_COLUMNS``) become
segment-level assessments stored with the test bed (an empty cell: no judgment); any other
column is named in the ingest report as ignored.
Every translator must have exactly one row per segment, and the source and document of a
segment must agree across its rows.

Fields are tab-separated and read as written: a field cannot hold a tab or a line break, and a
``"`` is an ordinary character (``"Quoted" start`` stays as it is).  The one exception is a file
written by a CSV writer with a tab delimiter (pandas' ``to_csv(sep="\\t")``, as the shared WMT
files are): when every field holding a ``"`` is wrapped in quotes with its inner quotes doubled
(``"a ""quoted"" word"``), the whole file is read with CSV quoting.  A field only wrapped in
quotes (``"bye"``) fits either reading and follows the file's (a CSV writer wraps a field so
only when asked to quote every field; raw, its quotes are kept).  A file holding both, a field
CSV-quoted and a raw ``"`` elsewhere, is refused naming the line of each: no reading is right
for both (``"a ""b"" c"`` written raw is the CSV quoting of ``a "b" c``), and reading the file raw
would store every CSV-quoted field with its outer and doubled quotes.

Segments are taken in ``seg_id`` order.  The ids may be any increasing positive numbers (WMT
samples keep the original ids, e.g. 47, 48, 52, ...); ids other than 1..n are renumbered 1..n
and the ingest report says so.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.model import Assessment, Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.ingest.textio import head_line, parse_position, read_lines

REQUIRED = ("seg_id", "doc_id", "source", "translator", "kind", "translation")
OPTIONAL = ("seg_in_doc", "orig_lang")
# Human-score columns of the WMT long TSVs and the criteria they are stored as.
HUMAN_COLUMNS = {"da_raw": "DA-raw", "da_z": "DA-z", "mqm_avg_score": "MQM", "mqm": "MQM",
                 "adequacy": "adequacy", "fluency": "fluency"}
KINDS = {"system": "system", "reference": "reference", "ref": "reference"}
_CSV_ESCAPED = re.compile(r'"(?:[^"]|"")*""(?:[^"]|"")*"')  # "...""...": a CSV writer's quoting
_WRAPPED = re.compile(r'"[^"]*"')  # "...": CSV-quoted or raw, as the file's other fields are
_MIXED = "write every field raw or CSV-quote every field holding '\"'"


@dataclass
class _Rows:
    """What the rows say, by segment id and translator, with the line each segment starts on."""

    segments: dict[int, SourceSegment] = field(default_factory=dict)
    first_line: dict[int, int] = field(default_factory=dict)
    texts: dict[str, dict[int, str]] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    origlang: dict[str, str | None] = field(default_factory=dict)


def is_long_tsv(path: Path) -> bool:
    """True when the first line is a header with the required columns."""
    header = head_line(path).split("\t")
    return all(col in header for col in REQUIRED)


def read_long_tsv(name: str, path: Path, src_lang: str | None = None,
                  tgt_lang: str | None = None) -> TestbedData:
    rows = split_rows(path, read_lines(path))
    if not rows:
        raise InputError(path, None, "only blank lines, no header")
    header_line, header = rows[0]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise InputError(path, header_line, "not a long-TSV test bed: the header lacks "
                         f"column(s) {', '.join(missing)}")
    col = {c: header.index(c) for c in header}
    found = _Rows()
    for number, row in rows[1:]:
        if len(row) != len(header):
            raise InputError(path, number, f"{len(row)} fields, the header has {len(header)}")
        _add_row(path, number, row, col, found)
    ordered = _check_complete(path, found)
    data = TestbedData(
        name=name, src_lang=src_lang, tgt_lang=tgt_lang, origin=str(path),
        documents=[Document(d, origlang=found.origlang.get(d))
                   for d in dict.fromkeys(s.doc_id for s in ordered)],
        segments=_renumber(ordered),
        translators=[TranslatorText(t, found.roles[t], [texts[s.seg_id] for s in ordered],
                                    str(path)) for t, texts in found.texts.items()],
    )
    if [s.seg_id for s in ordered] != list(range(1, len(ordered) + 1)):
        data.notes.append(f"seg_id {ordered[0].seg_id}..{ordered[-1].seg_id} of {path.name} "
                          f"renumbered 1..{len(ordered)}")
    new_id = {s.seg_id: i for i, s in enumerate(ordered, 1)}
    data.assessments = _human_scores(path, rows[1:], col, new_id)
    ignored = [c for c in header if c not in (*REQUIRED, *OPTIONAL, *HUMAN_COLUMNS)]
    if ignored:
        data.notes.append(f"column(s) {', '.join(ignored)} of {path.name} ignored (not a "
                          f"human score ulcdb knows: {', '.join(HUMAN_COLUMNS)})")
    return data


def _human_scores(path: Path, rows: list[tuple[int, list[str]]], col: dict[str, int],
                  new_id: dict[int, int]) -> list[Assessment]:
    """Segment assessments from the human-score columns (empty cells are no judgment)."""
    out = []
    for name in (c for c in col if c in HUMAN_COLUMNS):
        for number, row in rows:
            text = row[col[name]].strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                raise InputError(path, number, f"{name} {text!r} is not a number") from None
            if value != value or value in (float("inf"), float("-inf")):
                raise InputError(path, number, f"{name} {text!r} is not a finite number")
            out.append(Assessment(row[col["translator"]], HUMAN_COLUMNS[name], value, "seg",
                                  new_id[int(row[col["seg_id"]])], None, "", number))
    return out


def split_rows(path: Path, lines: list[str]) -> list[tuple[int, list[str]]]:
    """Non-blank lines as (line number, fields), raw or CSV-unquoted (see the module doc)."""
    quoted = _csv_quoted(path, lines)
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        if quoted and '"' in line:
            try:
                fields = next(csv.reader([line], delimiter="\t", strict=True))
            except csv.Error as exc:
                raise InputError(path, number, f"bad quoting: {exc}") from None
        else:
            fields = line.split("\t")
        rows.append((number, fields))
    return rows


def _csv_quoted(path: Path, lines: list[str]) -> bool:
    """True when the fields holding a quote are CSV-escaped (at least one is, the others are
    only wrapped in quotes); an error naming both lines when some are and some are raw."""
    first: dict[bool, int] = {}  # CSV-escaped or raw: the line of the first such field
    for number, line in enumerate(lines, start=1):
        if '"' not in line:
            continue
        for text in line.split("\t"):
            if '"' in text and not _WRAPPED.fullmatch(text):
                first.setdefault(_CSV_ESCAPED.fullmatch(text) is not None, number)
        if len(first) == 2:
            raise _mixed(path, first)
    return first.get(True) is not None


def _mixed(path: Path, first: dict[bool, int]) -> InputError:
    """The refusal of a file with CSV-escaped fields and raw quotes, at the later of the
    two first lines."""
    if first[True] < first[False]:
        return InputError(path, first[False], "a raw '\"' in a file whose quoted fields are "
                          f"CSV-quoted (first on line {first[True]}); {_MIXED}")
    return InputError(path, first[True], "a CSV-quoted field (\"...\"\"...\") in a file whose "
                      f"other '\"' are raw (first on line {first[False]}); {_MIXED}")


def _add_row(path: Path, number: int, row: list[str], col: dict[str, int], found: _Rows) -> None:
    seg_id = _seg_id(path, number, row[col["seg_id"]])
    doc_id, source = row[col["doc_id"]], row[col["source"]]
    seg_in_doc = _seg_in_doc(path, number, row[col["seg_in_doc"]]) if "seg_in_doc" in col else 0
    seg = SourceSegment(seg_id, doc_id, seg_in_doc, source)
    known = found.segments.setdefault(seg_id, seg)
    found.first_line.setdefault(seg_id, number)
    if known != seg:
        raise InputError(path, number, f"segment {seg_id} has another source or document than "
                                       f"on line {found.first_line[seg_id]}")
    translator, kind = row[col["translator"]], row[col["kind"]]
    if kind not in KINDS:
        raise InputError(path, number, f"kind must be system or reference, not {kind!r}")
    if found.roles.setdefault(translator, KINDS[kind]) != KINDS[kind]:
        raise InputError(path, number, f"{translator} is both a system and a reference")
    texts = found.texts.setdefault(translator, {})
    if seg_id in texts:
        raise InputError(path, number, f"a second row for {translator}, segment {seg_id}")
    texts[seg_id] = row[col["translation"]]
    if "orig_lang" in col:
        found.origlang[doc_id] = row[col["orig_lang"]] or None


def _seg_id(path: Path, number: int, text: str) -> int:
    return parse_position(path, number, text, "seg_id")


def _seg_in_doc(path: Path, number: int, text: str) -> int:
    return parse_position(path, number, text, "seg_in_doc")


def _check_complete(path: Path, found: _Rows) -> list[SourceSegment]:
    """Segments in seg_id order, once every translator is known to have all of them."""
    ids = sorted(found.segments)
    for translator, by_seg in found.texts.items():
        if len(by_seg) != len(ids):
            first = next(i for i in ids if i not in by_seg)
            raise InputError(path, found.first_line[first],
                             f"{translator} has no row for segment {first}, which starts "
                             f"on this line ({translator} has {len(by_seg)} of {len(ids)} "
                             "segments)")
    ordered = [found.segments[i] for i in ids]
    _check_documents(path, found, ordered)
    if any(s.seg_in_doc == 0 for s in ordered):
        ordered = _number_in_documents(ordered)
    return ordered


def _check_documents(path: Path, found: _Rows, ordered: list[SourceSegment]) -> None:
    """Documents are contiguous runs of segments in seg_id order, and a seg_in_doc given is
    the segment's place in its document, as a docs file must have them: a document split by
    another one was stored as one whose segments are not together."""
    first: dict[str, int] = {}
    place = 0
    for i, seg in enumerate(ordered):
        same = i > 0 and seg.doc_id == ordered[i - 1].doc_id
        if not same and seg.doc_id in first:
            raise InputError(path, found.first_line[seg.seg_id], f"document {seg.doc_id!r} "
                             f"(first seen on line {found.first_line[first[seg.doc_id]]}) is "
                             "not contiguous: its segments must follow one another in seg_id "
                             "order")
        first.setdefault(seg.doc_id, seg.seg_id)
        place = place + 1 if same else 1
        if seg.seg_in_doc and seg.seg_in_doc != place:
            raise InputError(path, found.first_line[seg.seg_id], f"seg_in_doc is "
                             f"{seg.seg_in_doc}, but the segment is number {place} of "
                             f"document {seg.doc_id!r}")


def _number_in_documents(segments: list[SourceSegment]) -> list[SourceSegment]:
    out: list[SourceSegment] = []
    counts: dict[str, int] = {}
    for s in segments:
        counts[s.doc_id] = counts.get(s.doc_id, 0) + 1
        out.append(SourceSegment(s.seg_id, s.doc_id, counts[s.doc_id], s.source))
    return out


def _renumber(segments: list[SourceSegment]) -> list[SourceSegment]:
    """The same segments numbered 1..n in order."""
    return [SourceSegment(i, s.doc_id, s.seg_in_doc, s.source) for i, s in enumerate(segments, 1)]
