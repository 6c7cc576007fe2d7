"""`ulcdb export ...` and ``Database.export``: the store's scores in the formats of the
field, and any table, view or query as a file.  Named metrics, targets, reference sets and
the variant must exist (the writers check them through ``interchange.fetch``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypeVar

from ulcdb.errors import ChoiceError, NotFound, UlcdbError, choice
from ulcdb.interchange.fetch import ExportSelection, check_selection
from ulcdb.ops.access import Access
from ulcdb.ops.levels import LEVELS, level_choice
from ulcdb.ops.outputs import writable_file, writable_folder
from ulcdb.scoring.progress import Progress, Tick, silent
from ulcdb.scoring.selection import split_names
from ulcdb.store.database import Store, named_query

T = TypeVar("T")
FORMATS = ("iqxml", "mtme", "wmt", "nist", "sacrebleu", "comet")  # `ulcdb export FMT`
Writer = Callable[[Store, str, ExportSelection, Tick], list[Path]]


class Written(NamedTuple):
    """The files an export wrote, and its notes (what it wrote as it is though it is not
    what a reader may take it for: a metric scored for some targets only)."""

    paths: list[Path]
    notes: tuple[str, ...] = ()


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
                progress: Progress | None = None) -> Written:
    """``write(store, test bed, selection, tick)`` for one test bed (default: the only one);
    the paths written.  ``progress`` hears each metric written."""
    with access.read() as store:
        name = testbed or store.only_testbed()
        sel = scores.selection([name])
        return _written(store, sel, False, progress, lambda tick: write(store, name, sel, tick))


def every_level(fmt: str, scores: Scores) -> None:
    """Refuses levels for a format that writes every level it holds (iqxml, sacrebleu,
    comet: their commands have no --level), which would otherwise be ignored."""
    if scores.levels:
        raise ChoiceError(f"export {fmt} writes every level its format holds: levels are "
                          "chosen for mtme, wmt and nist only")


def _written(store: Store, sel: ExportSelection, by_level: bool, progress: Progress | None,
             write: Callable[[Tick], list[Path]]) -> Written:
    """``write(tick)`` shown as the units of ``sel`` done, as the writers tick them: each
    metric's scores (one test bed), or each metric and level (``by_level``: WMT's files);
    units the format has nothing to write for (a level it does not hold) are counted done
    at the end."""
    metrics, metric_levels = store.query(named_query("export_units"), _params(sel))[0]
    if sel.metrics and not metrics:
        check_selection(store, sel)  # a name that does not exist, said as the writers say it
        raise NotFound(_nothing_to_write(store, sel))
    total = int((metric_levels if by_level else metrics) or 0)
    with (progress or silent)(total) as tick:
        done = [0]

        def counted(label: str, n: int) -> None:
            done[0] += n
            tick(label, n)

        paths = write(counted)
        if done[0] < total:
            tick("", total - done[0])
    return Written(paths, _coverage(store, sel))


def _coverage(store: Store, sel: ExportSelection) -> tuple[str, ...]:
    """A note per metric written with fewer targets than another metric has against the same
    reference set at the same level (``export_coverage``): its counts per reference set."""
    short: dict[tuple[str, str], dict[tuple[str, int, int], None]] = {}
    for testbed, metric, refset, _, n, most in store.query(named_query("export_coverage"),
                                                           _params(sel)):
        short.setdefault((testbed, metric), {})[refset, n, most] = None
    many = len({testbed for testbed, _ in short}) > 1
    notes = []
    for (testbed, metric), counts in short.items():
        shown = [f"{n} of {most} against {refset}" for refset, n, most in counts][:3]
        more = f" and {len(counts) - 3} more" if len(counts) > 3 else ""
        notes.append(f"{metric}{f' in {testbed!r}' if many else ''} has scores of fewer "
                     f"targets than another metric ({'; '.join(shown)}{more}): written as "
                     "they are")
    return tuple(notes)


def _nothing_to_write(store: Store, sel: ExportSelection) -> str:
    """Why metrics named have nothing to export: none under the variant asked (the others
    they have named), or none matching the targets, reference sets and levels."""
    others = [v for (v,) in store.query(named_query("export_variants"), {
        "testbeds": list(sel.testbeds), "metrics": list(sel.metrics)}) if v != sel.variant]
    what = f"no scores of {', '.join(sel.metrics)} to write under variant {sel.variant!r}"
    if others:
        return f"{what}: they are stored under {', '.join(others)} (give --variant)"
    return f"{what} for the targets, reference sets and levels asked"


def _params(sel: ExportSelection) -> dict[str, str | list[str]]:
    return {"variant": sel.variant, "levels": list(sel.levels), "testbeds": list(sel.testbeds),
            "metrics": list(sel.metrics), "targets": list(sel.targets),
            "refsets": list(sel.refsets)}


def _whole(progress: Progress | None, label: str, write: Callable[[], T]) -> T:
    """A writer without units of its own (one query): one step, done when it is written."""
    with (progress or silent)(1) as tick:
        out = write()
        tick(label, 1)
    return out


def iqxml(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
          layout: str = "iqmt", digits: int | None = None, gzip: bool = False,
          progress: Progress | None = None) -> Written:
    from ulcdb.formats.iqxml import LAYOUTS, write_iqxml

    every_level("iqxml", scores)
    choice("layout", layout, LAYOUTS)
    writable_folder(folder)
    return one_testbed(access, testbed, scores, lambda store, name, sel, tick: write_iqxml(
        store, name, folder, layout, sel, digits, gzip, tick),
                       progress=progress)


def mtme(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
         texts: bool = True, lp: str | None = None, progress: Progress | None = None
         ) -> Written:
    from ulcdb.formats.mtme import write_mtme

    writable_folder(folder)
    return one_testbed(access, testbed, scores, lambda store, name, sel, tick: write_mtme(
        store, name, folder, sel, texts, lp, tick), progress=progress)


def wmt(access: Access, folder: Path, scores: Scores = Scores(), testbeds: Iterable[str] = (),
        refset_names: Mapping[str, str] | Iterable[str] = (), gzip: bool = False,
        progress: Progress | None = None) -> Written:
    """``refset_names``: stored -> written name, or STORED=WRITTEN items; ``progress``
    hears each file (metric and level) written."""
    from ulcdb.formats.wmt.metrics_task import write_wmt

    writable_folder(folder)
    names = dict(refset_names) if isinstance(refset_names, Mapping) else _renames(refset_names)
    sel = scores.selection(testbeds)
    with access.read() as store:
        return _written(store, sel, True, progress,
                        lambda tick: write_wmt(store, folder, sel, names, gzip, tick))


def _renames(items: Iterable[str]) -> dict[str, str]:
    names = {}
    for item in items:
        stored, sep, written = item.partition("=")
        if not sep or not stored or not written:
            raise UlcdbError(f"--refset-name takes STORED=WRITTEN, got {item!r}")
        names[stored] = written
    return names


def nist(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
         progress: Progress | None = None) -> Written:
    from ulcdb.formats.nist.scr import write_scr_files

    writable_folder(folder)
    return one_testbed(access, testbed, scores, lambda store, name, sel, tick: write_scr_files(
        store, name, folder, sel, tick), progress=progress)


def sacrebleu(access: Access, folder: Path, scores: Scores = Scores(),
              testbed: str | None = None, width: int = 1, progress: Progress | None = None
              ) -> Written:
    """One step: sacrebleu's scores come from one aggregation of the stored statistics."""
    from ulcdb.formats.sacrebleu_json import write_sacrebleu

    every_level("sacrebleu", scores)
    writable_folder(folder)
    with access.read() as store:
        name = testbed or store.only_testbed()
        sel = scores.selection([name])
        paths = _whole(progress, "sacrebleu", lambda: write_sacrebleu(store, name, folder, sel,
                                                                     width))
        return Written(paths, _coverage(store, sel))


def comet(access: Access, folder: Path, scores: Scores = Scores(), testbed: str | None = None,
          progress: Progress | None = None) -> Written:
    from ulcdb.formats.comet import write_comet

    every_level("comet", scores)
    writable_folder(folder)
    return one_testbed(access, testbed, scores, lambda store, name, sel, tick: write_comet(
        store, name, folder, sel, tick), progress=progress)


def table(access: Access, source: str, output: Path, fmt: str | None = None,
          query: bool = False, progress: Progress | None = None) -> int:
    """A table, view or (``query``) SQL query written to ``output``; the rows written.
    One step (DuckDB writes it in one statement)."""
    from ulcdb.formats.table import FORMATS, export_table

    if fmt is not None:
        choice("format", fmt, FORMATS)
    writable_file(output)
    with access.read() as store:
        return _whole(progress, output.name, lambda: export_table(store, source, output, fmt,
                                                                  query))
