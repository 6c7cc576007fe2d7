"""Score rows as Arrow: what a worker hands back and what the scorer inserts.

A family returns, per (target, reference set) pair, ``LevelScores`` holding Python lists.  The
worker packs them (:func:`pack`): the segment values of every metric of the pair in one
float64 array (NULL where a score is missing), each distinct statistics table once (BLEU's
eight metrics share one), the document ids once per distinct list, the document and system
values.  The driver adds the key columns (:class:`Rows`) and inserts a family's rows with one
statement per table, from record batches that point at the packed arrays: no Python list of
millions of cells is built or converted in the driver, which the workers wait for.

A pair whose metrics all share one statistics table (BLEU's 8, NIST's 10, WER and PER's 4,
TER's 2) stores it once: on the rows of its carrier, the first metric written in the family's
order; the others' rows hold an empty list, "on the carrier".  Readers resolve them through
the table macro ``seg_stats`` (schema/views/seg_stats.sql), which states the rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pyarrow as pa

from ulcdb.metrics.base import LevelScores
from ulcdb.store.database import Store, named_query

# A score key: metric, target, reference set (ids) and variant.
ScoreKey = tuple[int, int, int, str]

STATS = pa.list_(pa.float64())
KEYS = ("metric_id", "translator_id", "refset_id", "variant", "batch_id")
_KEY_TYPES = (pa.int32(), pa.int32(), pa.int32(), pa.string(), pa.int32())
SCHEMAS = {
    "seg_score": pa.schema([*zip(KEYS, _KEY_TYPES, strict=True), ("seg_id", pa.int32()),
                            ("value", pa.float64()), ("stats", STATS)]),
    "doc_score": pa.schema([*zip(KEYS, _KEY_TYPES, strict=True), ("doc_id", pa.string()),
                            ("value", pa.float64())]),
    "sys_score": pa.schema([*zip(KEYS, _KEY_TYPES, strict=True), ("value", pa.float64())]),
}


@dataclass(frozen=True)
class PackedScores:
    """One pair's scores of every metric of a family, as Arrow arrays (picklable)."""

    names: tuple[str, ...]
    seg: pa.Array  # float64, the segment values of one metric after the other's
    nseg: tuple[int, ...]  # per metric: its number of segment values
    stats: tuple[pa.Array, ...]  # the distinct statistics tables (list<double>, nseg rows)
    stats_of: tuple[int, ...]  # per metric: its table in ``stats`` (-1: none)
    doc_ids: tuple[pa.Array, ...]  # the distinct document id lists
    doc_of: tuple[int, ...]  # per metric: its ids in ``doc_ids``
    doc: tuple[pa.Array, ...]  # per metric: the document values (float64)
    sys: tuple[float | None, ...]

    @property
    def shared_stats(self) -> bool:
        """Whether every metric has the one statistics table (stored once: a carrier)."""
        return len(self.stats) == 1 and all(j == 0 for j in self.stats_of)


def pack(result: dict[str, LevelScores]) -> PackedScores:
    """The scores of one pair as Arrow arrays, statistics and document ids once each."""
    levels = list(result.values())
    stats: dict[int, int] = {}  # id of a statistics list -> its index
    tables: list[pa.Array] = []
    stats_of: list[int] = []
    for sc in levels:
        if sc.seg_stats is None:
            stats_of.append(-1)
            continue
        if id(sc.seg_stats) not in stats:
            stats[id(sc.seg_stats)] = len(tables)
            tables.append(pa.array(sc.seg_stats, STATS))
        stats_of.append(stats[id(sc.seg_stats)])
    docs: dict[tuple[str, ...], int] = {}
    doc_of = [docs.setdefault(tuple(sc.doc), len(docs)) for sc in levels]
    values = [v for sc in levels for v in sc.seg]
    return PackedScores(
        names=tuple(result), seg=pa.array(values, pa.float64()),
        nseg=tuple(len(sc.seg) for sc in levels),
        stats=tuple(tables), stats_of=tuple(stats_of),
        doc_ids=tuple(pa.array(ids, pa.string()) for ids in docs), doc_of=tuple(doc_of),
        doc=tuple(pa.array(list(sc.doc.values()), pa.float64()) for sc in levels),
        sys=tuple(None if sc.sys is None else float(sc.sys) for sc in levels))


