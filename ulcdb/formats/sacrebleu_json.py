"""sacrebleu output, read and written.

``sacrebleu REF -i HYP -m bleu chrf ter`` prints one JSON object per metric (a list when
there are several)::

    {"name": "BLEU", "score": 34.2, "signature": "nrefs:1|case:mixed|...|version:2.6.0", ...}

and with ``--sentence-level`` one text line per segment::

    BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 71.6531 100.0/...

Neither says which system or references were scored: give them (``target``, ``refs``), or
keep the layout ``ulcdb export sacrebleu`` writes (``TARGET/REFSET.json``, each file exactly
what sacrebleu prints), from which the reader takes them; ``"system"``/``"refset"`` keys in
a record are read too.  ``TER`` scores are
lower-is-better, everything else higher.

JSON scores of ``BLEU``, ``chrF2``, ``chrF2++`` and ``TER`` whose signature gives the settings
ulcdb computes them with (its ``BLEU``, ``chrF``, ``chrF++``, ``-TER``: the signatures
``ulcdb export sacrebleu`` writes) are stored as those metrics, on ulcdb's 0-1 scale
(``-TER`` = -TER / 100), at the precision the file carries: sacrebleu prints ``score``
rounded to ``-w`` decimals (default 1), so ``55.8`` is stored as 0.558 (``ulcdb export
sacrebleu --width`` keeps more digits).  Other scores, and those ``--rename`` / ``--metric``
name, are stored under sacrebleu's name and scale (``--rename BLEU=sacreBLEU``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from decimal import Decimal
from pathlib import Path
from typing import Any

from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER
from sacrebleu.utils import sum_of_lists

from ulcdb.errors import InputError, UlcdbError
from ulcdb.ingest.textio import parse_json
from ulcdb.interchange.fetch import ExportSelection, check_selection
from ulcdb.interchange.model import (
    MetricInfo,
    ScoreFrame,
    ScoreSet,
    Source,
    numbered_lines,
    parse_score,
    read_bytes,
    resolve_refs,
    safe_file_name,
)
from ulcdb.store.database import Store, named_query

SENTENCE = re.compile(r"^(?P<name>[^|=\s]+)(?:\|(?P<sig>\S*))?\s+=\s+(?P<score>\S+)")
LOWER_IS_BETTER = ("TER",)


def _info(name: str) -> MetricInfo:
    lower = any(name.startswith(n) for n in LOWER_IS_BETTER)
    return MetricInfo(name, higher_is_better=not lower, reference_implementation="sacrebleu")


def _version(signature: str) -> str | None:
    found = re.search(r"(?:^|\|)(?:version|v):([^|]+)", signature)
    return found.group(1) if found else None


def read_sacrebleu(path: str | Path, testbed: str, names: Collection[str],
                   target: str | None = None, refs: tuple[str, ...] | None = None,
                   variant: str = "case:mixed", as_given: Collection[str] = ()) -> ScoreFrame:
    """sacrebleu JSON (system scores) or ``--sentence-level`` text (segment scores).

    JSON scores of ulcdb's own metrics under ``variant`` come as those metrics (module
    docstring); ``as_given`` names sacrebleu metrics kept under sacrebleu's name and scale."""
    data = read_bytes(path)
    if data.lstrip()[:1] in (b"{", b"["):
        own = _Own(path, variant, as_given)
        return _read_json(path, data, testbed, names, target, refs, own)
    return _read_sentences(path, data, testbed, target, refs)


# sacrebleu's JSON names of the metrics ulcdb computes as sacrebleu does, and ulcdb's names
ULCDB_NAMES = {"BLEU": "BLEU", "chrF2": "chrF", "chrF2++": "chrF++", "TER": "-TER"}


class _Own:
    """Which records of a sacrebleu JSON file hold ulcdb's own metrics, and their values."""

    def __init__(self, path: str | Path, variant: str, as_given: Collection[str]) -> None:
        self.path, self.variant, self.as_given = path, variant, set(as_given)

    def metric(self, name: str, signature: str) -> str | None:
        """ulcdb's metric a record of sacrebleu's ``name`` with ``signature`` is, or None."""
        ours = ULCDB_NAMES.get(name)
        if ours is None or name in self.as_given:
            return None
        lowercase = self.variant.startswith("case:lc")
        given = _settings(signature)
        if given == _ulcdb_settings(ours, lowercase):
            return ours
        if given == _ulcdb_settings(ours, not lowercase):
            other = "case:mixed" if lowercase else "case:lc"
            raise InputError(self.path, None, f"{name} was computed with {other}: give "
                             f"--variant {other} (ulcdb stores it as {ours} of that variant)")
        return None

    @staticmethod
    def value(metric: str, text: str) -> float:
        """sacrebleu's 0-100 ``text`` on ulcdb's 0-1 scale, to the digits ``text`` has."""
        scaled = Decimal(text) / 100
        return float(-scaled if metric == "-TER" else scaled)


