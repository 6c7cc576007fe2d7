"""mt-metrics-eval's layout (its ``data.py`` conventions): metric scores read, the whole
layout written (test beds and human scores are read by ``ulcdb.ingest.mtme_testbeds``, which
``ulcdb ingest testbed`` and ``ulcdb ingest assessments`` use; this module serves
``ulcdb ingest scores`` and ``ulcdb export``).

``metric-scores/LP/NAME-REF.LEVEL.score``: one ``SYSTEM SCORE`` line per system and unit;
a system's n-th line is segment (document) n in test-bed order; ``sys`` files have one line
per system.  REF is a reference name, several joined with ``.``, ``all`` (every reference)
or ``src`` (no reference: give ``src_refs`` to say which set to file such scores under).
Reference names cannot hold ``-`` there, so ulcdb's ``ref-A`` is written ``refA``; reading
matches a name with or without its dashes.  ``None`` marks a missing score (it counts as
a line of its system, but is not stored).
``LP.NAME.LEVEL.score`` files under ``human-scores/`` hold human scores (they go to the
assessment table).
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

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ulcdb.errors import InputError, NotFound, UlcdbError
from ulcdb.ingest.mtme_testbeds import (
    LP,
    MISSING,
    match_translator,
    mtme_name,
)
from ulcdb.interchange.fetch import (
    ExportSelection,
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
from ulcdb.scoring.progress import Tick, ticking
from ulcdb.store.database import Store, named_query

METRIC_NAME = re.compile(r"^(?P<name>.+)-(?P<refs>[^-]+)\.(?P<level>[^.]+)\.score$")
JACK = "system-vs-system"  # sub-folder of metric-scores/LP that mt-metrics-eval does not read


def parse_metric_file_name(path: str | Path) -> tuple[str, str, str]:
    """(metric, REF token, level) of ``NAME-REF.LEVEL.score``."""
    match = METRIC_NAME.match(Path(path).name)
    if match is None:
        raise InputError(path, None, "name must be NAME-REF.LEVEL.score, e.g. "
                         "COMET-refA.seg.score")
    return match["name"], match["refs"], match["level"]


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
    refs = refs_of(path, token, roles, src_refs)
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


def refs_of(path: str | Path, token: str, roles: Mapping[str, str],
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


# --- writing ----------------------------------------------------------------------------------


def write_mtme(store: Store, testbed: str, folder: str | Path, sel: ExportSelection | None = None,
               texts: bool = True, lp: str | None = None, tick: Tick | None = None
               ) -> list[Path]:
    """Write the mt-metrics-eval layout of ``testbed`` (one language pair) into ``folder``;
    ``lp`` (``src-tgt``) names the pair where the test bed has no languages."""
    info = _with_lp(testbed_info(store, testbed), lp)
    lp = info.lp
    assert lp is not None  # _with_lp refuses a test bed without one
    sel = sel or ExportSelection()
    sel = ExportSelection((testbed,), sel.metrics, sel.targets, sel.refsets, sel.levels,
                          sel.variant)
    check_selection(store, sel)  # before anything is written
    folder = Path(folder)
    names = _mtme_names(folder, info)
    written: list[Path] = []
    if texts:
        written += _write_texts(store, folder, info, names)
    written += _write_human(store, folder, info, names)
    files: dict[Path, list[str]] = {}
    for _, block in ticking(score_sets(store, sel), lambda b: b[1].metric, tick):
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
        rows = dict(store.query(named_query("target_texts"), [tid, name]))
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
