"""What `ulcdb compare` reads from the store: each system's per-unit statistics of a metric,
on the units every compared system has."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ulcdb.compare.measures import Measure, measure
from ulcdb.errors import UlcdbError
from ulcdb.scoring.remedy import remedy
from ulcdb.stats.correlations import FloatArray
from ulcdb.store.database import Store, named_query

SegmentRow = tuple[str, int, str, float]  # translator, seg_id, doc_id, value
Stats = dict[tuple[str, int], list[float]]  # (translator, seg_id) -> stored statistics


class CompareError(UlcdbError):
    """A comparison that cannot be made as asked."""


@dataclass
class UnitData:
    """One metric: the units (segment ids or document ids) and per system a units x k
    statistics matrix, rows aligned."""

    metric: str
    variant: str
    measure: Measure
    units: list[str]
    stats: dict[str, FloatArray]
    dropped: int  # units left out because some system lacks a score there


def metric_variant(store: Store, testbed: str, metric: str, refset: str,
                   preferred: str | None, default: str) -> str:
    """The variant to compare on: the one asked for, else the default one when stored, else
    the only one."""
    stored: list[str] = [r[0] for r in store.query(named_query("compare_variants"),
                                                   [testbed, metric, refset])]
    if preferred is not None:
        if preferred not in stored:
            raise CompareError(f"{metric} has no scores of variant {preferred!r} against "
                               f"{refset!r} (have: {', '.join(stored) or 'none'})")
        return preferred
    if default in stored:
        return default
    if len(stored) == 1:
        return stored[0]
    if not stored:
        raise CompareError(f"{metric} has no scores against {refset!r} in {testbed!r}: "
                           + remedy(store, testbed, [metric], [refset]))
    raise CompareError(f"{metric} has several variants ({', '.join(stored)}): name one with "
                       "--variant")


@dataclass(frozen=True)
class Fetched:
    """A metric's stored segment scores and statistics for the compared systems, read once
    and cut to each bucket's segments (``ulcdb compare --by``)."""

    rows: list[SegmentRow]
    stats: list[tuple[str, int, list[float] | None]]


def fetch(store: Store, testbed: str, metric: str, systems: list[str], refset: str,
          variant: str) -> Fetched:
    rows = store.query(named_query("compare_seg_values"),
                       [testbed, metric, refset, variant, systems])
    stats = store.query(named_query("compare_seg_stats"),
                        [store.testbed_id(testbed), metric, refset, variant, systems])
    return Fetched(rows, stats)


def load_units(store: Store, testbed: str, metric: str, systems: list[str], refset: str,
               variant: str, unit: str, segments: set[int] | None = None,
               fetched: Fetched | None = None) -> UnitData:
    """Per system the statistics of ``metric`` on the units every system has (from
    ``fetched`` when it was read already)."""
    got = fetched or fetch(store, testbed, metric, systems, refset, variant)
    rows = got.rows if segments is None else [r for r in got.rows if r[1] in segments]
    kept = [(t, seg, st) for t, seg, st in got.stats if segments is None or seg in segments]
    stats: Stats | None = None
    if kept and all(st is not None for _, _, st in kept):
        stats = {(t, seg): st for t, seg, st in kept if st is not None}
    nrefs = len(refset.split("+"))
    meas = measure(metric, stats is not None, nrefs)
    if rows:
        return _from_segments(metric, variant, meas, rows, stats, systems, unit)
    if unit == "doc":
        return _from_documents(store, testbed, metric, systems, refset, variant, meas)
    raise CompareError(f"{metric} has no segment scores against {refset!r} for "
                       f"{', '.join(systems)}" + (": try --unit doc" if _has_docs(
                           store, testbed, metric, refset, variant) else ""))


def _from_segments(metric: str, variant: str, meas: Measure, rows: list[SegmentRow],
                   stats: Stats | None, systems: list[str], unit: str) -> UnitData:
    per: dict[str, dict[int, tuple[str, list[float]]]] = {s: {} for s in systems}
    for t, seg, doc, value in rows:
        vec = stats[(t, seg)] if meas.kind != "mean" and stats else [value, 1.0]
        per[t][seg] = (doc, vec)
    common = sorted(set.intersection(*(set(v) for v in per.values())))
    every = set().union(*(set(v) for v in per.values()))
    if not common:
        raise CompareError(f"{metric}: no segment is scored for all of {', '.join(systems)}")
    if unit == "seg":
        units = [str(s) for s in common]
        mats = {t: np.array([per[t][s][1] for s in common], dtype=float) for t in systems}
    else:
        docs = list(dict.fromkeys(per[systems[0]][s][0] for s in common))
        units = docs
        mats = {t: _sum_by_doc(per[t], common, docs) for t in systems}
    return UnitData(metric, variant, meas, units, mats, len(every) - len(common))


def _sum_by_doc(rows: dict[int, tuple[str, list[float]]], common: list[int],
                docs: list[str]) -> FloatArray:
    index = {d: i for i, d in enumerate(docs)}
    k = len(rows[common[0]][1])
    out = np.zeros((len(docs), k))
    for s in common:
        doc, vec = rows[s]
        out[index[doc]] += np.asarray(vec, dtype=float)
    return out


def _from_documents(store: Store, testbed: str, metric: str, systems: list[str], refset: str,
                    variant: str, meas: Measure) -> UnitData:
    rows = store.query(named_query("compare_doc_values"),
                       [testbed, metric, refset, variant, systems])
    per: dict[str, dict[str, float]] = {s: {} for s in systems}
    for t, doc, value in rows:
        per[t][doc] = value
    common = sorted(set.intersection(*(set(v) for v in per.values())))
    if not common:
        raise CompareError(f"{metric}: no document is scored for all of {', '.join(systems)}")
    every = set().union(*(set(v) for v in per.values()))
    mats = {t: np.array([[per[t][d], 1.0] for d in common], dtype=float) for t in systems}
    mean = measure(metric, False, 1) if meas.kind != "mean" else meas
    return UnitData(metric, variant, mean, common, mats, len(every) - len(common))


def _has_docs(store: Store, testbed: str, metric: str, refset: str, variant: str) -> bool:
    return bool(store.scalar(named_query("compare_has_docs"), [testbed, metric, refset, variant]))
