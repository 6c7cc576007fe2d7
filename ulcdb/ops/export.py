"""`ulcdb export ...` and ``Database.export``: the store's scores in the formats of the
field, and any table, view or query as a file.  Named metrics, targets, reference sets and
the variant must exist (the writers check them through ``interchange.fetch``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ulcdb.errors import UlcdbError
from ulcdb.interchange.fetch import ExportSelection
from ulcdb.ops.access import Access
from ulcdb.ops.levels import LEVELS, level_choice
from ulcdb.scoring.selection import split_names
from ulcdb.store.database import Store

Writer = Callable[[Store, str, ExportSelection], list[Path]]


def _names(values: Iterable[str]) -> tuple[str, ...]:
    """Names given repeated or comma-separated."""
    return tuple(n for v in values for n in split_names(v))


@dataclass(frozen=True)
class Scores:
    """Which stored scores are written (empty: all): metrics, targets (systems or
    references), reference sets as stored (ref-A+ref-B), levels, the variant."""

    metrics: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    refsets: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    variant: str = "case:mixed"

    def selection(self, testbeds: Iterable[str]) -> ExportSelection:
        levels = tuple(level_choice(lv, LEVELS) for lv in self.levels)
        return ExportSelection(tuple(testbeds), _names(self.metrics), _names(self.targets),
                         _names(self.refsets), levels or LEVELS, self.variant)


def one_testbed(access: Access, testbed: str | None, scores: Scores, write: Writer,
                levels: bool = True) -> list[Path]:
    """``write(store, test bed, selection)`` for one test bed (default: the only one); the
    paths written.  Without ``levels`` the format holds every level."""
    scores = scores if levels else Scores(scores.metrics, scores.targets, scores.refsets, (),
                                          scores.variant)
    with access.read() as store:
        name = testbed or store.only_testbed()
        return write(store, name, scores.selection([name]))


def iqxml(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
          layout: str = "iqmt", digits: int | None = None, gzip: bool = False) -> list[Path]:
    from ulcdb.formats.iqxml import write_iqxml

    return one_testbed(access, testbed, scores, lambda store, name, sel: write_iqxml(
        store, name, folder, layout, sel, digits, gzip), levels=False)


def mtme(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
         texts: bool = True, lp: str | None = None) -> list[Path]:
    from ulcdb.formats.mtme import write_mtme

    return one_testbed(access, testbed, scores, lambda store, name, sel: write_mtme(
        store, name, folder, sel, texts, lp))


def wmt(access: Access, folder: Path, scores: Scores = Scores(), testbeds: Iterable[str] = (),
        refset_names: Mapping[str, str] | Iterable[str] = (), gzip: bool = False
        ) -> list[Path]:
    """``refset_names``: stored -> written name, or STORED=WRITTEN items."""
    from ulcdb.formats.wmt.metrics_task import write_wmt

    names = dict(refset_names) if isinstance(refset_names, Mapping) else _renames(refset_names)
    with access.read() as store:
        return write_wmt(store, folder, scores.selection(testbeds), names, gzip)


def _renames(items: Iterable[str]) -> dict[str, str]:
    names = {}
    for item in items:
        stored, sep, written = item.partition("=")
        if not sep or not stored or not written:
            raise UlcdbError(f"--refset-name takes STORED=WRITTEN, got {item!r}")
        names[stored] = written
    return names


def nist(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None
         ) -> list[Path]:
    from ulcdb.formats.nist.scr import write_scr_files

    return one_testbed(access, testbed, scores, lambda store, name, sel: write_scr_files(
        store, name, folder, sel))


def sacrebleu(access: Access, folder: Path, scores: Scores = Scores(),
              testbed: str | None = None, width: int = 1) -> list[Path]:
    from ulcdb.formats.sacrebleu_json import write_sacrebleu

    return one_testbed(access, testbed, scores, lambda store, name, sel: write_sacrebleu(
        store, name, folder, sel, width), levels=False)


def comet(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None
          ) -> list[Path]:
    from ulcdb.formats.comet import write_comet

    return one_testbed(access, testbed, scores, lambda store, name, sel: write_comet(
        store, name, folder, sel), levels=False)


def table(access: Access, source: str, output: Path, fmt: str | None = None,
          query: bool = False) -> int:
    """A table, view or (``query``) SQL query written to ``output``; the rows written."""
    from ulcdb.formats.table import export_table

    with access.read() as store:
        return export_table(store, source, output, fmt, query)
