"""WMT XML test beds (WMT21 and later): sources, references and system outputs in one file.

Shape: ``<dataset id=><collection id=>?<doc id= origlang= [domain=] [testsuite=]>`` holding one
``<src lang=>``, any ``<ref lang= translator=>`` and ``<hyp lang= system=>``, each with
``<p><seg id=N>text</seg></p>`` paragraphs.  References are named ``ref-<translator>`` (``ref``
when there is no translator), systems by their ``system`` attribute.

Documents with a ``testsuite`` attribute are test suites appended to the news test set (WMT21
files carry them, without every reference); like sacrebleu, they are skipped unless asked for.
A reference or system must cover every document read: by default one that does not is an
error; ``drop_incomplete=True`` leaves such translators out instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ulcdb.errors import InputError
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.ingest.textio import decode_declared, read_bytes
from ulcdb.metrics.languages import normalise


@dataclass
class _Translator:
    name: str
    role: str
    texts: dict[int, str] = field(default_factory=dict)  # segment index -> text
    docs: set[str] = field(default_factory=set)
    line: int = 0


@dataclass
class _State:
    path: Path
    documents: list[Document] = field(default_factory=list)
    segments: list[SourceSegment] = field(default_factory=list)
    translators: dict[str, _Translator] = field(default_factory=dict)
    languages: dict[str, tuple[str, int]] = field(default_factory=dict)  # src/tgt -> lang, line
    notes: list[str] = field(default_factory=list)  # languages read as their ISO 639-1 codes
    doc_lines: dict[str, int] = field(default_factory=dict)


def read_wmtxml(
    name: str, path: Path, include_testsuites: bool = False, drop_incomplete: bool = False
) -> TestbedData:
    """Read a WMT XML file into a test bed (languages from the ``lang`` attributes)."""
    root = _parse(path)
    if root.tag != "dataset":
        raise InputError(path, root.sourceline, f"not a WMT XML test bed: the root element is "
                         f"<{root.tag}>, expected <dataset>")
    state = _State(path)
    for doc in root.iter("doc"):
        if doc.get("testsuite") and not include_testsuites:
            continue
        _read_document(state, doc)
    if not state.segments:
        raise InputError(path, root.sourceline, "no <doc> with segments found")
    translators = _complete_translators(state, drop_incomplete)
    return TestbedData(
        name=name,
        src_lang=state.languages.get("src", (None, 0))[0],
        tgt_lang=state.languages.get("tgt", (None, 0))[0],
        notes=state.notes,
        origin=str(path),
        documents=state.documents,
        segments=state.segments,
        translators=translators,
    )


def _parse(path: Path) -> etree._Element:
    """Parse without DTDs, entities or network; malformed XML names the parser's line."""
    data = read_bytes(path)
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        decode_declared(path, data)  # a bad byte gets the clearer encoding message
        where = re.sub(r", line \d+, column (\d+)$", r" (column \1)", exc.msg)  # the line is named
        raise InputError(path, exc.lineno, f"malformed XML: {where}") from None
    for entity in root.iter(etree.Entity):  # declared in a DTD: left unexpanded, it would be
        raise InputError(path, entity.sourceline,  # stored as the text '&name;'
                         f"entity {entity.text} is declared in a DTD, which ulcdb does not "
                         "read: write the text itself (or &amp; &lt; &gt; &quot; &apos;)")
    return root


def _read_document(state: _State, doc: etree._Element) -> None:
    doc_id = _required(state.path, doc, "id")
    if doc_id in state.doc_lines:
        raise InputError(state.path, doc.sourceline,
                         f"duplicate doc id {doc_id!r} (first on line {state.doc_lines[doc_id]})")
    state.doc_lines[doc_id] = doc.sourceline
    srcs = doc.findall("src")
    if len(srcs) != 1:
        raise InputError(state.path, doc.sourceline,
                         f"document {doc_id!r} has {len(srcs)} <src> elements, expected 1")
    _language(state, "src", srcs[0])
    first = len(state.segments)
    positions = _read_source(state, doc_id, srcs[0])
    state.documents.append(Document(doc_id, doc.get("genre"), doc.get("domain"),
                                    doc.get("origlang")))
    seen: set[str] = set()
    for element in doc:
        if element.tag in ("ref", "hyp"):
            translator = _translator(state, element, doc_id, seen)
            _read_translation(state, translator, element, doc_id, positions, first)


