"""Import Boxer's flat XML DRSs (``ulcdb ingest annotations FILE --format boxer-xml``).

One ``<xfdrs xml:id="dN">`` per segment of the translator, N = segment number (the layout
Asiya's DR code reads, ``ulcdb.metrics.dr.boxer``); a segment without its element is one
Boxer failed on and is stored as a failed analysis (DR scores NULL).  Each element's words
must spell the segment's text, as for the other importers, so a file of another translator
or in another order is refused with file and line; they become the run's tokens (with their
PoS tags), and the DRS is stored beside them (``annotated_text.drs``).  Analyses belong to
texts (as everywhere in the store): a text already holding a Boxer DRS in the run keeps it
when this file has none for it.  Everything is checked
before anything is written, and written in one transaction.

``boxer-xml-doc``: Boxer run on ``<META>``-separated documents (Asiya's DR_doc), one
``<xfdrs xml:id="dN">`` per document, N = the document's number in test-bed order; its words
must spell the document's segments.  The document DRS is stored under the document's key
(``storage.doc_hash``); the scorer hands it to DR_doc (``Analysis.doc_drs``).  A document
without its element is stored as failed (DR_doc NULL for its segments).
"""

from __future__ import annotations

from pathlib import Path

from ulcdb.annotation import storage
from ulcdb.annotation.model import FAILED, OK, Analysis, Token
from ulcdb.errors import Conflict, InputError
from ulcdb.metrics.dr.boxer import BoxerDrs, read_boxer_xml
from ulcdb.metrics.dr.drs import FlatDrs
from ulcdb.store.database import Store


def boxer_analyses(path: Path, texts: list[str], translator: str,
                   unit: str = "segment") -> list[Analysis]:
    """One analysis per text (a segment's, or a document's segments joined by newlines):
    tokens and DRS, or failed where Boxer has none."""
    from ulcdb.annotation.importers import _clip, _spelling

    found = read_boxer_xml(path)
    by_number: dict[int, BoxerDrs] = {}
    for b in found:
        if b.number > len(texts):
            raise InputError(path, b.line, f"<xfdrs> d{b.number}: {translator} has only "
                             f"{len(texts)} {unit}s")
        by_number[b.number] = b
    out: list[Analysis] = []
    for n, text in enumerate(texts, 1):
        got = by_number.get(n)
        if got is None:
            out.append(Analysis(status=FAILED, message=f"no Boxer DRS for this {unit}"))
            continue
        tokens = _tokens(got.drs)
        if _spelling("".join(t.form for t in tokens)) != _spelling(text):
            raise InputError(path, got.line, f"the words of d{n} do not spell {translator}'s "
                             f"{unit} {n} ({_clip(text)!r}): wrong translator or order?")
        out.append(Analysis(tuple(tokens), status=OK, drs=got.drs.to_json()))
    return out


def _tokens(drs: FlatDrs) -> list[Token]:
    return [Token(form, tag=pos or None) for form, pos in drs.words.values()]


def import_boxer(store: Store, path: Path, translator: str, texts: list[str],
                 name: str, lang: str | None, docs: list[int] | None = None,
                 replace: bool = False) -> int:
    """Check and store one Boxer file for a translator's segments (``docs``: the first
    segment of every document, for a file of document DRSs); returns the run id.  A text
    holding another DRS in the run is a Conflict unless ``replace``."""
    if docs is None:
        units, hashes = texts, [storage.text_hash(t) for t in texts]
    else:
        bounds = [*docs, len(texts)]
        groups = [texts[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
        units, hashes = ["\n".join(g) for g in groups], [storage.doc_hash(g) for g in groups]
    analyses = boxer_analyses(path, units, translator, "segment" if docs is None else
                              "document")
    rid = storage.find_run(store, name)
    stored = storage.load(store, rid, hashes) if rid is not None else {}
    parsed = {h for h, a in stored.items() if a.drs is not None}
    # Annotations belong to texts: a text Boxer parsed for another translator keeps its DRS
    # where this file has none for it.
    keep = [(n, h, a) for n, (h, a) in enumerate(zip(hashes, analyses, strict=True), 1)
            if a.status == OK or h not in parsed]
    if not replace:
        _check_unchanged(path, translator, name, "segment" if docs is None else "document",
                         keep, stored)
    return storage.save_import(store, rid, name, lang, [(h, a) for _, h, a in keep])


def _check_unchanged(path: Path, translator: str, run: str, unit: str,
                     keep: list[tuple[int, str, Analysis]], stored: dict[str, Analysis]) -> None:
    """A Conflict at the first text whose stored DRS in ``run`` the import would change (of
    a text the file has twice, the first is the one stored)."""
    seen: set[str] = set()
    for n, h, a in keep:
        if h in seen:
            continue
        seen.add(h)
        old = stored.get(h)
        if a.drs is not None and old is not None and old.drs is not None and old.drs != a.drs:
            raise Conflict(f"{path}: <xfdrs> d{n}: {translator}'s {unit} {n} already has "
                           f"another DRS in the run {run!r}; use --replace to replace it, or "
                           "--tool NAME for a run of its own")
