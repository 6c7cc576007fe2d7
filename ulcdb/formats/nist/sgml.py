"""NIST / MetricsMATR SGML test beds (``srcset``, ``refset`` and ``tstset`` files).

These files are often not well-formed XML (bare ``&``, missing ``</seg>``), so they are read
leniently with regular expressions, the way mteval does, keeping line numbers for errors:

* a ``<seg>`` ends at its ``</seg>`` or, when that is missing, at the next structural tag
  (``<seg>``, ``<doc>``, ``</doc>``, ``<p>``, ``<hl>``, a set tag) or the end of the file;
  other tags inside a segment are kept as text;
* segment text is stripped of surrounding white space, inner line breaks become one space, and
  ``&amp; &lt; &gt; &quot; &apos;`` are decoded (once, in one pass); other ``&`` stay as written;
* tag and attribute names are case-insensitive; attribute values may be unquoted.

Reference and system names are the ``sysid`` of their documents; one file may hold several.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.ingest.textio import LineIndex, read_declared_text
from ulcdb.metrics.languages import normalise, set_language

_TAG = re.compile(r"<(/?)([A-Za-z][\w.-]*)([^<>]*)>")
_ATTRIBUTE = re.compile(
    r"""([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""
)
_ENTITY = re.compile(r"&(amp|lt|gt|quot|apos);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_LINE_BREAK = re.compile(r"[ \t]*\r?\n\s*")
_SETS = frozenset({"srcset", "refset", "tstset"})
_STRUCTURAL = _SETS | {"doc", "seg", "p", "hl"}


@dataclass
class SgmlSegment:
    seg_id: str
    text: str
    line: int


@dataclass
class SgmlDocument:
    doc_id: str
    sysid: str | None
    attributes: dict[str, str]
    line: int
    segments: list[SgmlSegment] = field(default_factory=list)


@dataclass
class SgmlFile:
    """What one SGML file holds: its documents in file order, and its set languages."""

    path: Path
    documents: list[SgmlDocument] = field(default_factory=list)
    languages: dict[str, tuple[str, int]] = field(default_factory=dict)  # srclang/trglang


def read_sgml(name: str, source: Path, refs: list[Path], systems: list[Path]) -> TestbedData:
    """Read a source ``srcset`` file and the ``refset``/``tstset`` files of references/systems.

    Segment order is the document order of the source, segments in file order within each.
    Every reference and system must have exactly the source's documents and segment ids.
    """
    src = parse_sgml(source)
    documents, segments, positions = _source_layout(src)
    translators: list[TranslatorText] = []
    names: dict[str, Path] = {}
    languages = dict(src.languages)
    for role, paths in (("reference", refs), ("system", systems)):
        for path in paths:
            parsed = parse_sgml(path)
            _merge_languages(languages, parsed)
            for sysid, docs in _by_sysid(parsed).items():
                _claim_name(names, sysid, path)
                texts = _align(parsed.path, sysid, docs, src, positions, len(segments))
                translators.append(TranslatorText(sysid, role, texts, str(path)))
    data = TestbedData(name=name, origin=str(source), documents=documents, segments=segments,
                       translators=translators)
    for key, side in (("srclang", "src_lang"), ("trglang", "tgt_lang")):
        if key in languages:  # as ISO 639-1 codes: NIST writes trglang="English"
            set_language(data, side, languages[key][0], source, languages[key][1], f"{key}=")
    return data


def parse_sgml(path: Path) -> SgmlFile:
    """Parse one SGML file leniently; structural errors name the file and the line."""
    return _Parser(path, read_declared_text(path)).parse()


def decode_entities(text: str) -> str:
    """Decode the five SGML entities mteval knows, in one pass (``&amp;lt;`` -> ``&lt;``)."""
    if "&" not in text:
        return text
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)


class _Parser:
    def __init__(self, path: Path, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.result = SgmlFile(path)
        self.doc: SgmlDocument | None = None
        self.seg: tuple[str, int, int] | None = None  # id, text start, line
        self.seg_ids: dict[str, int] = {}

    def error(self, line: int | None, message: str) -> InputError:
        return InputError(self.result.path, line, message)

    def parse(self) -> SgmlFile:
        for match in _TAG.finditer(self.text):
            closing, tag = match.group(1) == "/", match.group(2).lower()
            if tag not in _STRUCTURAL:
                continue
            line = self.lines.line(match.start())
            if self.seg is not None:
                self._end_segment(match.start())
                if tag == "seg" and closing:
                    continue
            self._tag(tag, closing, match.group(3), line, match.end())
        if self.seg is not None:
            self._end_segment(len(self.text))
        self._close_document()
        if not self.result.documents:
            raise self.error(None, "no <doc> found: not an SGML srcset/refset/tstset file")
        return self.result

    def _tag(self, tag: str, closing: bool, attrs: str, line: int, end: int) -> None:
        if tag == "seg":
            if closing:
                raise self.error(line, "</seg> without an open <seg>")
            self._open_segment(_attributes(attrs), line, end)
        elif tag == "doc":
            if closing and self.doc is None:
                raise self.error(line, "</doc> without an open <doc>")
            self._close_document()
            if not closing:
                self._open_document(_attributes(attrs), line)
        elif tag in _SETS and not closing:
            self._set_languages(_attributes(attrs), line)

    def _set_languages(self, attributes: dict[str, str], line: int) -> None:
        for key in ("srclang", "trglang"):
            if attributes.get(key):
                _merge_language(self.result.path, self.result.languages, key,
                                (attributes[key], line))

    def _open_document(self, attributes: dict[str, str], line: int) -> None:
        doc_id = attributes.pop("docid", "").strip()
        if not doc_id:
            raise self.error(line, "<doc> without a docid attribute")
        sysid = attributes.pop("sysid", "").strip() or None
        self.doc = SgmlDocument(doc_id, sysid, attributes, line)
        self.seg_ids = {}

    def _close_document(self) -> None:
        if self.doc is not None:
            if not self.doc.segments:
                raise self.error(self.doc.line, f"document {self.doc.doc_id!r} has no <seg>")
            self.result.documents.append(self.doc)
            self.doc = None

    def _open_segment(self, attributes: dict[str, str], line: int, start: int) -> None:
        if self.doc is None:
            raise self.error(line, "<seg> outside a <doc>")
        seg_id = attributes.get("id", "").strip()
        if not seg_id:
            raise self.error(line, "<seg> without an id attribute")
        if seg_id in self.seg_ids:
            raise self.error(
                line, f"duplicate seg id {seg_id} in document {self.doc.doc_id!r} "
                f"(first on line {self.seg_ids[seg_id]})",
            )
        self.seg_ids[seg_id] = line
        self.seg = (seg_id, start, line)

    def _end_segment(self, end: int) -> None:
        if self.seg is None or self.doc is None:
            return
        seg_id, start, line = self.seg
        text = self.text[start:end].strip()
        if "\n" in text:
            text = _LINE_BREAK.sub(" ", text)
        self.doc.segments.append(SgmlSegment(seg_id, decode_entities(text), line))
        self.seg = None


def _attributes(text: str) -> dict[str, str]:
    return {
        key.lower(): decode_entities(double or single or bare)
        for key, double, single, bare in _ATTRIBUTE.findall(text)
    }


def _merge_language(
    path: Path, languages: dict[str, tuple[str, int]], key: str, value: tuple[str, int]
) -> None:
    code = normalise(value[0], path, f"{key}=", value[1]).code
    known = languages.setdefault(key, value)
    if normalise(known[0], path).code != code:
        raise InputError(path, value[1], f"{key} {value[0]!r} differs from {known[0]!r}")


def _merge_languages(languages: dict[str, tuple[str, int]], parsed: SgmlFile) -> None:
    for key, value in parsed.languages.items():
        _merge_language(parsed.path, languages, key, value)


def _source_layout(
    src: SgmlFile,
) -> tuple[list[Document], list[SourceSegment], dict[str, dict[str, int]]]:
    """Documents, segments and, per doc id, the 0-based position of every seg id."""
    documents: list[Document] = []
    segments: list[SourceSegment] = []
    positions: dict[str, dict[str, int]] = {}
    for doc in src.documents:
        if doc.doc_id in positions:
            raise InputError(src.path, doc.line, f"duplicate docid {doc.doc_id!r}")
        attrs = doc.attributes
        documents.append(Document(doc.doc_id, attrs.get("genre"), attrs.get("domain"),
                                  attrs.get("origlang")))
        positions[doc.doc_id] = {}
        for number, seg in enumerate(doc.segments, 1):
            positions[doc.doc_id][seg.seg_id] = len(segments)
            segments.append(SourceSegment(len(segments) + 1, doc.doc_id, number, seg.text))
    return documents, segments, positions


def _by_sysid(parsed: SgmlFile) -> dict[str, dict[str, SgmlDocument]]:
    """Documents grouped by sysid (file order), each group keyed by doc id."""
    groups: dict[str, dict[str, SgmlDocument]] = {}
    for doc in parsed.documents:
        if doc.sysid is None:
            raise InputError(parsed.path, doc.line, "<doc> without a sysid attribute")
        group = groups.setdefault(doc.sysid, {})
        if doc.doc_id in group:
            raise InputError(
                parsed.path, doc.line, f"duplicate docid {doc.doc_id!r} for sysid {doc.sysid!r}"
                f" (first on line {group[doc.doc_id].line})",
            )
        group[doc.doc_id] = doc
    return groups


def _claim_name(names: dict[str, Path], sysid: str, path: Path) -> None:
    if sysid in names:
        raise InputError(path, None, f"sysid {sysid!r} is already used in {names[sysid]}")
    names[sysid] = path


def _align(
    path: Path,
    sysid: str,
    docs: dict[str, SgmlDocument],
    src: SgmlFile,
    positions: dict[str, dict[str, int]],
    n_segments: int,
) -> list[str]:
    """The texts of one sysid in source order; documents and seg ids must match the source."""
    texts: list[str | None] = [None] * n_segments
    for doc in docs.values():
        where = positions.get(doc.doc_id)
        if where is None:
            raise InputError(path, doc.line, f"unknown docid {doc.doc_id!r}: not in the source")
        for seg in doc.segments:
            if seg.seg_id not in where:
                raise InputError(path, seg.line, f"unknown seg id {seg.seg_id} in document "
                                 f"{doc.doc_id!r}: not in the source")
            texts[where[seg.seg_id]] = seg.text
        if len(doc.segments) != len(where):
            present = {seg.seg_id for seg in doc.segments}
            missing = [s for s in where if s not in present]
            raise InputError(path, doc.line, f"document {doc.doc_id!r} of {sysid!r} lacks "
                             f"seg id(s) {', '.join(missing[:5])}")
    for doc in src.documents:
        if doc.doc_id not in docs:
            raise InputError(path, None, f"sysid {sysid!r} has no document {doc.doc_id!r} "
                             f"({src.path} line {doc.line})")
    return [text if text is not None else "" for text in texts]
