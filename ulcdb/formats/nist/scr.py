"""NIST MetricsMATR ``.scr`` score files, read and written.

``NAME-seg.scr``, ``NAME-doc.scr``, ``NAME-sys.scr``, tab-separated, in two flavours:

=======  ===========================================  ==========================================
level    mteval-v13a ``--metricsMATR``                MetricsMATR submissions (ulcdb writes)
=======  ===========================================  ==========================================
seg      ``TESTSET SYSTEM DOCID SEGID SCORE``          ``METRIC TESTSET SYSTEM DOCID SEGID SCORE``
doc      ``TESTSET SYSTEM DOCID SCORE``                ``METRIC TESTSET SYSTEM DOCID SCORE``
sys      ``TESTSET SYSTEM SCORE``                      ``METRIC TESTSET SYSTEM SCORE``
=======  ===========================================  ==========================================

The level comes from the file name, the flavour from the column count; without a METRIC
column the metric is NAME (mteval writes ``BLEU-seg.scr``).  SEGID is the segment's position
in DOCID.  The files do not say which references were used: a file in a folder named after
its reference set (``ref-A``, ``ref-A+ref-B``) takes that set, otherwise it must be given.
TESTSET is not checked (mteval writes the SGML set id).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.interchange.fetch import ExportSelection, score_sets, testbed_info
from ulcdb.interchange.model import (
    ScoreFrame,
    ScoreSet,
    Source,
    format_number,
    numbered_lines,
    parse_position,
    parse_score,
    resolve_refs,
    safe_file_name,
)
from ulcdb.scoring.progress import Tick, ticking
from ulcdb.store.database import Store

FILE_NAME = re.compile(r"^(?P<name>.*)-(?P<level>seg|doc|sys)\.scr$")
WIDTH = {"seg": 5, "doc": 4, "sys": 3}  # without the METRIC column


def parse_file_name(path: str | Path) -> tuple[str, str]:
    match = FILE_NAME.match(Path(path).name)
    if match is None:
        raise InputError(path, None, "name must be NAME-seg.scr, NAME-doc.scr or NAME-sys.scr")
    return match["name"], match["level"]


def read_scr(path: str | Path, testbed: str, refs: tuple[str, ...] | None,
             metric: str | None = None) -> ScoreFrame:
    """One ``.scr`` file; ``refs``: the reference set (required: the file does not say)."""
    stem, level = parse_file_name(path)
    if not refs:
        raise InputError(path, None, ".scr files do not name their references: put the file in "
                         "a folder named after the reference set, or give --ref")
    width = WIDTH[level]
    sets: dict[tuple[str, str], ScoreSet] = {}
    for line, text in numbered_lines(path):
        fields = [f.strip() for f in (text.split("\t") if "\t" in text else text.split())]
        if len(fields) not in (width, width + 1):
            raise InputError(path, line, f"expected {width} or {width + 1} (with METRIC) "
                             f"columns at {level} level, found {len(fields)}")
        name = fields.pop(0) if len(fields) == width + 1 else (metric or stem)
        _testset, system, *unit, score = fields
        if not system:
            raise InputError(path, line, "empty SYSTEM column")
        block = sets.setdefault((name, system), ScoreSet(name, system, refs, level))
        value = parse_score(path, line, score)
        if level == "seg":
            block.add(value, doc_id=unit[0], seg=parse_position(path, line, unit[1], "SEGID"),
                      line=line)
        elif level == "doc":
            block.add(value, doc_id=unit[0], line=line)
        else:
            block.add(value, line=line)
    return ScoreFrame.from_sets(sets.values(), Source(str(path), "nist"), testbed)


def find_files(root: str | Path) -> list[tuple[Path, str | None]]:
    """``.scr`` files of a folder: ``root/*.scr`` (no refset) and ``root/REFSET/*.scr``."""
    root = Path(root)
    found: list[tuple[Path, str | None]] = [(p, None) for p in sorted(root.glob("*.scr"))]
    found += [(p, p.parent.name) for p in sorted(root.glob("*/*.scr"))]
    if not found:
        raise InputError(root, None, "no .scr files here")
    return found


def read_scr_tree(root: str | Path, testbed: str, names: Collection[str],
                  refs: tuple[str, ...] | None = None, metric: str | None = None) -> ScoreFrame:
    frames = []
    for path, folder in find_files(root):
        found = resolve_refs(path, None, folder, "+", names) if folder else refs
        frames.append(read_scr(path, testbed, found, metric))
    return ScoreFrame.concat(frames)


class ScrWriter:
    """The one MetricsMATR ``.scr`` writer (``export nist`` and ``score -f scr``): lines
    ``METRIC TESTSET SYSTEM [DOCID [SEGID]] SCORE`` with TESTSET the test bed's name, in files
    ``folder/DIR.../STEM-LEVEL.scr``.  Every name that becomes part of a path is checked as
    it is added (a system named ``../x`` is refused), so nothing is written unless all are
    safe."""

    def __init__(self, store: Store, testbed: str, folder: str | Path) -> None:
        self.testbed = testbed
        self.info = testbed_info(store, testbed)
        self.folder = Path(folder)
        self.files: dict[Path, list[str]] = {}

    def path(self, names: tuple[tuple[str, str], ...], level: str) -> Path:
        """``folder/DIR.../STEM-LEVEL.scr`` from ``names``: (what, name) pairs, the folders
        first, the file's stem last; what says in an error which name is wrong."""
        for what, name in names:
            safe_file_name(self.folder, name, what)
        *folders, stem = (name for _, name in names)
        return self.folder.joinpath(*folders, f"{stem}-{level}.scr")

    def add(self, path: Path, metric: str, system: str, level: str, value: float,
            seg: int | None = None, doc_id: str | None = None) -> None:
        """One score: ``seg`` is the test-bed segment number (written as its document and
        its position there), ``doc_id`` the document of a document-level score."""
        unit = ([self.info.seg_doc[seg - 1], str(self.info.seg_in_doc[seg - 1])]
                if level == "seg" and seg is not None
                else [doc_id or ""] if level == "doc" else [])
        self.files.setdefault(path, []).append(
            "\t".join([metric, self.testbed, system, *unit, format_number(value)]))

    def write(self) -> list[Path]:
        for path, lines in self.files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")
        return list(self.files)


def write_scr_files(store: Store, testbed: str, folder: str | Path,
                    sel: ExportSelection | None = None, tick: Tick | None = None
                    ) -> list[Path]:
    """``folder/REFSET/METRIC-LEVEL.scr`` (MetricsMATR with METRIC column, TESTSET = the test
    bed name), all targets of a metric, level and reference set in one file."""
    writer = ScrWriter(store, testbed, folder)
    sel = sel or ExportSelection()
    sel = ExportSelection((testbed,), sel.metrics, sel.targets, sel.refsets, sel.levels,
                          sel.variant)
    for _, block in ticking(score_sets(store, sel), lambda b: b[1].metric, tick):
        path = writer.path((("reference set", "+".join(block.refs)),
                            ("metric", block.metric)), block.level)
        for seg, doc_id, value in zip(block.segs, block.doc_ids, block.values, strict=True):
            if value is not None:
                writer.add(path, block.metric, block.target, block.level, value, seg, doc_id)
    return writer.write()
