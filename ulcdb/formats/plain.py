"""Plain-text test beds: one segment per line in the source, every reference and every system.

Documents come from an optional ``--docs`` file in one of three layouts:

* a TSV file whose header has ``seg_id`` and ``doc_id`` (optional ``seg_in_doc``,
  ``orig_lang``/``origlang``, ``genre``, ``domain``; other columns are ignored);
* mt-metrics-eval's ``documents/<lp>.docs``: one ``DOMAIN DOCID`` line per segment;
* one document id per line, one line per segment.

Documents must be contiguous runs of segments.  Without a docs file the whole test bed is one
document named after the test bed (added to an existing test bed: the documents it has).
Lines are kept exactly as written (only the newline goes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.ingest.textio import read_lines
from ulcdb.store.names import check_name

_ATTRIBUTE_COLUMNS = {
    "orig_lang": "origlang",
    "origlang": "origlang",
    "genre": "genre",
    "domain": "domain",
}


@dataclass
class DocLayout:
    """The documents of a test bed and the document of every segment, in test-bed order."""

    documents: list[Document]
    doc_of_segment: list[str]


def read_plain(
    name: str,
    source: Path,
    refs: dict[str, Path],
    systems: dict[str, Path],
    docs: Path | None = None,
    src_lang: str | None = None,
    tgt_lang: str | None = None,
    check_names: bool = True,
) -> TestbedData:
    """Read a plain-text test bed; every file must have as many lines as ``source``.

    ``check_names`` False: a reader whose layout names a translator twice (mt-metrics-eval
    lists references among the systems) sorts that out itself.  References come first."""
    if check_names:
        check_translator_names(refs, systems)
    sources = read_lines(source)
    layout = read_docs(docs, len(sources)) if docs else single_document(name, len(sources))
    translators = [read_translator(n, role, path, source, len(sources))
                   for role, named in (("reference", refs), ("system", systems))
                   for n, path in named.items()]
    return TestbedData(
        name=name,
        src_lang=src_lang,
        tgt_lang=tgt_lang,
        origin=str(source),
        documents=layout.documents,
        segments=build_segments(sources, layout),
        translators=translators,
        has_documents=docs is not None,
    )


def check_translator_names(refs: dict[str, Path], systems: dict[str, Path]) -> None:
    """Names must be non-empty, without surrounding blanks, and not both ref and system."""
    for role, names in (("reference", refs), ("system", systems)):
        for name, path in names.items():
            check_name(role, name, path)
    for name in refs.keys() & systems.keys():
        raise InputError(
            systems[name],
            None,
            f"name {name!r} is used for a reference ({refs[name]}) and a system",
        )


def read_translator(
    name: str, role: str, path: Path, source: Path, n_segments: int
) -> TranslatorText:
    """One reference or system output, checked to have one line per source segment."""
    texts = read_lines(path)
    if len(texts) != n_segments:
        raise InputError(
            path,
            None,
            f"{role} {name!r} has {len(texts)} lines, expected {n_segments}"
            f" (the number of lines of the source {source})",
        )
    return TranslatorText(name=name, role=role, texts=texts, origin=str(path))


def single_document(doc_id: str, n_segments: int) -> DocLayout:
    """The layout of a test bed without document information: one document."""
    return DocLayout([Document(doc_id)], [doc_id] * n_segments)


def build_segments(sources: list[str], layout: DocLayout) -> list[SourceSegment]:
    """Segments numbered from 1, with their position in their (contiguous) document."""
    segments: list[SourceSegment] = []
    position = 0
    for i, (text, doc_id) in enumerate(zip(sources, layout.doc_of_segment, strict=True)):
        previous = layout.doc_of_segment[i - 1] if i else None
        position = position + 1 if doc_id == previous else 1
        segments.append(SourceSegment(i + 1, doc_id, position, text))
    return segments


def read_docs(path: Path, n_segments: int) -> DocLayout:
    """Read a docs file in any of the three layouts (see the module docstring)."""
    lines = read_lines(path)
    header = lines[0].split("\t")
    if "seg_id" in header and "doc_id" in header:
        return _read_docs_tsv(path, lines, n_segments)
    return _read_docs_lines(path, lines, n_segments)


def _read_docs_lines(path: Path, lines: list[str], n_segments: int) -> DocLayout:
    """``DOCID`` or ``DOMAIN DOCID`` lines, one per segment."""
    if len(lines) != n_segments:
        raise InputError(path, None, f"{len(lines)} lines, expected {n_segments} (one per segment)")
    width = len(lines[0].split())
    if width not in (1, 2):
        raise InputError(
            path,
            1,
            "expected a header with seg_id and doc_id, 'DOCID' lines or 'DOMAIN DOCID' lines",
        )
    layout = DocLayout([], [])
    builder = _LayoutBuilder(path, layout)
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if len(fields) != width:
            shape = "'DOCID'" if width == 1 else "'DOMAIN DOCID'"
            raise InputError(path, number, f"expected {shape} like line 1, got {line!r}")
        attributes = {"domain": fields[0]} if width == 2 else {}
        builder.add(number, fields[-1], attributes)
    return layout


def _read_docs_tsv(path: Path, lines: list[str], n_segments: int) -> DocLayout:
    """A TSV file with a header; rows may come in any order but cover every segment once."""
    header = lines[0].split("\t")
    rows = _tsv_rows(path, lines, header, n_segments)
    layout = DocLayout([], [])
    builder = _LayoutBuilder(path, layout)
    for seg_id in range(1, n_segments + 1):
        number, row = rows[seg_id]
        attributes = {
            _ATTRIBUTE_COLUMNS[column]: value
            for column, value in row.items()
            if column in _ATTRIBUTE_COLUMNS and value
        }
        builder.add(number, row["doc_id"], attributes)
        expected = row.get("seg_in_doc")
        if expected and expected != str(builder.position):
            raise InputError(
                path, number, f"seg_in_doc is {expected}, but the segment is number "
                f"{builder.position} of document {row['doc_id']!r}",
            )
    return layout


def _tsv_rows(
    path: Path, lines: list[str], header: list[str], n_segments: int
) -> dict[int, tuple[int, dict[str, str]]]:
    """Rows by seg_id, with their line numbers; every seg_id from 1 to n exactly once."""
    rows: dict[int, tuple[int, dict[str, str]]] = {}
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(path, number, f"{len(fields)} fields, expected {len(header)}")
        row = dict(zip(header, fields, strict=True))
        seg_id = _seg_number(path, number, row["seg_id"], n_segments)
        if seg_id in rows:
            raise InputError(
                path, number, f"seg_id {seg_id} already given on line {rows[seg_id][0]}"
            )
        if not row["doc_id"]:
            raise InputError(path, number, "empty doc_id")
        rows[seg_id] = (number, row)
    missing = [seg for seg in range(1, n_segments + 1) if seg not in rows]
    if missing:
        raise InputError(
            path, None, f"no row for {len(missing)} segment(s), first seg_id {missing[0]}"
        )
    return rows


def _seg_number(path: Path, number: int, text: str, n_segments: int) -> int:
    if not text.strip().isdigit():
        raise InputError(path, number, f"seg_id must be a number, got {text!r}")
    seg_id = int(text)
    if not 1 <= seg_id <= n_segments:
        raise InputError(path, number, f"seg_id {seg_id} outside 1..{n_segments}")
    return seg_id


class _LayoutBuilder:
    """Adds segments one by one, checking that documents are contiguous and consistent."""

    def __init__(self, path: Path, layout: DocLayout) -> None:
        self.path = path
        self.layout = layout
        self.documents: dict[str, tuple[int, Document]] = {}
        self.position = 0

    def add(self, number: int, doc_id: str, attributes: dict[str, str]) -> None:
        current = self.layout.doc_of_segment[-1] if self.layout.doc_of_segment else None
        if doc_id != current:
            self._open(number, doc_id)
        else:
            self.position += 1
        self._merge(number, doc_id, attributes)
        self.layout.doc_of_segment.append(doc_id)

    def _open(self, number: int, doc_id: str) -> None:
        check_name("document", doc_id, self.path, number)
        if doc_id in self.documents:
            first = self.documents[doc_id][0]
            raise InputError(
                self.path, number, f"document {doc_id!r} (first seen on line {first}) "
                "is not contiguous: its segments must follow one another",
            )
        document = Document(doc_id)
        self.documents[doc_id] = (number, document)
        self.layout.documents.append(document)
        self.position = 1

    def _merge(self, number: int, doc_id: str, attributes: dict[str, str]) -> None:
        document = self.documents[doc_id][1]
        for key, value in attributes.items():
            known = getattr(document, key)
            if known is None:
                setattr(document, key, value)
            elif known != value:
                raise InputError(
                    self.path, number, f"{key} {value!r} differs from {known!r} given "
                    f"earlier for document {doc_id!r}",
                )
