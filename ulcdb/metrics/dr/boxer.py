"""Read Boxer's flat XML (``--semantics drs --format xml --flat true``), the format Asiya's DR
code reads (``read_BOXER_parsing`` in ``IQ/Scoring/DR.pm``).

The file holds one ``<xfdrs xml:id="dN">`` element per segment (N = 1, 2, ...; a segment
Boxer failed on has none) or, when Boxer ran on ``<META>``-separated documents, one per
document.  Each holds ``<words>`` (``<word xml:id="i1001">form</word>``), ``<postags>``
(``<postag index="i1001">NN</postag>``), ``<netags>`` and ``<cons>``: the labelled
conditions (``ulcdb.metrics.dr.drs``).  As in Asiya, a condition's attributes are kept as
they are, its ``<label>`` children are its sub-structures in order, its ``<index>``
children its words, a ``<dr>`` child a referent (with its word indices) and a ``<date>`` or
``<time>`` child its date.

Malformed XML and elements that break this layout are refused with file and line.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.textio import read_bytes
from ulcdb.metrics.dr.drs import Cond, FlatDrs


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""


def parse_xml(path: Path) -> _Node:
    """The document element as a small tree with line numbers; malformed XML raises
    ``InputError`` with the line expat stopped at."""
    data = read_bytes(path)  # a regular file (not a FIFO or device), or an InputError
    parser = xml.parsers.expat.ParserCreate()
    stack: list[_Node] = [_Node("#document", {}, 0)]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise InputError(path, exc.lineno, f"malformed XML: "
                         f"{xml.parsers.expat.ErrorString(exc.code)}") from None
    if not stack[0].children:
        raise InputError(path, None, "no XML element")
    return stack[0].children[0]


@dataclass(frozen=True)
class BoxerDrs:
    """One ``<xfdrs>``: its number (from ``xml:id="dN"``), line and DRS."""

    number: int
    line: int
    drs: FlatDrs


def read_boxer_xml(path: Path) -> list[BoxerDrs]:
    """Every ``<xfdrs>`` of the file, in file order (numbers strictly increasing)."""
    root = parse_xml(path)
    out: list[BoxerDrs] = []
    for x in root.children:
        if x.tag != "xfdrs":
            raise InputError(path, x.line, f"expected <xfdrs>, found <{x.tag}>")
        m = re.fullmatch(r"d(\d+)", x.attrs.get("xml:id", ""))
        if m is None:
            raise InputError(path, x.line, "<xfdrs> needs xml:id=\"dN\" (N = segment or "
                             "document number)")
        n = int(m.group(1))
        if n < 1 or (out and n <= out[-1].number):
            raise InputError(path, x.line, f"<xfdrs> d{n} out of order (after "
                             f"d{out[-1].number if out else 0})")
        out.append(BoxerDrs(n, x.line, _xfdrs(path, x)))
    return out


def _xfdrs(path: Path, x: _Node) -> FlatDrs:
    drs = FlatDrs()
    forms: dict[str, str] = {}
    tags: dict[str, str] = {}
    for part in x.children:
        if part.tag == "words":
            for w in part.children:
                forms[_need(path, w, "xml:id")] = w.text
        elif part.tag == "postags":
            for p in part.children:
                tags[_need(path, p, "index")] = p.text
        elif part.tag == "cons":
            for c in part.children:
                label = _need(path, c, "label")
                if label in drs.conds:
                    raise InputError(path, c.line, f"label {label!r} used twice")
                drs.conds[label] = _cond(path, c, drs)
    for i in [*forms, *(t for t in tags if t not in forms)]:  # file order
        drs.words[i] = (forms.get(i, ""), tags.get(i, ""))
    return drs


def _cond(path: Path, c: _Node, drs: FlatDrs) -> Cond:
    cond = Cond(c.tag, {k: v for k, v in c.attrs.items() if k != "label"})
    for sub in c.children:
        if sub.tag == "dr":
            drs.refs[_need(path, sub, "name")] = [i.text.strip() for i in sub.children
                                                   if i.tag == "index"]
        elif sub.tag in ("date", "time"):
            cond.date = sub.text.strip()
        elif sub.tag == "label":
            cond.children.append(sub.text.strip())
        elif sub.tag == "index":
            cond.indices.append(sub.text.strip())
    return cond


def _need(path: Path, node: _Node, attr: str) -> str:
    value = node.attrs.get(attr)
    if not value:
        raise InputError(path, node.line, f"<{node.tag}> without {attr}")
    return value
