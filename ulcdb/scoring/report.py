"""Read scores and ULC back from the store as IQeval-style matrices and rankings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ulcdb.errors import NotFound
from ulcdb.formats.nist.scr import ScrWriter
from ulcdb.store.database import Store, named_query

LEVELS = ("seg", "doc", "sys")


@dataclass
class Matrix:
    level: str
    refset: str
    metrics: list[str]  # columns, ULC last when present
    rows: list[tuple[str, str, list[float | None]]]  # (translator, unit, values)
    variant: str = ""
    signatures: dict[str, list[str]] = field(default_factory=dict)  # signature -> metrics

    def unit_label(self, translator: str, unit: str) -> str:
        return translator if self.level == "sys" else f"{translator}:{unit}"

    def title(self, method: str) -> str:
        """What the numbers are: level, reference set, variant, ULC's normalisation."""
        return (f"{self.level} level, against {self.refset}, variant {self.variant} "
                f"(ULC: {method})")

    def sort_by(self, column: str, higher_better: bool) -> None:
        """Rows ordered by ``column``, best first (missing values last; ties keep their
        test-bed order)."""
        if column not in self.metrics:
            raise NotFound(f"no column {column!r} to sort by (columns: "
                           f"{', '.join(self.metrics)})")
        j = self.metrics.index(column)
        sign = -1 if higher_better else 1
        self.rows.sort(key=lambda r: (r[2][j] is None, sign * (r[2][j] or 0.0)))

    def signature_lines(self) -> list[str]:
        """One line per signature, naming the metrics computed (or imported) with it, as
        sacrebleu prints its signature under a score."""
        return signature_lines(self.signatures)

    def narrowed(self, metrics: Sequence[str], rows: int | None = None) -> Matrix:
        """A copy holding only the columns ``metrics`` (in this matrix's order) and the first
        ``rows`` rows (all when None), with the signatures of those columns alone."""
        keep = [j for j, m in enumerate(self.metrics) if m in metrics]
        sigs = {sig: [m for m in ms if m in metrics] for sig, ms in self.signatures.items()}
        return Matrix(self.level, self.refset, [self.metrics[j] for j in keep],
                      [(t, u, [vals[j] for j in keep]) for t, u, vals in self.rows[:rows]],
                      self.variant, {sig: ms for sig, ms in sigs.items() if ms})


def signature_lines(sigs: dict[str, list[str]]) -> list[str]:
    """``metric, metric: signature`` lines, one per signature."""
    return [f"{', '.join(metrics)}: {signature}" for signature, metrics in sigs.items()]


def signatures(store: Store, testbed: str, level: str | None, metrics: list[str],
               systems: list[str], refsets: list[str], variant: str) -> dict[str, list[str]]:
    """Signature -> the metrics (in ``metrics`` order) whose shown scores carry it (scores of
    any level when ``level`` is None)."""
    rows = store.query(named_query("score_signatures"),
                       [testbed, level, refsets, variant, metrics, systems])
    out: dict[str, list[str]] = {}
    for metric, signature in sorted(rows, key=lambda r: metrics.index(r[0])):
        out.setdefault(signature, []).append(metric)
    return out


def _unit(level: str, doc_id: str | None, seg_id: int | None) -> str:
    if level == "seg":
        return str(seg_id)
    return doc_id or "" if level == "doc" else ""


def score_matrix(store: Store, testbed: str, level: str, metrics: list[str], systems: list[str],
                 refset: str, variant: str, ulc: str | None = "asiya",
                 segments: list[int] | None = None) -> Matrix:
    """Scores of ``systems`` against ``refset``: one column per metric, plus ULC."""
    rows = store.query(named_query("score_matrix_rows"),
                       [testbed, level, refset, variant, metrics, systems])
    cells: dict[tuple[str, str], dict[str, float | None]] = {}
    order: dict[tuple[str, str], tuple[int, int, str]] = {}  # (system, seg_id, doc_id)
    for tr, doc, seg, metric, value in rows:
        if segments is not None and level == "seg" and seg not in segments:
            continue
        key = (tr, _unit(level, doc, seg))
        cells.setdefault(key, {})[metric] = value
        order[key] = (systems.index(tr), seg or 0, doc or "")
    columns = list(metrics)
    if ulc:
        columns.append("ULC")
        for key, value in ulc_values(store, testbed, level, metrics, systems, refset, variant,
                                     ulc).items():
            if key in cells:
                cells[key]["ULC"] = value
    out = [(k[0], k[1], [cells[k].get(c) for c in columns])
           for k in sorted(cells, key=lambda k: order[k])]
    return Matrix(level, refset, columns, out, variant,
                  signatures(store, testbed, level, metrics, systems, [refset], variant))