def _read_source(state: _State, doc_id: str, src: etree._Element) -> dict[str, int]:
    """Append the document's segments; return seg id -> offset within the document."""
    positions: dict[str, int] = {}
    for seg in src.iter("seg"):
        seg_id = _required(state.path, seg, "id")
        if seg_id in positions:
            raise InputError(state.path, seg.sourceline,
                             f"duplicate seg id {seg_id} in the source of document {doc_id!r}")
        positions[seg_id] = len(positions)
        state.segments.append(
            SourceSegment(len(state.segments) + 1, doc_id, len(positions), _text(seg))
        )
    if not positions:
        raise InputError(state.path, src.sourceline, f"document {doc_id!r} has no source <seg>")
    return positions


def _translator(
    state: _State, element: etree._Element, doc_id: str, seen: set[str]
) -> _Translator:
    if element.tag == "ref":
        who = element.get("translator")
        name, role = (f"ref-{who}" if who else "ref"), "reference"
    else:
        name, role = _required(state.path, element, "system"), "system"
    if name in seen:
        raise InputError(state.path, element.sourceline,
                         f"{name!r} appears twice in document {doc_id!r}")
    seen.add(name)
    _language(state, "tgt", element)
    translator = state.translators.setdefault(
        name, _Translator(name, role, line=element.sourceline)
    )
    if translator.role != role:
        raise InputError(state.path, element.sourceline,
                         f"{name!r} is used both for a reference and a system")
    return translator


def _read_translation(
    state: _State,
    translator: _Translator,
    element: etree._Element,
    doc_id: str,
    positions: dict[str, int],
    first: int,
) -> None:
    """Store one ref/hyp of a document; its seg ids must be exactly the source's."""
    found: set[str] = set()
    for seg in element.iter("seg"):
        seg_id = _required(state.path, seg, "id")
        if seg_id not in positions:
            raise InputError(state.path, seg.sourceline, f"unknown seg id {seg_id} in "
                             f"{translator.name!r} of document {doc_id!r}: not in its source")
        if seg_id in found:
            raise InputError(state.path, seg.sourceline, f"duplicate seg id {seg_id} in "
                             f"{translator.name!r} of document {doc_id!r}")
        found.add(seg_id)
        translator.texts[first + positions[seg_id]] = _text(seg)
    if len(found) != len(positions):
        missing = [s for s in positions if s not in found]
        raise InputError(state.path, element.sourceline, f"{translator.name!r} lacks seg id(s) "
                         f"{', '.join(missing[:5])} of document {doc_id!r}")
    translator.docs.add(doc_id)


def _complete_translators(state: _State, drop_incomplete: bool) -> list[TranslatorText]:
    """References then systems, in order of appearance; each must cover every document."""
    result: list[TranslatorText] = []
    for translator in state.translators.values():
        if len(translator.docs) != len(state.documents):
            if drop_incomplete:
                continue
            lacking = [d.doc_id for d in state.documents if d.doc_id not in translator.docs]
            raise InputError(
                state.path, state.doc_lines[lacking[0]],
                f"{translator.name!r} is missing from {len(lacking)} of "
                f"{len(state.documents)} documents, first {lacking[0]!r} "
                "(use drop_incomplete to leave such translators out)",
            )
        texts = [translator.texts[i] for i in range(len(state.segments))]
        result.append(TranslatorText(translator.name, translator.role, texts, str(state.path)))
    result.sort(key=lambda t: t.role != "reference")
    return result


def _language(state: _State, side: str, element: etree._Element) -> None:
    given = element.get("lang")
    if not given:
        return
    found = normalise(given, state.path, f"<{element.tag} lang=", element.sourceline)
    lang = found.code
    if found.note and found.note not in state.notes:
        state.notes.append(found.note)
    known = state.languages.setdefault(side, (lang, element.sourceline))
    if known[0] != lang:
        raise InputError(state.path, element.sourceline,
                         f"{element.tag} lang {lang!r} differs from {known[0]!r} "
                         f"(line {known[1]})")


def _required(path: Path, element: etree._Element, attribute: str) -> str:
    value: str | None = element.get(attribute)  # lxml ships no types
    if value is None or not value.strip():
        raise InputError(path, element.sourceline,
                         f"<{element.tag}> without a {attribute} attribute")
    return value


def _text(seg: etree._Element) -> str:
    """The segment's text exactly as written (including text of any nested markup)."""
    if len(seg):
        return "".join(seg.itertext())
    return seg.text or ""