def _ulcdb_settings(metric: str, lowercase: bool) -> dict[str, str]:
    """The settings sacrebleu's signature states for ulcdb's ``metric``."""
    scorer = SACREBLEU_METRICS[metric](lowercase)
    scorer.num_refs = 1  # what the signature needs; _settings drops it
    return _settings(scorer.get_signature().format())


def own_metrics_note(frame: ScoreFrame) -> list[str]:
    """What the import report says of sacrebleu scores stored as ulcdb's own metrics."""
    own = [m for m in frame.metric_names() if m in ULCDB_NAMES.values() and m not in
           frame.metrics]
    if not own:
        return []
    return [f"sacrebleu's scores stored as {', '.join(own)} on ulcdb's 0-1 scale, to the "
            "digits the files carry (--rename NAME=OTHER keeps sacrebleu's name and scale)"]


def _settings(signature: str) -> dict[str, str]:
    """The settings a sacrebleu signature states, without nrefs and the version."""
    pairs = (part.partition(":") for part in signature.split("|") if ":" in part)
    return {k: v for k, _, v in pairs if k not in ("nrefs", "version", "v")}


def _read_json(path: str | Path, data: bytes, testbed: str, names: Collection[str],
               target: str | None, refs: tuple[str, ...] | None,
               own: _Own | None = None) -> ScoreFrame:
    parsed = parse_json(path, data, "sacrebleu JSON")
    records = parsed if isinstance(parsed, list) else [parsed]
    if records and all(isinstance(r, dict) and "system" in r and "name" not in r
                       for r in records):
        records = _multi_system(path, records, names)
    sets, signatures, infos = [], [], {}
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict) or "name" not in record or "score" not in record:
            raise InputError(path, None, f"record {number} has no 'name' and 'score'")
        name = str(record["name"])
        system = target or record.get("system") or _from_layout(path, names)[0]
        members = refs
        if not members and record.get("refset"):
            members = resolve_refs(path, None, str(record["refset"]), "+", names)
        if not members and _from_layout(path, names)[1]:
            members = resolve_refs(path, None, Path(path).stem, "+", names)
        if not system or not members:
            raise InputError(path, None, f"record {number} ({name}): sacrebleu does not say "
                             "which system and references it scored; give --target and --ref")
        value = parse_score(path, None, str(record["score"]))
        ours = own.metric(name, str(record.get("signature", ""))) if own else None
        block = ScoreSet(ours or name, str(system), members, "sys")
        block.add(own.value(ours, repr(value)) if ours and own and value is not None else value)
        sets.append(block)
        signatures.append(f"{name}|{record.get('signature', '')}")
        if ours is None:
            infos[name] = _info(name)
    signature = " ; ".join(signatures)
    source = Source(str(path), "sacrebleu", signature, _version(signature))
    return ScoreFrame.from_sets(sets, source, testbed, infos)


def _multi_system(path: str | Path, records: list[dict[str, Any]], names: Collection[str]
                  ) -> list[dict[str, Any]]:
    """sacrebleu's multi-system JSON (``-i sys1 sys2 ... -f json``: one record per system,
    ``{"system": "sys1.de.txt", "BLEU": "34.2", "chrF2": "60.1"}``, paired tests with
    ``{"score": ...}`` objects) as one record per system and metric; the system is the
    translator its file name starts with (``sysA.de.txt`` -> ``sysA``)."""
    out = []
    for number, record in enumerate(records, start=1):
        system = _system_of(path, number, str(record["system"]), names)
        for name, value in record.items():
            if name == "system":
                continue
            score = value.get("score") if isinstance(value, dict) else value
            out.append({"name": name, "score": score, "system": system})
    return out


def _system_of(path: str | Path, number: int, given: str, names: Collection[str]) -> str:
    """The translator a sacrebleu system label names: itself, or its file name without the
    extensions (the longest translator name the file name starts with, then a dot)."""
    base = Path(given.removeprefix("Baseline: ")).name
    if base in names:
        return base
    found = sorted((n for n in names if base.startswith(n + ".")), key=len, reverse=True)
    if not found:
        raise InputError(path, None, f"record {number}: system {given!r} names no system or "
                         "reference of the test bed (nor does its file name)")
    return found[0]


def _from_layout(path: str | Path, names: Collection[str]) -> tuple[str | None, bool]:
    """``TARGET/REFSET.json`` as ``ulcdb export sacrebleu`` writes it: the target when the
    folder names a translator, and whether the file name is made of reference names."""
    p = Path(path)
    target = p.parent.name if p.parent.name in names else None
    return target, target is not None and all(r in names for r in p.stem.split("+"))


