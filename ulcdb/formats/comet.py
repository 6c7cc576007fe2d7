"""COMET-style per-segment output (``comet-score``), read and written.

Text, as ``comet-score -s SRC -t HYP1 HYP2 -r REF`` prints it (older versions leave out the
file name and print ``System score: X``)::

    HYP1<TAB>Segment 0<TAB>score: 0.8523[<TAB>variance: 0.01]
    HYP1<TAB>score: 0.8012

and the ``--to_json`` file: ``{"HYP1": [{"src": .., "mt": .., "ref": .., "COMET": 0.85}, ..]}``
(older versions: a plain list).  Segments count from 0 there; ulcdb's from 1.  A file label
(``systems/Online-B.de.txt``) names the target as itself, its file name, or the file name up
to its first dot, whichever is a translator of the test bed; ``target`` overrides.  COMET
does not say which references it used (give ``refs``) nor its model (give the metric name;
default ``COMET``).  A file named as ``write_comet`` names them, ``METRIC.REFSET.txt`` with
REFSET the members joined with ``+`` (``BLEU.ref-A+ref-B.txt``), gives both where they are
not given.  Other tools printing the same layout (BLEURT wrappers, ...) read the same.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.ingest.textio import parse_json
from ulcdb.interchange.fetch import ExportSelection, score_sets
from ulcdb.interchange.model import (
    ScoreFrame,
    ScoreSet,
    Source,
    format_number,
    numbered_lines,
    parse_score,
    read_bytes,
    safe_file_name,
    split_names,
)
from ulcdb.scoring.progress import Tick, ticking
from ulcdb.store.database import Store

SEGMENT = re.compile(r"^(?:(?P<label>.*?)\t)?Segment (?P<n>\d+)\tscore: (?P<score>\S+)"
                     r"(?:\tvariance: \S+)?$")
SYSTEM = re.compile(r"^(?:(?P<label>.*?)\tscore: |System score: )(?P<score>\S+)$")
IGNORED = re.compile(r"^(Predictions saved in: |CacheInfo\()")
DEFAULT_METRIC = "COMET"


def target_of(path: str | Path, line: int | None, label: str | None, names: Collection[str],
              target: str | None) -> str:
    if target:
        return target
    if not label:
        raise InputError(path, line, "the output does not name the system: give --target")
    name = Path(label).name
    for candidate in (label, name, name.split(".")[0]):
        if candidate in names:
            return candidate
    raise InputError(path, line, f"{label!r} names no system or reference of the test bed "
                     "(give --target)")


def export_name(path: str | Path, names: Collection[str]) -> tuple[str, tuple[str, ...]] | None:
    """(metric, reference set) of a file named ``METRIC.REFSET.txt`` (``write_comet``'s
    names), where exactly one split of the name gives a REFSET of translators in ``names``."""
    name = Path(path).name
    if not name.endswith(".txt"):
        return None
    parts = name.removesuffix(".txt").split(".")
    found = []
    for cut in range(1, len(parts)):
        readings = split_names(".".join(parts[cut:]), "+", names)
        if len(readings) == 1:
            found.append((".".join(parts[:cut]), tuple(sorted(readings[0]))))
    return found[0] if len(found) == 1 else None


def read_comet(path: str | Path, testbed: str, names: Collection[str], refs: tuple[str, ...],
               metric: str | None = None, target: str | None = None,
               score_key: str = "COMET") -> ScoreFrame:
    """``comet-score`` text output or its ``--to_json`` file; ``refs`` and ``metric``, where
    not given, from an export name ``METRIC.REFSET.txt``."""
    named = None if refs and metric else export_name(path, names)
    refs = refs or (named[1] if named else ())
    if not refs:
        raise InputError(path, None, "COMET output does not say which references were used: "
                         "give --ref (or name the file METRIC.REFSET.txt)")
    metric = metric or (named[0] if named else DEFAULT_METRIC)
    data = read_bytes(path)
    if data.lstrip()[:1] in (b"{", b"["):
        sets = _json_sets(path, data, names, refs, metric, target, score_key)
    else:
        sets = _text_sets(path, data, names, refs, metric, target)
    return ScoreFrame.from_sets(sets, Source(str(path), "comet"), testbed)


def _text_sets(path: str | Path, data: bytes, names: Collection[str], refs: tuple[str, ...],
               metric: str, target: str | None) -> list[ScoreSet]:
    sets: dict[tuple[str, str], ScoreSet] = {}
    for line, text in numbered_lines(path, data):
        seg, system = SEGMENT.match(text), SYSTEM.match(text)
        if seg:
            who = target_of(path, line, seg["label"], names, target)
            block = sets.setdefault((who, "seg"), ScoreSet(metric, who, refs, "seg"))
            block.add(parse_score(path, line, seg["score"]), seg=int(seg["n"]) + 1, line=line)
        elif system:
            who = target_of(path, line, system["label"], names, target)
            block = sets.setdefault((who, "sys"), ScoreSet(metric, who, refs, "sys"))
            block.add(parse_score(path, line, system["score"]), line=line)
        elif not IGNORED.match(text):
            raise InputError(path, line, "not a COMET output line "
                             "([FILE<TAB>]Segment N<TAB>score: X, or FILE<TAB>score: X)")
    return list(sets.values())


def _json_sets(path: str | Path, data: bytes, names: Collection[str], refs: tuple[str, ...],
               metric: str, target: str | None, key: str) -> list[ScoreSet]:
    parsed = parse_json(path, data, "COMET JSON")
    by_label = parsed if isinstance(parsed, dict) else {None: parsed}
    sets = []
    for label, records in by_label.items():
        who = target_of(path, None, label, names, target)
        if not isinstance(records, list):
            raise InputError(path, None, f"{label!r}: expected a list of segment records")
        block = ScoreSet(metric, who, refs, "seg")
        for number, record in enumerate(records, start=1):
            if not isinstance(record, dict) or key not in record:
                raise InputError(path, None, f"{label or 'record'} {number}: no {key!r} score")
            block.add(parse_score(path, None, str(record[key])), seg=number)
        sets.append(block)
    return sets


def write_comet(store: Store, testbed: str, folder: str | Path, sel: ExportSelection | None = None,
                tick: Tick | None = None) -> list[Path]:
    """``folder/METRIC.REFSET.txt``: comet-score's text output (full precision), one line
    per segment of each target, then its system line."""
    sel = sel or ExportSelection()
    sel = ExportSelection((testbed,), sel.metrics, sel.targets, sel.refsets, ("seg", "sys"),
                    sel.variant)
    files: dict[Path, list[str]] = {}
    folder = Path(folder)
    for _, block in ticking(score_sets(store, sel), lambda b: b[1].metric, tick):
        name = f"{block.metric}.{'+'.join(block.refs)}.txt"
        path = folder / safe_file_name(folder, name, "metric and reference set")
        lines = files.setdefault(path, [])
        for seg, value in zip(block.segs, block.values, strict=True):
            if value is None:
                continue
            if block.level == "seg" and seg is not None:
                lines.append(f"{block.target}\tSegment {seg - 1}\tscore: {format_number(value)}")
            else:
                lines.append(f"{block.target}\tscore: {format_number(value)}")
    folder.mkdir(parents=True, exist_ok=True)
    for path, lines in files.items():
        path.write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")
    return list(files)
