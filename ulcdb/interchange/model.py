"""What score readers return and writers consume, plus the helpers they share.

A :class:`ScoreFrame` is an Arrow table with one row per score (columns in ``FRAME_SCHEMA``)
and the :class:`Source` files the rows came from.  Small readers build it from
:class:`ScoreSet` objects; the WMT reader builds the table directly (millions of rows).

Where a score sits, per level (the same conventions as ``ulcdb.formats.assessments``):

* ``seg``, ``doc_id`` null: ``seg`` is the test-bed segment number (1-based);
* ``seg``, ``doc_id`` set: ``seg`` is the 1-based position of the segment in ``doc_id``;
* ``doc``, ``doc_id`` set: the document ``doc_id``;
* ``doc``, ``doc_id`` null: ``seg`` is the 1-based position of the document;
* ``sys``: ``doc_id`` and ``seg`` are null.

``in_doc``, where set on a seg row, is the document the file says the segment is in (Asiya's
``<DOC>``); the loader checks it against the test bed.  A null ``value`` is a score the file
marks missing (``None``): it counts towards the coverage of the test bed's segments and
documents, but is not stored.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from ulcdb.errors import InputError
from ulcdb.ingest import textio

if TYPE_CHECKING:
    import duckdb

LEVELS = ("seg", "doc", "sys")

# How an import reports progress: called with the number of steps, it gives a context whose
# value is told (step name, steps done) as they end (the CLI draws it as a bar on a terminal;
# the same shape as ulcdb.ops.score.Progress).
Advance = Callable[[str, int], None]
Progress = Callable[[int], AbstractContextManager[Advance]]


def _ignore(_label: str, _n: int) -> None:
    """An Advance that shows nothing."""


@contextmanager
def steps(progress: Progress | None, total: int) -> Iterator[Advance]:
    """``progress(total)``, or nothing shown when there is no progress display."""
    if progress is None:
        yield _ignore
        return
    with progress(total) as advance:
        yield advance
MISSING = frozenset({"None", "none", "NA", ""})

FRAME_SCHEMA = pa.schema([
    ("file_no", pa.int32()),      # index into ScoreFrame.sources
    ("line", pa.int32()),         # 1-based line of the file (null where unknown)
    ("testbed", pa.string()),
    ("metric", pa.string()),
    ("target", pa.string()),      # translator scored (system or reference)
    ("refs", pa.list_(pa.string())),  # members of the reference set, sorted
    ("level", pa.string()),
    ("doc_id", pa.string()),
    ("seg", pa.int32()),
    ("in_doc", pa.string()),
    ("value", pa.float64()),
])


@dataclass(frozen=True)
class MetricInfo:
    """Catalogue facts a file or the command line gives about a metric; None = not given."""

    name: str
    higher_is_better: bool | None = None
    range_min: float | None = None
    range_max: float | None = None
    description: str | None = None
    reference_implementation: str | None = None


@dataclass
class Source:
    """One file scores were read from: it becomes one ``score_batch`` row."""

    path: str
    fmt: str
    signature: str | None = None      # e.g. sacrebleu's signature string
    version: str | None = None        # version of the tool that produced the scores


@dataclass
class ScoreSet:
    """Scores of one metric for one target against one reference set at one level.

    ``segs`` and ``doc_ids`` locate each value as the module docstring says; ``lines`` are
    the file lines the values came from (for error messages).
    """

    metric: str
    target: str
    refs: tuple[str, ...]
    level: str
    values: list[float | None] = field(default_factory=list)  # None: marked missing
    segs: list[int | None] = field(default_factory=list)
    doc_ids: list[str | None] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    in_docs: list[str | None] | None = None

    def add(self, value: float | None, seg: int | None = None, doc_id: str | None = None,
            line: int | None = None, in_doc: str | None = None) -> None:
        self.values.append(value)
        self.segs.append(seg)
        self.doc_ids.append(doc_id)
        self.lines.append(line)
        if in_doc is not None and self.in_docs is None:
            self.in_docs = [None] * (len(self.values) - 1)
        if self.in_docs is not None:
            self.in_docs.append(in_doc)


@dataclass
class ScoreFrame:
    """Rows ready for ``load_scores``: ``table`` follows ``FRAME_SCHEMA`` (its text columns
    may be dictionary-encoded, as the WMT reader's are)."""

    table: pa.Table
    sources: list[Source]
    metrics: dict[str, MetricInfo] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return int(self.table.num_rows)

    def metric_names(self) -> list[str]:
        return sorted(pc.unique(self.table["metric"]).to_pylist())

    def renamed(self, mapping: dict[str, str]) -> ScoreFrame:
        """The frame with metrics renamed (``old -> new``)."""
        if not mapping or self.rows == 0:
            return self
        encoded = self.table["metric"].combine_chunks().dictionary_encode()
        names = pa.array([mapping.get(n, n) for n in encoded.dictionary.to_pylist()],
                         pa.string())
        index = self.table.schema.get_field_index("metric")
        table = self.table.set_column(index, "metric", pc.take(names, encoded.indices))
        metrics = {mapping.get(k, k): replace(v, name=mapping.get(k, k))
                   for k, v in self.metrics.items()}
        return ScoreFrame(table, self.sources, metrics)

    @classmethod
    def from_sets(cls, sets: Iterable[ScoreSet], source: Source, testbed: str,
                  metrics: dict[str, MetricInfo] | None = None) -> ScoreFrame:
        cols: dict[str, list[object]] = {name: [] for name in FRAME_SCHEMA.names}
        for s in sets:
            n = len(s.values)
            cols["metric"] += [s.metric] * n
            cols["target"] += [s.target] * n
            cols["refs"] += [sorted(s.refs)] * n
            cols["level"] += [s.level] * n
            cols["doc_id"] += s.doc_ids
            cols["seg"] += s.segs
            cols["in_doc"] += s.in_docs if s.in_docs is not None else [None] * n
            cols["value"] += s.values
            cols["line"] += s.lines
        n = len(cols["value"])
        cols["file_no"] = [0] * n
        cols["testbed"] = [testbed] * n
        return cls(pa.table(cols, schema=FRAME_SCHEMA), [source], dict(metrics or {}))

    @classmethod
    def concat(cls, frames: list[ScoreFrame]) -> ScoreFrame:
        """One frame of several: file numbers are shifted so each keeps its sources."""
        tables: list[pa.Table] = []
        sources: list[Source] = []
        metrics: dict[str, MetricInfo] = {}
        for frame in frames:
            numbers = pc.add(frame.table["file_no"], pa.scalar(len(sources), pa.int32()))
            index = frame.table.schema.get_field_index("file_no")
            tables.append(frame.table.set_column(index, "file_no", numbers))
            sources += frame.sources
            metrics.update(frame.metrics)
        table = pa.concat_tables(tables) if tables else FRAME_SCHEMA.empty_table()
        return cls(table, sources, metrics)


@dataclass
class SqlFrame:
    """Rows for ``load_scores`` that DuckDB holds: the temporary view (or table) ``_imp`` of
    the store's connection, the columns of ``FRAME_SCHEMA`` and ``rid`` (a row id), made by
    a reader that reads files in SQL (``ulcdb.formats.wmt.metrics_fast``).  Its ``line`` is
    null, or with ``line_of`` a number that gives the line (``line_of(file_no, line)``: the
    mt-metrics-eval reader numbers the lines DuckDB read, which leaves blank lines out): a
    problem the loader finds sends the caller to its line-by-line reader (unless it takes
    the loader's message: ``ulcdb.interchange.fast.fast_or_exact``).  ``parts``:
    when not empty, each call makes ``_imp`` hold one part of the rows (whole files, no
    stored key in two parts), and the loader checks and stores one part after the other
    in the caller's transaction, so its work tables hold one part at a time (issue 30).
    ``resolve``: where given, ``_imp`` holds one row per file and key only (what the loader
    checks by name) and the call fills the loader's resolved rows ``_imp_res`` itself
    (``ulcdb.formats.wmt.metrics_fast.read_part``), after the loader has made the test bed
    and reference set ids (``_imp_refset``) and the catalogue's metrics.  ``scored``: the
    rows of all parts and those with a score, as the reader counted them, by which the
    loader refuses an import without a score before it makes a part (a part alone may hold
    only ``None``)."""

    sources: list[Source]
    metrics: dict[str, MetricInfo] = field(default_factory=dict)
    parts: list[Callable[[], None]] = field(default_factory=list)
    resolve: Callable[[], None] | None = None
    scored: tuple[int, int] | None = None
    line_of: Callable[[int, int], int | None] | None = None


# --- helpers shared by readers ----------------------------------------------------------------


def to_arrow(relation: duckdb.DuckDBPyRelation) -> pa.Table:
    """A DuckDB relation (``con.sql(...)``) as an Arrow table: ``to_arrow_table`` in DuckDB 2,
    ``arrow`` before."""
    fetch = getattr(relation, "to_arrow_table", None) or relation.arrow
    return fetch()


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes, gunzipped (streamed, size-bounded) when it is gzip data."""
    return textio.read_bytes(Path(path), gunzip=True)


def numbered_lines(path: str | Path, data: bytes | None = None) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers; gzip-aware; bad UTF-8 names its line."""
    return textio.numbered_lines(path, data, what="scores")


def parse_score(path: str | Path, line: int | None, text: str,
                missing: Collection[str] = ()) -> float | None:
    """The finite number in ``text``, None where it is a ``missing`` mark; -0.0 becomes 0.0."""
    if text.strip() in missing:
        return None
    return textio.parse_number(path, line, text)


parse_position = textio.parse_position


def split_names(token: str, sep: str, names: Collection[str]) -> list[tuple[str, ...]]:
    """Every way of reading ``token`` as known ``names`` joined by ``sep``.

    Translator names may hold the separator themselves (``BUPT_rush``), so folder names such
    as ``ref-A_ref-C`` are split against the names the test bed has.
    """
    parts = token.split(sep)
    found: list[tuple[str, ...]] = []

    def walk(start: int, acc: tuple[str, ...]) -> None:
        if start == len(parts):
            found.append(acc)
            return
        for end in range(start + 1, len(parts) + 1):
            candidate = sep.join(parts[start:end])
            if candidate in names:
                walk(end, (*acc, candidate))

    walk(0, ())
    return found


def resolve_refs(path: str | Path, line: int | None, token: str, sep: str,
                 names: Collection[str]) -> tuple[str, ...]:
    """The reference set ``token`` names (members sorted); an error unless exactly one reading."""
    found = split_names(token, sep, names)
    if not found:
        raise InputError(path, line, f"{token!r} names no known translator(s) of the test bed "
                         f"(members joined with {sep!r})")
    if len(found) > 1:
        readings = " or ".join("+".join(f) for f in found)
        raise InputError(path, line, f"{token!r} is ambiguous: {readings}")
    return tuple(sorted(found[0]))


def format_number(value: float, digits: int | None = None) -> str:
    """Full precision (shortest repr that reads back identical) unless ``digits`` is given."""
    if digits is None:
        return repr(float(value))
    return f"{value:.{digits}f}"


def safe_file_name(path: str | Path, name: str, what: str) -> str:
    """``name`` as a file or folder name; names that cannot be one are refused."""
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise InputError(path, None, f"{what} {name!r} cannot be used as a file name")
    return name
