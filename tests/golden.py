"""Readers for the shared samples and the golden outputs of the reference tools (tests only)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from ulcdb.metrics.base import Documents


@dataclass
class Sample:
    """A shared sample test bed: raw lines of every system and reference, and its documents."""

    systems: dict[str, list[str]]
    refs: dict[str, list[str]]
    docs: Documents

    def refset(self, name: str) -> list[list[str]]:
        """Reference texts of a golden ``refset`` such as ``ref-A+ref-B``."""
        return [self.refs[r] for r in name.split("+")]

    def translator(self, name: str) -> list[str]:
        return self.systems[name] if name in self.systems else self.refs[name]


def _lines(path: Path) -> list[str]:
    # Raw lines exactly as the tools saw them: only the newline is stripped.
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load_sample(shared: Path, pair: str) -> Sample:
    """``pair`` is ``ruen`` or ``ende``."""
    base = shared / "testbeds" / f"wmt21_newstest2021_{pair}" / "sample"
    systems = {p.name.split(".")[0]: _lines(p) for p in sorted((base / "systems").glob("*.txt"))}
    refs = {}
    for p in sorted((base / "refs").glob("*.txt")):
        name = p.name.split(".")[0]
        refs["ref-Bdraft" if "draft" in p.name else name] = _lines(p)
    with open(base / "docs.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return Sample(systems, refs, Documents(tuple(r["doc_id"] for r in rows)))


@dataclass(frozen=True)
class GoldenRow:
    tool: str
    options: str
    metric: str
    system: str
    refset: str
    level: str
    doc_id: str
    seg_id: str
    value: str


def load_golden(path: Path) -> list[GoldenRow]:
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [
            GoldenRow(r["tool"], r["options"], r["metric"], r["system"], r["refset"],
                      r["level"], r["doc_id"], r["seg_id"], r["value"])
            for r in reader
        ]


def golden_value(row: GoldenRow, docs: Documents, scores) -> float | None:
    """Pick the number of ``scores`` (a LevelScores) that a golden row describes."""
    if row.level == "sys":
        return scores.sys
    if row.level == "doc":
        return scores.doc[row.doc_id]
    return scores.seg[int(row.seg_id) - 1]


class FamilyScores:
    """A metric family's scores of one shared sample, computed once per (translator,
    reference set) with default parameters."""

    def __init__(self, shared: Path, pair: str, family: type) -> None:
        self.sample = load_sample(shared, pair)
        self.family = family
        self.cache: dict = {}

    def __call__(self, system: str, refset: str):  # type: ignore[no-untyped-def]
        from ulcdb.metrics.base import Params

        key = (system, refset)
        if key not in self.cache:
            self.cache[key] = self.family().compute(
                self.sample.translator(system), self.sample.refset(refset), self.sample.docs,
                Params())
        return self.cache[key]