class Rows:
    """Score rows of one family run, gathered as record batches for one insert per table."""

    def __init__(self, skip: set[ScoreKey] | None = None) -> None:
        self.seg: list[pa.RecordBatch] = []
        self.doc: list[pa.RecordBatch] = []
        self.sys: list[pa.RecordBatch] = []
        self.skip = skip or set()  # imported keys: left as they are
        self.written: set[ScoreKey] = set()

    def add(self, trid: int, rid: int, variant: str, batch: int, packed: PackedScores,
            ids: dict[str, int]) -> None:
        """The rows of one pair, key columns added, metrics in the family's order; a table
        every metric shares goes on the first metric written (imported keys are skipped),
        the others get empty lists (``seg_stats`` reads the carrier's)."""
        start = 0
        carried = False
        for k, (name, n) in enumerate(zip(packed.names, packed.nseg, strict=True)):
            start += n
            if (ids[name], trid, rid, variant) in self.skip:
                continue
            self.written.add((ids[name], trid, rid, variant))
            key = (ids[name], trid, rid, variant, batch)
            j = packed.stats_of[k]
            stats = packed.stats[j] if j >= 0 else pa.nulls(n, STATS)
            if packed.shared_stats:
                stats, carried = (_on_carrier(n) if carried else stats), True
            self.seg.append(_batch("seg_score", key, n, [
                _serial(n), packed.seg.slice(start - n, n), stats]))
            values = packed.doc[k]
            self.doc.append(_batch("doc_score", key, len(values),
                                   [packed.doc_ids[packed.doc_of[k]], values]))
            self.sys.append(_batch("sys_score", key, 1,
                                   [pa.array([packed.sys[k]], pa.float64())]))

    def keys(self) -> dict[str, list[int | str]]:
        columns = ("metric_id", "translator_id", "refset_id", "variant")
        rows = sorted(self.written)
        return {c: [r[i] for r in rows] for i, c in enumerate(columns)}

    def insert(self, store: Store) -> None:
        for table, batches in (("seg_score", self.seg), ("doc_score", self.doc),
                               ("sys_score", self.sys)):
            if batches:  # in one piece: DuckDB takes it in about half the time of the pieces
                rows = pa.Table.from_batches(batches, SCHEMAS[table]).combine_chunks()
                if table == "seg_score":
                    rows = rows.sort_by([(c, "ascending") for c in SEG_ORDER])
                store.insert_arrow(table, rows)


# The order segment scores are written in: by reference set, metric and segment, the
# translators of a segment side by side.  QARLA reads one reference set's scores of a metric
# set and compares each segment's translators (QUEEN's pair values joined per metric and
# segment hit neighbouring rows; a scan skips row groups of other reference sets): on WMT21
# en-de's 10 metrics QUEEN takes 12% and KING 7% less CPU than in the order pairs were scored.
SEG_ORDER = ("refset_id", "metric_id", "seg_id", "translator_id")


def _batch(table: str, key: tuple[int, int, int, str, int], n: int,
           columns: Sequence[pa.Array]) -> pa.RecordBatch:
    keys = [_repeat(value, n, kind) for value, kind in zip(key, _KEY_TYPES, strict=True)]
    return pa.RecordBatch.from_arrays([*keys, *columns], schema=SCHEMAS[table])


@lru_cache(maxsize=4096)
def _repeat(value: int | str, n: int, kind: pa.DataType) -> pa.Array:
    """``n`` copies of a key value (Arrow arrays are immutable: one per value and length)."""
    if pa.types.is_string(kind):
        return pa.array([value] * n, kind)
    return pa.array(np.full(n, value, dtype=np.int32), kind)


@lru_cache(maxsize=64)
def _on_carrier(n: int) -> pa.Array:
    """``n`` empty statistics lists: "the statistics are on the carrier's row"."""
    return pa.ListArray.from_arrays(pa.array(np.zeros(n + 1, dtype=np.int32)),
                                    pa.array([], pa.float64()))


@lru_cache(maxsize=64)
def _serial(n: int) -> pa.Array:
    """Segment ids 1..n."""
    return pa.array(np.arange(1, n + 1, dtype=np.int32), pa.int32())


def hand_over_stats(store: Store, where: str, params: Sequence[object] | dict[str, object]
                    ) -> None:
    """Before the segment scores ``where`` selects (a condition on ``seg_score s``, with
    ``params``) are deleted: a carrier among their keys hands its statistics to a metric of
    its computation that stays (schema/queries/stats_handover.sql), so deleting or replacing
    one metric of a family loses no other's statistics."""
    store.con.execute("create or replace temp table _stats_going as select distinct metric_id, "
                      f"translator_id, refset_id, variant from seg_score s where {where}", params)
    store.con.execute(named_query("stats_handover"))
    store.con.execute("drop table _stats_going")
