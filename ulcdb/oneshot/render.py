"""What `ulcdb eval` prints: sacrebleu's own output, made by sacrebleu's own formatters.

One system: sacrebleu's score lines (``-f text``) or its JSON records (``-f json``, the
default, as sacrebleu's).  Several systems: sacrebleu's table (or its JSON list); with a
paired test, its table with the baseline first, the legend and the signatures.  sacrebleu
2.6.0 cannot write that JSON itself (its float32 values are not serialisable); here the
values are Python floats, so it can.
"""

from __future__ import annotations

import json
import os
import sys
from argparse import Namespace

from sacrebleu.metrics.base import Score, Signature
from sacrebleu.utils import Color, print_results_table, print_single_results

from ulcdb.oneshot.run import EvalResult

FORMATS = ("json", "text")


def render(result: EvalResult, fmt: str = "json", width: int = 1, score_only: bool = False,
           short: bool = False, color: bool = True) -> None:
    """Print ``result`` as sacrebleu prints the same request (``score_only``: its -b, which
    a table ignores as sacrebleu's does; ``short``: its -sh)."""
    Color.ENABLE_COLORS = color and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    args = Namespace(format=fmt, width=width, paired_bs=result.paired == "bs",
                     paired_ar=result.paired == "ar", paired_bs_n=result.n_samples,
                     paired_ar_n=result.n_samples, short=short)
    if result.paired:
        print_results_table(_paired_table(result),
                            _signatures(result, result.metrics, short), args)
    elif len(result.labels) == 1:
        print_single_results(_single_lines(result, fmt, width, score_only, short), args)
    else:
        table: dict[str, list[str]] = {"System": list(result.labels)}
        order = _sacrebleu_order(result)
        for label in order:
            table[label] = [s.format(width, True) for s in result.scores[label]]
        print_results_table(table, _signatures(result, order, short), args)


def _sacrebleu_order(result: EvalResult) -> list[str]:
    """sacrebleu's order without a paired test, whatever the order of -m: its metrics sorted
    by name (BLEU, chrF2, TER), then ulcdb's as given (a paired table keeps -m's order, as
    sacrebleu's does)."""
    def key(label: str) -> tuple[bool, str]:
        sacrebleus = isinstance(result.signatures[label], Signature)
        return not sacrebleus, label.upper() if sacrebleus else ""

    return sorted(result.metrics, key=key)


def _single_lines(result: EvalResult, fmt: str, width: int, score_only: bool = False,
                  short: bool = False) -> list[str]:
    """One line (or record) per metric, in sacrebleu's order."""
    lines = []
    for label in _sacrebleu_order(result):
        score, sig = result.scores[label][0], result.signatures[label]
        text = sig.format(short and fmt != "json") if isinstance(sig, Signature) else sig
        if score_only:
            lines.append(score.format(width, True, text, fmt == "json"))
        elif fmt == "json" and not isinstance(sig, Signature):
            lines.append(_ulcdb_json(score, text, width))
        else:
            lines.append(score.format(width, False, text, fmt == "json"))
    return lines


def _ulcdb_json(score: Score, signature: str, width: int) -> str:
    """A ulcdb metric in sacrebleu's record shape: name, score, signature and its fields
    (ulcdb's signature starts with the family's name, which is no field)."""
    record: dict[str, object] = {"name": score.name,
                                 "score": float(f"{score.score:.{width}f}"),
                                 "signature": signature}
    for part in signature.split("|"):
        key, sep, value = part.partition(":")
        if sep:
            record.setdefault(key, value)
    return json.dumps(record, indent=1, ensure_ascii=False)


def _paired_table(result: EvalResult) -> dict[str, list[object]]:
    names = [f"Baseline: {result.labels[0]}", *result.labels[1:]]
    table: dict[str, list[object]] = {"System": list(names)}
    for label in result.metrics:
        table[label] = list(result.results[label])
    return table


def _signatures(result: EvalResult, order: list[str], short: bool = False) -> dict[str, str]:
    sigs = result.signatures
    return {label: sig.format(short) if isinstance(sig := sigs[label], Signature) else sig
            for label in order}
