"""IQ-XML score files, in both layouts, read and written.

IQMT manual, section 4.1.1-4.1.2 (``layout="iqmt"``)::

    <IQ metric="BLEU-4" ref="R0" score="0.3945" target="S0">
      <S n="1">0.3033</S> ...
    </IQ>

Asiya's variant (``layout="asiya"``; Asiya gzips it as ``.xml.gz``)::

    <REPORT hyp="S0" metric="BLEU" n_docs="7" n_segments="56" ref="R0" score="0.31">
      <DOC id="doc1" n="1" n_segments="5" score="0.32"> <S n="1">0.29</S> ... </DOC> ...
    </REPORT>

``score`` on the root is the system score, on ``DOC`` the document score; ``S/@n`` is the
test-bed segment number (it keeps counting across documents).  Files live at
``TARGET/REFERENCE/METRIC.xml[.gz]``: REFERENCE is one reference, several joined with ``_``
(sorted), or a system (system-vs-system files for JACK); TARGET may be a reference too
(reference-vs-reference files).  A folder name such as ``ref-A_ref-C`` is split against the
test bed's translator names, which may hold ``_`` themselves.  The IQMT layout has no
document scores.
"""

from __future__ import annotations

import gzip
from collections.abc import Collection
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from ulcdb.errors import InputError
from ulcdb.interchange.fetch import ExportSelection, TestbedInfo, score_sets, testbed_info
from ulcdb.interchange.model import (
    ScoreFrame,
    ScoreSet,
    Source,
    format_number,
    parse_position,
    parse_score,
    read_bytes,
    resolve_refs,
    safe_file_name,
)
from ulcdb.scoring.progress import Tick, ticking
from ulcdb.store.database import Store

LAYOUTS = ("iqmt", "asiya")
SUFFIXES = (".xml", ".xml.gz")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                          huge_tree=True, remove_comments=True)


def metric_of_file(path: Path) -> str:
    name = path.name
    for suffix in SUFFIXES[::-1]:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def read_iqxml(path: str | Path, testbed: str, names: Collection[str],
               folders: tuple[str, str] | None = None) -> ScoreFrame:
    """One IQ-XML file (either layout, plain or gzipped).

    ``names``: the test bed's translators, to split multi-reference names.  ``folders``:
    (TARGET, REFERENCE) folder names when the file was found in the directory layout; they
    must agree with the file's attributes.
    """
    path = Path(path)
    try:
        root = etree.fromstring(read_bytes(path), _PARSER)
    except etree.XMLSyntaxError as exc:
        raise InputError(path, exc.lineno, f"not well-formed XML: {exc.msg}") from None
    if root.tag == "IQ":
        target_attr, layout = "target", "iqmt"
    elif root.tag == "REPORT":
        target_attr, layout = "hyp", "asiya"
    else:
        raise InputError(path, root.sourceline,
                         f"root element must be <IQ> (IQMT) or <REPORT> (Asiya), not <{root.tag}>")
    metric = _attr(path, root, "metric")
    target = _attr(path, root, target_attr)
    ref_token = _attr(path, root, "ref")
    refs = resolve_refs(path, root.sourceline, ref_token, "_", names)
    if folders is not None:
        _check_folders(path, root, folders, metric, target, refs, names)
    sets = {lvl: ScoreSet(metric, target, refs, lvl) for lvl in ("seg", "doc", "sys")}
    if root.get("score") is not None:
        sets["sys"].add(parse_score(path, root.sourceline, root.get("score")),
                        line=root.sourceline)
    if layout == "iqmt":
        for s in root:
            _segment(path, s, sets["seg"], None)
    else:
        _asiya_body(path, root, sets)
    source = Source(str(path), f"iqxml-{layout}")
    return ScoreFrame.from_sets(sets.values(), source, testbed)


def _attr(path: Path, element: etree._Element, name: str) -> str:
    value: str | None = element.get(name)  # lxml ships no types
    if value is None or not value.strip():
        raise InputError(path, element.sourceline, f"<{element.tag}> has no {name!r} attribute")
    return value.strip()