def _read_sentences(path: str | Path, data: bytes, testbed: str, target: str | None,
                    refs: tuple[str, ...] | None) -> ScoreFrame:
    if not target or not refs:
        raise InputError(path, None, "sacrebleu sentence-level output does not say which system "
                         "and references it scored; give --target and --ref")
    sets: dict[str, ScoreSet] = {}
    signature = ""
    for line, text in numbered_lines(path, data):
        match = SENTENCE.match(text.strip())
        if match is None:
            raise InputError(path, line, "not a sacrebleu sentence-level line "
                             "(NAME|SIGNATURE = SCORE ...)")
        name = match["name"]
        block = sets.setdefault(name, ScoreSet(name, target, refs, "seg"))
        block.add(parse_score(path, line, match["score"]), seg=len(block.values) + 1, line=line)
        signature = signature or f"{name}|{match['sig'] or ''}"
    source = Source(str(path), "sacrebleu", signature, _version(signature))
    return ScoreFrame.from_sets(sets.values(), source, testbed, {n: _info(n) for n in sets})


# ulcdb metric -> the sacrebleu metric whose statistics it stores (seg_score.stats), in the
# order sacrebleu prints them (its metric keys sorted: bleu, chrf, ter).
SACREBLEU_METRICS: dict[str, Callable[[bool], Metric]] = {
    "BLEU": lambda lc: BLEU(lowercase=lc),
    "chrF": lambda lc: CHRF(lowercase=lc),
    "chrF++": lambda lc: CHRF(word_order=2, lowercase=lc),
    "-TER": lambda lc: TER(),  # case-insensitive, as ulcdb's TER always is
}


def write_sacrebleu(store: Store, testbed: str, folder: str | Path,
                    sel: ExportSelection | None = None, width: int = 1) -> list[Path]:
    """``folder/TARGET/REFSET.json``: exactly what ``sacrebleu REFS -i TARGET -m bleu chrf ter
    -f json -w WIDTH`` prints (scores on sacrebleu's 0-100 scale, its signatures, BLEU's
    verbose score), computed by sacrebleu from the segment statistics ulcdb stored."""
    sel = sel or ExportSelection()
    sel = ExportSelection((testbed,), sel.metrics, sel.targets, sel.refsets, ("seg",), sel.variant)
    check_selection(store, sel)  # names what exists, before anything is written
    wanted = list(sel.metrics) or list(SACREBLEU_METRICS)
    unknown = [m for m in wanted if m not in SACREBLEU_METRICS]
    if unknown:
        raise UlcdbError(f"sacrebleu computes none of {', '.join(unknown)}: its JSON holds "
                         f"{', '.join(SACREBLEU_METRICS)} (1-TER/-TER as TER); write other "
                         "metrics with `ulcdb export table` or `export comet`")
    lowercase = sel.variant.startswith("case:lc")
    files: dict[Path, list[str]] = {}
    folder = Path(folder)
    for target, refset, nrefs, metric, stats in _summed_stats(store, testbed, sel, wanted):
        scorer = SACREBLEU_METRICS[metric](lowercase)
        scorer.num_refs = nrefs  # what the signature says
        score = scorer._compute_score_from_stats(stats)
        path = (folder / safe_file_name(folder, target, "target")
                / f"{safe_file_name(folder, refset, 'reference set')}.json")
        files.setdefault(path, []).append(
            score.format(width, False, scorer.get_signature().format(), True))
    for path, records in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "[\n" + ",\n".join(records) + "\n]" if len(records) > 1 else records[0]
        path.write_text(body + "\n", encoding="utf-8")
    return list(files)


def _summed_stats(store: Store, testbed: str, sel: ExportSelection, metrics: list[str]
                  ) -> list[tuple[str, str, int, str, list[float]]]:
    """(target, refset, references, metric, corpus statistics) of every stored pair, in
    target, reference set and sacrebleu's metric order; pairs without statistics skipped."""
    rows = store.query(named_query("sacrebleu_pair_stats"), {
        "tid": store.testbed_id(testbed), "variant": sel.variant, "metrics": metrics,
        "targets": list(sel.targets), "refsets": list(sel.refsets)})
    order = {m: k for k, m in enumerate(SACREBLEU_METRICS)}
    out = [(t, r, int(n), m, [int(x) if float(x).is_integer() else x
                              for x in sum_of_lists(stats)])  # sacrebleu's own summation
           for t, r, n, m, stats, complete in rows if complete and stats]
    return sorted(out, key=lambda row: (row[0], row[1], order[row[3]]))