def ulc_values(store: Store, testbed: str, level: str, metrics: list[str], systems: list[str],
               refset: str, variant: str, method: str) -> dict[tuple[str, str], float]:
    """ULC per (translator, unit) from the SQL macros; method asiya, raw or seg-mean."""
    where = [testbed, refset, variant]
    if method == "seg-mean" and level != "seg":
        rows = store.query(named_query("ulc_seg_mean_rows"), [metrics, level, systems, *where])
    else:
        norm = "raw" if method == "raw" else "asiya"
        rows = store.query(named_query("ulc_rows"), [metrics, level, norm, systems, *where])
    return {(tr, _unit(level, doc, seg)): v for tr, doc, seg, v in rows}


def families(store: Store, metrics: Sequence[str]) -> dict[str, str]:
    """The family of each metric of ``metrics`` that the store's catalogue holds."""
    return dict(store.query(named_query("metric_families"), [list(metrics)]))


def higher_is_better(store: Store, metrics: list[str]) -> dict[str, bool]:
    rows = store.query("select name, higher_is_better from metric where list_contains(?, name)",
                       [metrics])
    return {n: bool(h) for n, h in rows} | {"ULC": True}


def rankings(matrix: Matrix, directions: dict[str, bool]
             ) -> list[tuple[str, list[tuple[str, float]]]]:
    """Per metric, the rows sorted best first (IQeval's '-O 1')."""
    out = []
    for j, metric in enumerate(matrix.metrics):
        ranked = [(matrix.unit_label(t, u), v) for t, u, vals in matrix.rows
                  if (v := vals[j]) is not None]
        ranked.sort(key=lambda x: x[1], reverse=directions.get(metric, True))
        out.append((metric, ranked))
    return out


def write_scr(store: Store, testbed: str, matrices: dict[str, Matrix], folder: Path,
              metric_name: str = "ULC") -> list[Path]:
    """MetricsMATR files ``folder/SYSTEM-{seg,doc,sys}.scr`` with the ULC (or a metric's)
    score, written by the one ``.scr`` writer (which refuses a system name that is no file
    name)."""
    writer = ScrWriter(store, testbed, folder)
    for level, matrix in matrices.items():
        j = matrix.metrics.index(metric_name)
        for tr, unit, vals in matrix.rows:
            if (value := vals[j]) is not None:
                path = writer.path((("system", tr),), level)
                writer.add(path, metric_name, tr, level, value,
                           seg=int(unit) if level == "seg" else None,
                           doc_id=unit if level == "doc" else None)
    return writer.write()


def display_scales(store: Store, metrics: Sequence[str], scale: float) -> dict[str, float]:
    """``scale`` for the columns bounded by 1 (BLEU, chrF, -TER, ULC, QUEEN...: sacrebleu's
    0-100 with 100), 1 for unbounded ones such as NIST: what tables multiply by to show."""
    rows = store.query("select name, range_max from metric where list_contains(?, name)",
                       [list(metrics)])
    bounded = {n for n, top in rows if top is not None and top <= 1} | {"ULC", "QUEEN"}
    return {m: scale if m in bounded else 1.0 for m in metrics}


def scaled(matrix: Matrix, factors: dict[str, float]) -> Matrix:
    """A copy of ``matrix`` with each column multiplied by its factor (for display)."""
    f = [factors.get(m, 1.0) for m in matrix.metrics]
    rows = [(t, u, [None if v is None else v * k for v, k in zip(vals, f, strict=True)])
            for t, u, vals in matrix.rows]
    return Matrix(matrix.level, matrix.refset, matrix.metrics, rows, matrix.variant,
                  matrix.signatures)
