"""mt-metrics-eval test beds: one language pair of a test-set folder.

Layout (as mt-metrics-eval's ``data.py`` reads it)::

    <root>/sources/<lp>.txt
    <root>/references/<lp>.<refname>.txt
    <root>/system-outputs/<lp>/<system>.txt
    <root>/documents/<lp>.docs          one "DOMAIN DOCID" line per segment (optional here)

mt-metrics-eval also lists human translations among the system outputs under the reference's
name (``system-outputs/en-de/refB.txt``); such a file whose text equals the reference of the
same name is kept only as the reference.  Lines are compared as mt-metrics-eval reads them,
without trailing white space; the reference's own text is what is kept.
"""

from __future__ import annotations

from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.model import TestbedData, TranslatorText
from ulcdb.ingest.plain import build_segments, read_docs, read_translator, single_document
from ulcdb.ingest.textio import read_lines


def read_mtme(root: Path, lp: str, name: str | None = None) -> TestbedData:
    """Read language pair ``lp`` (``src-tgt``) of the mt-metrics-eval folder ``root``."""
    root = Path(root)
    src_lang, tgt_lang = _languages(root, lp)
    source = root / "sources" / f"{lp}.txt"
    if not source.is_file():
        raise InputError(source, None, f"no source for {lp!r}; {_known_pairs(root)}")
    sources = read_lines(source)
    name = name if name is not None else f"{root.name}:{lp}"
    docs = root / "documents" / f"{lp}.docs"
    layout = read_docs(docs, len(sources)) if docs.exists() else single_document(name, len(sources))
    refs = [
        read_translator(ref, "reference", path, source, len(sources))
        for ref, path in _references(root, lp).items()
    ]
    systems = [
        read_translator(sys, "system", path, source, len(sources))
        for sys, path in _systems(root, lp).items()
    ]
    return TestbedData(
        name=name,
        src_lang=src_lang,
        tgt_lang=tgt_lang,
        origin=str(root),
        documents=layout.documents,
        segments=build_segments(sources, layout),
        translators=refs + _without_reference_copies(refs, systems),
        has_documents=docs.exists(),
        dashless_names=True,
    )


def _languages(root: Path, lp: str) -> tuple[str, str]:
    parts = lp.split("-")
    if len(parts) != 2 or not all(parts):
        raise InputError(root, None, f"language pair must look like 'en-de', got {lp!r}")
    return parts[0], parts[1]


def _known_pairs(root: Path) -> str:
    pairs = sorted(p.stem for p in (root / "sources").glob("*.txt"))
    if not pairs:
        return "is this an mt-metrics-eval folder?"
    return f"language pairs here: {', '.join(pairs)}"


def _references(root: Path, lp: str) -> dict[str, Path]:
    """``references/<lp>.<name>.txt`` by name, sorted."""
    prefix = f"{lp}."
    found: dict[str, Path] = {}
    for path in sorted((root / "references").glob(f"{lp}.*.txt")):
        ref = path.name[len(prefix) : -len(".txt")]
        if ref:
            found[ref] = path
    return found


def _systems(root: Path, lp: str) -> dict[str, Path]:
    """``system-outputs/<lp>/<name>.txt`` by name, sorted."""
    folder = root / "system-outputs" / lp
    return {path.name[: -len(".txt")]: path for path in sorted(folder.glob("*.txt"))}


def _without_reference_copies(
    refs: list[TranslatorText], systems: list[TranslatorText]
) -> list[TranslatorText]:
    """Drop system outputs that repeat a reference; a same-named, different text is an error."""
    by_name = {ref.name: ref for ref in refs}
    kept: list[TranslatorText] = []
    for system in systems:
        ref = by_name.get(system.name)
        if ref is None:
            kept.append(system)
            continue
        for number, (a, b) in enumerate(zip(ref.texts, system.texts, strict=True), 1):
            if a.rstrip() != b.rstrip():
                raise InputError(
                    system.origin, number,
                    f"system output {system.name!r} has the name of a reference but differs "
                    f"from {ref.origin} on this line",
                )
    return kept
