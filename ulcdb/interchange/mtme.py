"""mt-metrics-eval's layout, read and written (its ``data.py`` conventions): test beds
(``read_mtme``, at the end of this module), human scores and metric scores.

``metric-scores/LP/NAME-REF.LEVEL.score``: one ``SYSTEM SCORE`` line per system and unit;
a system's n-th line is segment (document) n in test-bed order; ``sys`` files have one line
per system.  REF is a reference name, several joined with ``.``, ``all`` (every reference)
or ``src`` (no reference: give ``src_refs`` to say which set to file such scores under).
Reference names cannot hold ``-`` there, so ulcdb's ``ref-A`` is written ``refA``; reading
matches a name with or without its dashes.  ``None`` marks a missing score (it counts as
a line of its system, but is not stored).
``LP.NAME.LEVEL.score`` files under ``human-scores/`` are read by ``read_mtme_human`` (human
scores go to the assessment table).
Domain-level files (``DOMAIN SYSTEM SCORE``) have no place in the store: a folder import
skips them and says so.  mt-metrics-eval has no system-vs-system scores (its REF must be
references): ulcdb writes those to ``metric-scores/LP/system-vs-system/``, which
mt-metrics-eval does not read and ulcdb does.

The writer produces the whole layout mt-metrics-eval's ``EvalSet(name, lp, path=...)``
reads: sources, references, system outputs (references also appear there under their own
name, as mt-metrics-eval lists human translations), documents, human and metric scores.
Translators without texts (scores-only test beds) get empty lines.  mt-metrics-eval has one
human score per system and unit: where the store has individual judges' scores (and no
averaged one, judge ``''``), the mean over the judges is written.  Files are named by
language pair: a test bed without languages needs ``lp``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from ulcdb.errors import InputError, NotFound, UlcdbError
from ulcdb.ingest import textio
from ulcdb.ingest.assessments import LEVELS as HUMAN_LEVELS
from ulcdb.ingest.assessments import check_count, optional_score
from ulcdb.ingest.model import Assessment, TestbedData, TranslatorText
from ulcdb.ingest.plain import read_plain
from ulcdb.interchange.fetch import (
    Selection,
    TestbedInfo,
    check_selection,
    score_sets,
    testbed_info,
)
from ulcdb.interchange.model import (
    ScoreFrame,
    ScoreSet,
    Source,
    format_number,
    numbered_lines,
    parse_score,
    safe_file_name,
)
from ulcdb.store import Store

METRIC_NAME = re.compile(r"^(?P<name>.+)-(?P<refs>[^-]+)\.(?P<level>[^.]+)\.score$")
LP = re.compile(r"^[A-Za-z0-9_]+-[A-Za-z0-9_]+$")
MISSING = frozenset({"None"})
JACK = "system-vs-system"  # sub-folder of metric-scores/LP that mt-metrics-eval does not read


def mtme_name(name: str) -> str:
    """How mt-metrics-eval spells a reference name (no dashes)."""
    return name.replace("-", "")


def parse_metric_file_name(path: str | Path) -> tuple[str, str, str]:
    """(metric, REF token, level) of ``NAME-REF.LEVEL.score``."""
    match = METRIC_NAME.match(Path(path).name)
    if match is None:
        raise InputError(path, None, "name must be NAME-REF.LEVEL.score, e.g. "
                         "COMET-refA.seg.score")
    return match["name"], match["refs"], match["level"]


def match_translator(path: str | Path, token: str, names: Collection[str]) -> str:
    """The translator ``token`` names: exactly, or with its dashes dropped."""
    if token in names:
        return token
    found = [n for n in names if mtme_name(n) == token]
    if len(found) != 1:
        problem = "no" if not found else "more than one"
        raise InputError(path, None, f"{problem} translator of the test bed is called {token!r}")
    return found[0]


def read_mtme_metric(path: str | Path, testbed: str, roles: Mapping[str, str],
                     counts: Mapping[str, int], src_refs: tuple[str, ...] | None = None
                     ) -> ScoreFrame:
    """One ``NAME-REF.LEVEL.score`` file.

    ``roles``: the test bed's translators (name -> role); ``counts``: its number of segments
    (``seg``) and documents (``doc``), which every system must have lines for.
    """
    metric, token, level = parse_metric_file_name(path)
    if level == "domain":
        raise InputError(path, None, "domain-level scores have no place in the store")
    if level not in ("seg", "doc", "sys"):
        raise InputError(path, None, f"level {level!r} is not seg, doc, sys or domain")
    refs = _refs(path, token, roles, src_refs)
    sets: dict[str, ScoreSet] = {}
    seen: dict[str, int] = {}  # target -> lines so far, None lines included
    first_line: dict[str, int] = {}
    for line, text in numbered_lines(path):
        fields = text.split()
        if len(fields) != 2:
            raise InputError(path, line, f"expected 2 fields (SYSTEM SCORE), found {len(fields)}")
        target = _target(path, line, fields[0], roles)
        block = sets.setdefault(target, ScoreSet(metric, target, refs, level))
        first_line.setdefault(target, line)
        seen[target] = seen.get(target, 0) + 1
        value = parse_score(path, line, fields[1], MISSING)
        block.add(value, seg=None if level == "sys" else seen[target], line=line)
    expected = 1 if level == "sys" else counts.get(level)
    unit = {"seg": "segments", "doc": "documents", "sys": "system score"}[level]
    for target, n in seen.items():
        if expected is not None and n != expected:
            raise InputError(path, first_line[target], f"{target!r} (first line here) has {n} "
                             f"lines, the test bed has {expected} {unit}")
    return ScoreFrame.from_sets(sets.values(), Source(str(path), "mtme"), testbed)


def _refs(path: str | Path, token: str, roles: Mapping[str, str],
          src_refs: tuple[str, ...] | None) -> tuple[str, ...]:
    if token == "src":
        if not src_refs:
            raise InputError(path, None, "reference-free scores (-src): name the reference set "
                             "to store them under (--ref)")
        return tuple(sorted(src_refs))
    if token == "all":
        refs = [n for n, role in roles.items() if role == "reference"]
        if not refs:
            raise InputError(path, None, "'all' references, but the test bed has none")
        return tuple(sorted(refs))
    return tuple(sorted(match_translator(path, t, roles) for t in token.split(".")))


def _target(path: str | Path, line: int, system: str, roles: Mapping[str, str]) -> str:
    try:
        return match_translator(path, system, roles)
    except InputError:
        raise InputError(path, line, f"unknown system or reference {system!r}") from None


def find_metric_files(root: str | Path, lp: str) -> tuple[list[Path], list[Path]]:
    """(score files, skipped domain-level files) under ``root/metric-scores/lp``."""
    folder = Path(root) / "metric-scores" / lp
    if not folder.is_dir():
        raise InputError(folder, None, "no such folder (is this an mt-metrics-eval test set, "
                         "and is the language pair right?)")
    files = sorted([*folder.glob("*.score"), *(folder / JACK).glob("*.score")])
    domain = [p for p in files if p.name.endswith(".domain.score")]
    return [p for p in files if p not in domain], domain


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


# --- writing ----------------------------------------------------------------------------------


def write_mtme(store: Store, testbed: str, folder: str | Path, sel: Selection | None = None,
               texts: bool = True, lp: str | None = None) -> list[Path]:
    """Write the mt-metrics-eval layout of ``testbed`` (one language pair) into ``folder``;
    ``lp`` (``src-tgt``) names the pair where the test bed has no languages."""
    info = _with_lp(testbed_info(store, testbed), lp)
    lp = info.lp
    assert lp is not None  # _with_lp refuses a test bed without one
    sel = sel or Selection()
    sel = Selection((testbed,), sel.metrics, sel.targets, sel.refsets, sel.levels, sel.variant)
    check_selection(store, sel)  # before anything is written
    folder = Path(folder)
    names = _mtme_names(folder, info)
    written: list[Path] = []
    if texts:
        written += _write_texts(store, folder, info, names)
    written += _write_human(store, folder, info, names)
    files: dict[Path, list[str]] = {}
    for _, block in score_sets(store, sel):
        refs = ".".join(names[r] for r in block.refs)
        safe_file_name(folder, block.metric, "metric")
        where = folder / "metric-scores" / lp
        if any(info.translators[r] != "reference" for r in block.refs):
            where = where / JACK  # mt-metrics-eval knows no system-vs-system scores
        path = where / f"{block.metric}-{refs}.{block.level}.score"
        files.setdefault(path, []).extend(_lines(names[block.target], block, info))
    for path, lines in files.items():
        _write(path, lines)
        written.append(path)
    return written


def _with_lp(info: TestbedInfo, lp: str | None) -> TestbedInfo:
    """``info`` with the language pair ``lp`` (which must agree with the test bed's own)."""
    if lp is None:
        if info.lp is None:
            raise NotFound(f"test bed {info.name!r} has no source/target language: "
                           "mt-metrics-eval names files by language pair; give it (--lp SRC-TGT)")
        return info
    if not LP.match(lp):
        raise UlcdbError(f"the language pair must be SRC-TGT (e.g. en-de), not {lp!r}")
    if info.lp is not None and info.lp != lp:
        raise UlcdbError(f"test bed {info.name!r} is {info.lp}, not {lp}")
    info.src_lang, info.tgt_lang = lp.split("-")
    return info


def _mtme_names(folder: Path, info: TestbedInfo) -> dict[str, str]:
    """Translator name -> the name written: references lose their dashes; must stay unique."""
    names = {}
    for name, role in info.translators.items():
        written = mtme_name(name) if role == "reference" else name
        if not written or any(c.isspace() for c in written) or "/" in written:
            raise InputError(folder, None, f"{role} {name!r} cannot be written in "
                             "mt-metrics-eval files (white space or '/')")
        if role == "reference" and written in ("all", "src"):
            raise InputError(folder, None, f"reference {name!r} would be written {written!r}, "
                             "a word mt-metrics-eval reserves")
        names[name] = written
    if len(set(names.values())) != len(names):
        raise InputError(folder, None, "two translators would get the same mt-metrics-eval "
                         "name once dashes are dropped from reference names")
    return names


def _lines(name: str, block: ScoreSet, info: TestbedInfo) -> list[str]:
    if block.level == "sys":
        return [f"{name} {_value(block.values[0])}"]
    by_unit: dict[Any, float | None]
    units: Sequence[Any]
    if block.level == "seg":
        by_unit = dict(zip(block.segs, block.values, strict=True))
        units = range(1, len(info.seg_doc) + 1)
    else:
        by_unit = dict(zip(block.doc_ids, block.values, strict=True))
        units = info.docs
    return [f"{name} {_value(by_unit.get(u))}" for u in units]


def _value(value: float | None) -> str:
    return "None" if value is None else format_number(value)


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")


def _write_texts(store: Store, folder: Path, info: TestbedInfo,
                 names: dict[str, str]) -> list[Path]:
    lp, n = info.lp, len(info.seg_doc)
    assert lp is not None
    tid = store.testbed_id(info.name)
    sources = [r[0] for r in store.query(
        "select source from segment where testbed_id = ? order by seg_id", [tid])]
    paths = [folder / "sources" / f"{lp}.txt", folder / "documents" / f"{lp}.docs"]
    _write(paths[0], [_one_line(s) for s in sources])
    _write(paths[1], [f"{info.domains.get(d) or 'default'} {d}" for d in info.seg_doc])
    for name, role in info.translators.items():
        rows = dict(store.query(
            "select seg_id, text from translation tr join translator t using (translator_id) "
            "where t.testbed_id = ? and t.name = ?", [tid, name]))
        lines = [_one_line(rows.get(i, "")) for i in range(1, n + 1)]
        targets = [folder / "system-outputs" / lp / f"{names[name]}.txt"]
        if role == "reference":
            targets.append(folder / "references" / f"{lp}.{names[name]}.txt")
        for path in targets:
            _write(path, lines)
            paths.append(path)
    return paths


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def _write_human(store: Store, folder: Path, info: TestbedInfo,
                 names: dict[str, str]) -> list[Path]:
    """``human-scores/LP.CRITERION.LEVEL.score``: per system and unit the averaged assessment
    (judge ''), else the mean over the judges."""
    rows = store.query("select criterion, level, translator, seg_id, doc_id, value "
                       "from judged_assessments where testbed = ? order by 1, 2, 3",
                       [info.name])
    # (criterion, level) -> translator -> unit (segment number, document, None) -> value
    grouped: dict[tuple[str, str], dict[str, dict[int | str | None, float | None]]] = {}
    for criterion, level, name, seg_id, doc_id, value in rows:
        unit = seg_id if level == "seg" else doc_id if level == "doc" else None
        grouped.setdefault((criterion, level), {}).setdefault(name, {})[unit] = value
    written = []
    for (criterion, level), by_name in grouped.items():
        safe_file_name(folder, criterion, "criterion")
        units = ([None] if level == "sys" else range(1, len(info.seg_doc) + 1)
                 if level == "seg" else info.docs)
        lines = [f"{names[name]} {_value(values.get(u))}"
                 for name, values in by_name.items() for u in units]
        path = folder / "human-scores" / f"{info.lp}.{criterion}.{level}.score"
        _write(path, lines)
        written.append(path)
    return written


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


MTME_HUMAN_NAME = re.compile(r"^(?P<lp>[^.]+)\.(?P<name>.+)\.(?P<level>[^.]+)\.score$")


# --- mt-metrics-eval human scores -----------------------------------------------------------


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