def _check_folders(path: Path, root: etree._Element, folders: tuple[str, str], metric: str,
                   target: str, refs: tuple[str, ...], names: Collection[str]) -> None:
    target_dir, ref_dir = folders
    if target_dir != target:
        raise InputError(path, root.sourceline, f"the file scores {target!r} but lies in the "
                         f"folder of {target_dir!r}")
    if resolve_refs(path, root.sourceline, ref_dir, "_", names) != refs:
        raise InputError(path, root.sourceline, f"the file's reference {'+'.join(refs)!r} is "
                         f"not its folder's {ref_dir!r}")
    if metric_of_file(path) != metric:
        raise InputError(path, root.sourceline, f"the file holds metric {metric!r}, its name "
                         f"says {metric_of_file(path)!r}")


def _segment(path: Path, s: etree._Element, block: ScoreSet, doc_id: str | None) -> None:
    if s.tag != "S":
        raise InputError(path, s.sourceline, f"expected <S n=...>, found <{s.tag}>")
    n = parse_position(path, s.sourceline, s.get("n") or "", "segment number n")
    block.add(parse_score(path, s.sourceline, s.text or ""), seg=n, line=s.sourceline,
              in_doc=doc_id)


def _asiya_body(path: Path, root: etree._Element, sets: dict[str, ScoreSet]) -> None:
    n_docs = n_segs = 0
    for doc in root:
        if doc.tag != "DOC":
            raise InputError(path, doc.sourceline, f"expected <DOC>, found <{doc.tag}>")
        doc_id = _attr(path, doc, "id")
        if doc.get("score") is not None:
            sets["doc"].add(parse_score(path, doc.sourceline, doc.get("score")), doc_id=doc_id,
                            line=doc.sourceline)
        before = len(sets["seg"].values)
        for s in doc:
            _segment(path, s, sets["seg"], doc_id)
        found = len(sets["seg"].values) - before
        _check_count(path, doc, "n_segments", found, f"<S> in document {doc_id!r}")
        n_docs += 1
        n_segs += found
    _check_count(path, root, "n_docs", n_docs, "<DOC> elements")
    _check_count(path, root, "n_segments", n_segs, "<S> elements")


def _check_count(path: Path, element: etree._Element, attr: str, found: int, what: str) -> None:
    declared = element.get(attr)
    if declared is None:
        return
    if parse_position(path, element.sourceline, declared, attr, first=0) != found:
        raise InputError(path, element.sourceline,
                         f"{attr}={declared!r} but the file has {found} {what}")


def find_files(root: str | Path) -> list[tuple[Path, tuple[str, str]]]:
    """Every ``TARGET/REFERENCE/METRIC.xml[.gz]`` under ``root``, with its two folder names."""
    root = Path(root)
    found = [p for suffix in SUFFIXES for p in root.glob(f"*/*/*{suffix}")]
    if not found:
        raise InputError(root, None, "no TARGET/REFERENCE/METRIC.xml(.gz) files here")
    return [(p, (p.parent.parent.name, p.parent.name)) for p in sorted(found)]


def read_iqxml_tree(root: str | Path, testbed: str, names: Collection[str]) -> ScoreFrame:
    """All IQ-XML files of a ``TARGET/REFERENCE/METRIC.xml[.gz]`` tree."""
    return ScoreFrame.concat([read_iqxml(p, testbed, names, folders)
                              for p, folders in find_files(root)])


# --- writing ----------------------------------------------------------------------------------


