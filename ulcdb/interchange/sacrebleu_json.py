"""sacrebleu output, read and written.

``sacrebleu REF -i HYP -m bleu chrf ter`` prints one JSON object per metric (a list when
there are several)::

    {"name": "BLEU", "score": 34.2, "signature": "nrefs:1|case:mixed|...|version:2.6.0", ...}

and with ``--sentence-level`` one text line per segment::

    BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 71.6531 100.0/...

Neither says which system or references were scored: give them (``target``, ``refs``).
The JSON ulcdb writes adds ``"system"`` and ``"refset"`` keys so that its files say it; the
reader takes them when no target or reference set is given.  ``TER`` scores are
lower-is-better, everything else higher.  The metric is stored under sacrebleu's name
(``BLEU``, ``chrF2``, ``TER``): sacrebleu's BLEU runs 0-100 while ulcdb's built-in BLEU runs
0-1, so such scores are refused under ``BLEU`` and need ``--rename BLEU=sacreBLEU``.
sacrebleu prints ``score`` rounded to ``-w`` decimals (default 1): what it printed is
what is stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

from ulcdb import __version__
from ulcdb.errors import InputError
from ulcdb.interchange.fetch import Selection, score_sets
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
from ulcdb.store import Store

SENTENCE = re.compile(r"^(?P<name>[^|=\s]+)(?:\|(?P<sig>\S*))?\s+=\s+(?P<score>\S+)")
LOWER_IS_BETTER = ("TER",)


def _info(name: str) -> MetricInfo:
    lower = any(name.startswith(n) for n in LOWER_IS_BETTER)
    return MetricInfo(name, higher_is_better=not lower, reference_implementation="sacrebleu")


def _version(signature: str) -> str | None:
    found = re.search(r"(?:^|\|)(?:version|v):([^|]+)", signature)
    return found.group(1) if found else None


def read_sacrebleu(path: str | Path, testbed: str, names: Collection[str],
                   target: str | None = None, refs: tuple[str, ...] | None = None) -> ScoreFrame:
    """sacrebleu JSON (system scores) or ``--sentence-level`` text (segment scores)."""
    data = read_bytes(path)
    if data.lstrip()[:1] in (b"{", b"["):
        return _read_json(path, data, testbed, names, target, refs)
    return _read_sentences(path, data, testbed, target, refs)


def _read_json(path, data: bytes, testbed: str, names: Collection[str], target: str | None,
               refs: tuple[str, ...] | None) -> ScoreFrame:
    try:
        parsed = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise InputError(path, None, "not sacrebleu JSON: nested too deeply") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise InputError(path, line, f"not sacrebleu JSON: {exc}") from None
    records = parsed if isinstance(parsed, list) else [parsed]
    sets, signatures, infos = [], [], {}
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict) or "name" not in record or "score" not in record:
            raise InputError(path, None, f"record {number} has no 'name' and 'score'")
        name = str(record["name"])
        system = target or record.get("system")
        members = refs
        if not members and record.get("refset"):
            members = resolve_refs(path, None, str(record["refset"]), "+", names)
        if not system or not members:
            raise InputError(path, None, f"record {number} ({name}): sacrebleu does not say "
                             "which system and references it scored; give --target and --ref")
        block = ScoreSet(name, str(system), members, "sys")
        block.add(parse_score(path, None, str(record["score"])))
        sets.append(block)
        signatures.append(f"{name}|{record.get('signature', '')}")
        infos[name] = _info(name)
    signature = " ; ".join(signatures)
    source = Source(str(path), "sacrebleu", signature, _version(signature))
    return ScoreFrame.from_sets(sets, source, testbed, infos)


def _read_sentences(path, data: bytes, testbed: str, target: str | None,
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


def write_sacrebleu(store: Store, testbed: str, folder: str | Path,
                    sel: Selection | None = None) -> list[Path]:
    """``folder/TARGET/REFSET.json``: sacrebleu-style JSON of the system scores, full precision,
    with ``system`` and ``refset`` keys; signatures come from the scores' batches."""
    sel = sel or Selection()
    sel = Selection((testbed,), sel.metrics, sel.targets, sel.refsets, ("sys",), sel.variant)
    signatures = dict(_signatures(store, testbed, sel.variant))
    files: dict[Path, list[dict]] = {}
    folder = Path(folder)
    for _, block in score_sets(store, sel):
        if block.values[0] is None:
            continue
        refset = "+".join(block.refs)
        path = (folder / safe_file_name(folder, block.target, "target")
                / f"{safe_file_name(folder, refset, 'reference set')}.json")
        files.setdefault(path, []).append({
            "name": block.metric, "score": block.values[0],
            "signature": signatures.get((block.metric, block.target, refset),
                                        f"ulcdb:{__version__}"),
            "system": block.target, "refset": refset})
    for path, records in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        body = records[0] if len(records) == 1 else records
        path.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return list(files)


def _signatures(store: Store, testbed: str, variant: str) -> list[tuple[tuple, str]]:
    rows = store.query(
        "select s.metric, s.translator, s.refset, b.signature from scores s "
        "join score_batch b using (batch_id) where s.testbed = ? and s.level = 'sys' "
        "and s.variant = ?", [testbed, variant])
    out = []
    for metric, target, refset, signature in rows:
        own = [part.split("|", 1)[1] for part in signature.split(" ; ")
               if part.startswith(f"{metric}|")]
        out.append(((metric, target, refset), own[0] if own else signature))
    return out
