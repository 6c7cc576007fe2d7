"""mt-metrics-eval's test beds (``read_mtme``) and human scores (``read_mtme_human``), read
as its ``data.py`` lays them out (``ulcdb ingest testbed``, ``ulcdb ingest assessments``);
its metric scores are read, and the whole layout written, by ``ulcdb.formats.mtme``
(``ulcdb ingest scores``, ``ulcdb export``), which imports the name matching from here.

``human-scores/LP.NAME.LEVEL.score``: one ``SYSTEM SCORE`` line per system and unit; a
system's n-th line is segment (document) n in test-bed order; ``sys`` files have one line per
system.  ``None`` marks a missing score (it counts as a line of its system, but is not
stored).  Reference names cannot hold ``-`` in mt-metrics-eval's file names, so ulcdb's
``ref-A`` is spelt ``refA`` there; reading matches a name with or without its dashes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.formats.assessments import LEVELS as HUMAN_LEVELS
from ulcdb.formats.assessments import check_count, optional_score
from ulcdb.formats.plain import read_plain
from ulcdb.ingest import textio
from ulcdb.ingest.model import Assessment, TestbedData, TranslatorText

MISSING = frozenset({"None"})


LP = re.compile(r"^[A-Za-z0-9_]+-[A-Za-z0-9_]+$")  # a language pair: src-tgt


def mtme_name(name: str) -> str:
    """How mt-metrics-eval spells a reference name (no dashes)."""
    return name.replace("-", "")


def match_translator(path: str | Path, token: str, names: Collection[str]) -> str:
    """The translator ``token`` names: exactly, or with its dashes dropped."""
    if token in names:
        return token
    found = [n for n in names if mtme_name(n) == token]
    if len(found) != 1:
        problem = "no" if not found else "more than one"
        raise InputError(path, None, f"{problem} translator of the test bed is called {token!r}")
    return found[0]


MTME_HUMAN_NAME = re.compile(r"^(?P<lp>[^.]+)\.(?P<name>.+)\.(?P<level>[^.]+)\.score$")


def parse_mtme_name(path: str | Path) -> tuple[str, str, str]:
    """(language pair, score name, level) from ``LP.NAME.LEVEL.score``; NAME may hold dots."""
    match = MTME_HUMAN_NAME.match(Path(path).name)
    if match is None:
        raise InputError(path, None, "name must be LP.NAME.LEVEL.score, e.g. en-de.mqm.seg.score")
    level = match["level"]
    if level not in HUMAN_LEVELS:
        message = f"level {level!r} in the file name is not supported (use seg, doc or sys)"
        raise InputError(path, None, message)
    return match["lp"], match["name"], level


def read_mtme_human(path: str | Path) -> list[Assessment]:
    """Read an mt-metrics-eval human-scores file ``LP.NAME.{seg,doc,sys}.score``.

    Each line is ``SYSTEM SCORE``; the criterion is NAME.  In seg and doc files a system's
    n-th line is segment (document) n in test-bed order, ``None`` lines included: the
    Assessment's ``seg_id`` is that n and ``doc_id`` is None (see the module docstring).  A sys
    file has one line per system.  ``None`` scores are skipped.

    Example: ``read_mtme_human("human-scores/en-de.mqm.seg.score")``
    """
    _, criterion, level = parse_mtme_name(path)
    seen: dict[str, int] = {}  # system -> lines so far
    first_line: dict[str, int] = {}
    result = []
    for line, text in textio.numbered_lines(path, what="human scores"):
        fields = text.split()
        check_count(path, line, fields, 2, "SYSTEM SCORE")
        system, score = fields
        seen[system] = seen.get(system, 0) + 1
        first_line.setdefault(system, line)
        if level == "sys" and seen[system] > 1:
            message = f"second score for system {system!r} (first at line {first_line[system]})"
            raise InputError(path, line, message)
        value = optional_score(path, line, score, MISSING)
        if value is None:
            continue
        position = None if level == "sys" else seen[system]
        result.append(Assessment(system, criterion, value, level, position, None, "", line))
    return result


def check_mtme_units(path: str | Path, n_segments: int, n_documents: int) -> None:
    """Every system of a seg (doc) human-scores file must have one line per segment
    (document) of the test bed: a missing line would shift every later score by one."""
    _, _, level = parse_mtme_name(path)
    if level == "sys":
        return
    units, what = (n_segments, "segments") if level == "seg" else (n_documents, "documents")
    lines: dict[str, list[int]] = {}
    for line, text in textio.numbered_lines(path, what="human scores"):
        lines.setdefault(text.split()[0], []).append(line)
    for system, where in lines.items():
        if len(where) != units:
            raise InputError(path, where[-1], f"system {system!r} has {len(where)} lines, the "
                             f"test bed has {units} {what} (one line each, None where "
                             "unscored)")


def match_mtme_names(items: list[Assessment], names: Collection[str]) -> list[Assessment]:
    """Map mt-metrics-eval's dashless reference names (``refA``) to the test bed's (``ref-A``).

    The same matching as ``ingest scores`` (``match_translator``); a name that matches no
    translator stays as read, for the store's unknown-translator check.
    """
    found: dict[str, str] = {}
    for a in items:
        if a.translator not in found:
            try:
                found[a.translator] = match_translator("", a.translator, names)
            except InputError:
                found[a.translator] = a.translator
        a.translator = found[a.translator]
    return items


# --- test beds: the texts of one language pair --------------------------------------------
# mt-metrics-eval test beds: one language pair of a test-set folder.
#
# Layout (as mt-metrics-eval's ``data.py`` reads it)::
#
#     <root>/sources/<lp>.txt
#     <root>/references/<lp>.<refname>.txt
#     <root>/system-outputs/<lp>/<system>.txt
#     <root>/documents/<lp>.docs          one "DOMAIN DOCID" line per segment (optional here)
#
# mt-metrics-eval also lists human translations among the system outputs under the reference's
# name (``system-outputs/en-de/refB.txt``); such a file whose text equals the reference of the
# same name is kept only as the reference.  Lines are compared as mt-metrics-eval reads them,
# without trailing white space; the reference's own text is what is kept.


def read_mtme(root: Path, lp: str, name: str | None = None) -> TestbedData:
    """Read language pair ``lp`` (``src-tgt``) of the mt-metrics-eval folder ``root``."""
    root = Path(root)
    src_lang, tgt_lang = _testbed_languages(root, lp)
    source = root / "sources" / f"{lp}.txt"
    if not source.is_file():
        raise InputError(source, None, f"no source for {lp!r}; {_known_pairs(root)}")
    name = name if name is not None else f"{root.name}:{lp}"
    docs = root / "documents" / f"{lp}.docs"
    data = read_plain(name, source, _references(root, lp), _systems(root, lp),
                      docs if docs.exists() else None, src_lang, tgt_lang, check_names=False)
    refs = [t for t in data.translators if t.role == "reference"]
    systems = [t for t in data.translators if t.role == "system"]
    return dataclasses.replace(data, origin=str(root), dashless_names=True,
                               translators=refs + _without_reference_copies(refs, systems))


def _testbed_languages(root: Path, lp: str) -> tuple[str, str]:
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


def find_human_files(root: str | Path, lp: str) -> list[Path]:
    return sorted((Path(root) / "human-scores").glob(f"{lp}.*.score"))


def language_pairs(root: str | Path) -> list[str]:
    """The language pairs a test-set folder holds: sources, metric scores, human scores."""
    root = Path(root)
    found = {p.stem for p in (root / "sources").glob("*.txt")}
    found |= {p.name for p in (root / "metric-scores").glob("*") if p.is_dir()}
    found |= {p.name.split(".")[0] for p in (root / "human-scores").glob("*.score")}
    return sorted(lp for lp in found if LP.match(lp))


def only_pair(root: str | Path) -> str:
    """The language pair of a folder that holds one; else an error listing them (--lp)."""
    pairs = language_pairs(root)
    if len(pairs) != 1:
        held = f"holds {', '.join(pairs)}" if pairs else "holds no language pair"
        raise InputError(root, None, f"this mt-metrics-eval folder {held}: give --lp "
                         f"(e.g. --lp {pairs[0] if pairs else 'en-de'})")
    return pairs[0]


def human_items(path: Path, roles: Mapping[str, str], counts: Mapping[str, int]
                ) -> list[Assessment]:
    """Human scores of one file, with mt-metrics-eval names mapped to the test bed's;
    ``counts``: the test bed's segments and documents ({"seg": n, "doc": n})."""
    items = read_mtme_human(path)
    check_mtme_units(path, counts["seg"], counts["doc"])
    for a in items:
        try:
            a.translator = match_translator(path, a.translator, roles)
        except InputError:
            raise InputError(path, a.line, f"unknown system or reference {a.translator!r}") \
                from None
    return items