def write_iqxml(store: Store, testbed: str, folder: str | Path, layout: str = "iqmt",
                sel: ExportSelection | None = None, digits: int | None = None,
                compress: bool = False, tick: Tick | None = None) -> list[Path]:
    """Write ``folder/TARGET/REF0_REF1/METRIC.xml[.gz]`` for every stored (metric, target,
    reference set) of ``testbed``.  ``digits``: fixed decimals (Asiya writes 8) instead of
    full precision.  Returns the files written."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}")
    sel = sel or ExportSelection()
    sel = ExportSelection((testbed,), sel.metrics, sel.targets, sel.refsets,
                    ("seg", "doc", "sys") if layout == "asiya" else ("seg", "sys"), sel.variant)
    info = testbed_info(store, testbed)
    groups: dict[tuple[str, str, tuple[str, ...]], dict[str, ScoreSet]] = {}
    for _, block in score_sets(store, sel):
        groups.setdefault((block.metric, block.target, block.refs), {})[block.level] = block
    written = []
    folder = Path(folder)
    for (metric, target, refs), levels in ticking(groups.items(), lambda g: g[0][0], tick):
        ref_name = "_".join(refs)
        for name, what in ((target, "target"), (ref_name, "reference"), (metric, "metric")):
            safe_file_name(folder, name, what)
        text = (_asiya_text(metric, target, ref_name, levels, info, digits) if layout == "asiya"
                else _iqmt_text(metric, target, ref_name, levels, digits))
        path = folder / target / ref_name / f"{metric}.xml{'.gz' if compress else ''}"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(gzip.compress(data, mtime=0) if compress else data)
        written.append(path)
    return written


def _score_attr(block: ScoreSet | None, digits: int | None) -> str:
    if block is None or not block.values or block.values[0] is None:
        return ""
    return f" score={quoteattr(format_number(block.values[0], digits))}"


def _iqmt_text(metric: str, target: str, ref: str, levels: dict[str, ScoreSet],
               digits: int | None) -> str:
    lines = ['<?xml version="1.0"?>',
             f"<IQ metric={quoteattr(metric)} ref={quoteattr(ref)}"
             f"{_score_attr(levels.get('sys'), digits)} target={quoteattr(target)}>"]
    seg = levels.get("seg")
    if seg is not None:
        lines += [f'  <S n="{n}">{escape(format_number(v, digits))}</S>'
                  for n, v in zip(seg.segs, seg.values, strict=True) if v is not None]
    lines.append("</IQ>")
    return "\n".join(lines) + "\n"


def _asiya_text(metric: str, target: str, ref: str, levels: dict[str, ScoreSet],
                info: TestbedInfo, digits: int | None) -> str:
    seg_by_doc: dict[str, list[tuple[int, float]]] = {}
    if "seg" in levels:
        for n, v in zip(levels["seg"].segs, levels["seg"].values, strict=True):
            if v is not None and n is not None:
                seg_by_doc.setdefault(info.seg_doc[n - 1], []).append((n, v))
    doc_scores = {}
    if "doc" in levels:
        doc_scores = {d: v for d, v in zip(levels["doc"].doc_ids, levels["doc"].values,
                                           strict=True) if v is not None}
    body, n_docs, n_segs = [], 0, 0
    for index, doc_id in enumerate(info.docs, start=1):
        segs = seg_by_doc.get(doc_id, [])
        if not segs and doc_id not in doc_scores:
            continue
        score = (f" score={quoteattr(format_number(doc_scores[doc_id], digits))}"
                 if doc_id in doc_scores else "")
        body.append(f'  <DOC id={quoteattr(doc_id)} n="{index}" n_segments="{len(segs)}"'
                    f"{score}>")
        body += [f'    <S n="{n}">{escape(format_number(v, digits))}</S>' for n, v in segs]
        body.append("  </DOC>")
        n_docs += 1
        n_segs += len(segs)
    score = _score_attr(levels.get("sys"), digits)
    head = ['<?xml version="1.0"?>', '<!DOCTYPE REPORT SYSTEM "asiya.dtd" []>',
            f"<REPORT hyp={quoteattr(target)} metric={quoteattr(metric)} n_docs=\"{n_docs}\" "
            f"n_segments=\"{n_segs}\" ref={quoteattr(ref)}{score}>"]
    return "\n".join([*head, *body, "</REPORT>"]) + "\n"
