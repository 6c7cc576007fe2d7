"""What `ulcdb score` prints on a terminal: its system table within one screen (issue 28).

On a terminal, unless --full: segment and document tables taller than the terminal are left
out; the tables keep the metric columns that fit its width, chosen in this order: the columns
that rank (ULC, QUEEN, the --sort column), ULC's default set (metrics_LEX, its bare BLEU and
NIST standing for BLEU-4 and NIST-5 too), then one more metric of each family in turn, the
families with none shown yet first; they are shown in their own order.  The system table keeps
the rows (best first) that fit the terminal's height.  One line under it names what was left
out and how to get it.  Piped, and with -f csv/tsv/json, everything is printed: scripts read
it."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ulcdb.cli.common import cell_text

if TYPE_CHECKING:
    from ulcdb.scoring.report import Matrix

STANDS_FOR = {"BLEU": "BLEU-4", "NIST": "NIST-5"}  # the bare names are these (ULC manual)
MIN_ROWS = 5  # the system table shows at least this many rows, however short the terminal
TABLE_WIDTH = 12  # piped or --full, wide metric sets print as tables of this many metrics


@dataclass
class Screen:
    """The matrices to print, narrowed to what fits, and what was left out."""

    shown: list[Matrix]
    levels: list[Matrix] = field(default_factory=list)  # left out whole: taller than the screen
    columns: list[str] = field(default_factory=list)  # metric columns left out: too wide
    rows: tuple[int, int] | None = None  # (rows shown, rows) of a system table cut short
    per_table: int = TABLE_WIDTH  # metric columns a printed table holds

    def note(self) -> str | None:
        """One line: what was left out, and how to get it (None when nothing was)."""
        parts = [f"{m.level} level ({len(m.rows):,} rows)" for m in self.levels]
        if self.columns:
            parts.append(f"{len(self.columns)} metric columns ({_names(self.columns)})")
        if self.rows is not None:
            shown, total = self.rows
            parts.append(f"system rows {shown + 1}-{total} of {total}")
        if not parts:
            return None
        return (f"not shown, to fit the terminal: {', '.join(parts)}; --full prints them, "
                "-f tsv > scores.tsv writes everything")


def whole(matrices: list[Matrix]) -> Screen:
    """Everything, as piped output and --full have it."""
    return Screen(matrices)


def fit(matrices: list[Matrix], size: tuple[int, int], fmt: str, title: str,
        keep: Collection[str], families: dict[str, str], digits: int,
        above: Sequence[str] = ()) -> Screen:
    """What of ``matrices`` a terminal of ``size`` (width, height) shows; ``title``: the
    system table's title, ``keep``: the columns shown whatever the width, ``above``: the
    lines printed before the tables (notes, the scoring summary)."""
    width, height = size
    if fmt == "rankings":  # one table per metric: only the levels are left out
        tall = [m for m in matrices if m.level != "sys" and
                len(m.metrics) * (len(m.rows) + 7) + len(m.signature_lines()) > height]
        return Screen([m for m in matrices if m not in tall], tall)
    tall = [m for m in matrices
            if m.level != "sys" and len(m.rows) + 7 + len(m.signature_lines()) > height]
    rest = [m for m in matrices if m not in tall]
    if not rest:
        return Screen([], tall)
    metrics = rest[0].metrics
    chosen, table_width = columns(rest, width, priority(metrics, keep, families), keep, digits)
    shown = [m.narrowed(chosen) for m in rest]
    fitted = Screen(shown, tall, [c for c in metrics if c not in chosen],
                    per_table=max(len(chosen), 1))
    for i, m in enumerate(shown):
        if m.level != "sys":
            continue
        frame = (_wrapped([title], table_width) + 4  # borders and header
                 + _wrapped([f"  {line}" for line in m.signature_lines()], width))
        longest_note = replace(fitted, rows=(len(m.rows) - 1, len(m.rows))).note() or ""
        free = height - _wrapped([*above, longest_note], width) - 1  # and the prompt's line
        room = max(MIN_ROWS, free - frame)
        if len(m.rows) > room:
            fitted.rows = (room, len(m.rows))
            shown[i] = m.narrowed(chosen, room)
    return fitted


def priority(metrics: Sequence[str], keep: Collection[str], families: dict[str, str]
             ) -> list[str]:
    """``metrics`` in the order they earn a column: ``keep``, ULC's default set, then one more
    of each family in turn (a family with none chosen yet before the others)."""
    from ulcdb.metrics.registry import BUILTIN_SETS, DEFAULT_SET

    default = set(BUILTIN_SETS[DEFAULT_SET])
    default |= {STANDS_FOR[m] for m in default if m in STANDS_FOR}
    order = [m for m in metrics if m in keep]
    order += [m for m in metrics if m in default and m not in order]
    represented = {families.get(m, m) for m in order}
    turns: dict[str, int] = {}
    ranked = []
    for i, m in enumerate(m for m in metrics if m not in order):
        family = families.get(m, m)
        turn = turns.get(family, int(family in represented))
        turns[family] = turn + 1
        ranked.append((turn, i, m))
    return order + [m for _, _, m in sorted(ranked)]


def columns(matrices: list[Matrix], width: int, ranked: list[str], keep: Collection[str],
            digits: int) -> tuple[list[str], int]:
    """The metric columns that fit ``width`` (in the matrices' order), taken in ``ranked``
    order until one does not fit (``keep`` ones always), and the table's width: a rich
    table is a border and, per column, its widest cell plus three (padding and border)."""
    label = max(len(m.level) for m in matrices)
    label = max([label, *(len(m.unit_label(t, u)) for m in matrices for t, u, _ in m.rows)])
    metrics = matrices[0].metrics
    cell = {c: max([len(c), *(len(cell_text(vals[j], digits)) for m in matrices
                                  for _, _, vals in m.rows)])
            for j, c in enumerate(metrics)}
    used, chosen = 1 + label + 3, set()
    for c in ranked:
        if c not in keep and used + cell[c] + 3 > width:
            break
        chosen.add(c)
        used += cell[c] + 3
    return [c for c in metrics if c in chosen], used


def _wrapped(lines: list[str], width: int) -> int:
    """Screen lines that ``lines`` take, wrapped at ``width``."""
    return sum(max(1, math.ceil(len(line) / max(width, 1))) for line in lines)


def _names(names: list[str], most: int = 6) -> str:
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"
