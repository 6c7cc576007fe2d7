"""Renderings of a WMT23/WMT24 protocol run: header lines, text table cells, CSV, JSON, LaTeX.

JSON keeps the envelope of ``ulcdb meta -f json``: ``{"run": {...}, "results": [...],
"significance": [...]}``.
"""

from __future__ import annotations

import json
import math

from ulcdb.meta.protocol import (
    MTME_HUMAN_LPS,
    Bed,
    ColumnResult,
    Key,
    ProtocolReport,
    column_items,
)
from ulcdb.meta.report import Record, _esc, _fmt, _num, metric_labels, records_csv

MTME_TASKS = {"wmt23": "tasks.WMT23", "wmt24": "tasks.WMT24"}


def labels(report: ProtocolReport) -> dict[Key, str]:
    """Metric names, with the variant where a metric has several."""
    return metric_labels(report.keys)


def settings_record(report: ProtocolReport) -> dict[str, object]:
    s = report.settings
    return {"protocol": s.protocol, "mtme": MTME_TASKS[s.protocol], "k": s.k, "seed": s.seed,
            "block_size": s.block_size, "early_min": s.early_min, "early_max": s.early_max,
            "pval": s.pval, "acc_t": {"variant": "acc23", "average_by": "item",
                                      "sample_rate": 1.0, "perm_test": "pairs"},
            "spa": {"num_permutations": s.spa_permutations, "seed": s.spa_seed}
            if s.protocol == "wmt24" else None}


def summary_lines(report: ProtocolReport) -> list[str]:
    s = report.settings
    stats = ("system-level pairwise accuracy" +
             (" (global, pooled over test beds)" if len(report.tasks) > 1 else "") +
             ", system- and segment-level Pearson, segment-level acc-t"
             if s.protocol == "wmt23" else "system-level soft pairwise accuracy (SPA), "
             "segment-level acc-t")
    human = sorted({b.human_source for b in report.beds.values()})
    lines = [f"{s.protocol.upper()} protocol (mt-metrics-eval {MTME_TASKS[s.protocol]}): "
             f"{stats}; {report.criterion} ({'+'.join(human)}) vs metric scores"]
    if s.k:
        lines.append(f"ranks: significance clusters at p <= {s.pval:g} (AssignRanks), {s.k} "
                     f"resamples per pair of metrics (k; MTME's Task defaults to k=1000, its "
                     f"{MTME_TASKS[s.protocol]}() to k=0: no significance tests), block size "
                     f"{s.block_size}, early stop "
                     f"when p < {s.early_min:g} or p > {s.early_max:g}, seed {s.seed}; "
                     "PERM-BOTH, acc-t: pairwise permutation (perm_test='pairs')")
    else:
        lines.append("ranks: none (--bootstrap 0: no significance tests)")
    lines.append("acc-t: acc23 (Deutsch et al. 2023) at the epsilon maximising it, averaged "
                 "over segments (average_by='item', sample rate 1)" +
                 (f"; SPA: {s.spa_permutations} permutations, seed {s.spa_seed}"
                  if s.protocol == "wmt24" else ""))
    for task in report.tasks:
        beds = [b for (tb, _), b in report.beds.items() if tb == task.testbed]
        sizes = "; ".join(f"{b.level}: {b.n_items} items ({len(b.systems)} systems"
                          + (f" x {len(b.units)} segments)" if b.level == "seg" else ")")
                          for b in beds)
        lines.append(f"{task.testbed} against {task.refset}: {sizes}; items every metric "
                     f"scores; targets: {', '.join(beds[0].systems)}")
        lines += _left_out(task.testbed, beds)
        lines.append(f"{task.testbed} items per column: " + ", ".join(
            f"{r.column.label} {n}" for r, n in _column_items(report, task.testbed)))
        humans = sorted({h for b in beds for h in b.humans})
        lines.append(human_choice(report, task.testbed, task.include_human, humans))
    return lines + all_ties_lines(report)


def all_ties_lines(report: ProtocolReport) -> list[str]:
    """One line per acc-t column where metrics score the all-ties baseline: on WMT21 en-de's
    MQM every lexical metric's acc-t was 0.4657 (BLEU at epsilon 0.87), which reads as a
    broken tool unless the output says what that number is."""
    names, out = labels(report), []
    for r in report.results:
        tied = r.at_all_ties()
        if not tied or r.all_ties is None:
            continue
        base = r.all_ties[tied[0]]
        who = ("every metric" if len(tied) == len(report.keys)
               else ", ".join(names[k] for k in tied))
        out.append(f"{r.column.label} of {who} = {base:.4f}, the all-ties baseline: a metric "
                   f"that calls every pair of translations of a segment a tie scores it, as "
                   f"{report.criterion} ties {base:.1%} of those pairs (mean over segments); "
                   "no better than predicting ties")
    return out


def left_out_lines(report: ProtocolReport) -> list[str]:
    """The summary's lines on what was left out of each test bed: human translations, and
    targets dropped for want of a human score (``Database.meta_protocol`` gives them as
    notes, as ``Database.meta`` gives its own)."""
    return [line for task in report.tasks
            for line in _left_out(task.testbed, [b for (tb, _), b in report.beds.items()
                                                 if tb == task.testbed])]


def _left_out(testbed: str, beds: list[Bed]) -> list[str]:
    """The translations a test bed's levels left out (human ones), then those dropped."""
    left = {n: w for b in beds for n, w in b.left_out.items()}
    said = [f"{testbed} left out: " + ", ".join(f"{n} ({w})" for n, w in left.items())]
    return (said if left else []) + _dropped_lines(testbed, beds)


def _dropped_lines(testbed: str, beds: list[Bed]) -> list[str]:
    """The targets each level dropped, by reason; a reason given at both levels for the same
    target is said once ("no MQM judgment at sys/seg level")."""
    levels: dict[tuple[str, str], list[str]] = {}  # (reason, level blanked out; target)
    for b in beds:
        for name, why in b.dropped.items():
            generic = (why.replace(f" at {b.level} level", " at \0 level")
                       .replace(f"{b.level}-level", "\0-level"))
            levels.setdefault((generic, name), []).append(b.level)
    by_reason: dict[str, list[str]] = {}
    for (generic, name), lv in levels.items():
        by_reason.setdefault(generic.replace("\0", "/".join(lv)), []).append(name)
    return [f"{testbed} dropped, {why}: {', '.join(names)}" for why, names in by_reason.items()]


def _column_items(report: ProtocolReport, testbed: str) -> list[tuple[ColumnResult, int]]:
    """Each column of one test bed (pooled columns too) and the items it used."""
    return [(r, sum(column_items(r.column, report.beds[tb, r.column.level])
                    for tb in r.column.testbeds))
            for r in report.results if testbed in r.column.testbeds]


def human_choice(report: ProtocolReport, testbed: str, included: bool,
                 humans: list[str] | None = None) -> str:
    """Whether human translations stood as systems (``humans``: those that did), against
    MTME's task for the language pair, and how to get the other choice."""
    protocol = report.settings.protocol
    lp = report.language_pairs.get(testbed)
    mtme = MTME_HUMAN_LPS[protocol]
    task = f"mt-metrics-eval's {MTME_TASKS[protocol]}"
    if lp is None:
        mtme_says = (f"{task} scores them (human=True) for {', '.join(mtme)} only; the "
                     f"language pair of {testbed!r} is not recorded")
    else:
        verb = "scores them" if lp in mtme else "leaves them out"
        mtme_says = f"{task} {verb} for {lp} (human={lp in mtme})"
    if included and not humans:
        return (f"{testbed}: no human translation among the systems, though --include-human "
                "asks for them (only those outside the reference set (-r) can be, with scores "
                f"against it); {mtme_says}")
    if included:
        return (f"{testbed}: human translations scored as systems (--include-human): "
                f"{', '.join(humans or [])}; {mtme_says}; leave out --include-human for the "
                "other choice")
    return (f"{testbed}: human translations left out; {mtme_says}; --include-human scores "
            "those outside the reference set (-r) as systems")


def records(report: ProtocolReport) -> list[Record]:
    names = labels(report)
    out = []
    for key in report.keys:
        rec: Record = {"metric": key[0], "variant": key[1], "label": names[key]}
        for r in report.results:
            rec[r.column.key] = _num(r.values[key])
            rec[f"{r.column.key}_rank"] = r.ranks[key] if r.ranks else None
            if r.epsilons is not None:
                rec[f"{r.column.key}_epsilon"] = _num(r.epsilons[key])
        out.append(rec)
    return out


def significance(report: ProtocolReport) -> list[Record]:
    """Every tested pair: p-value that the worse metric is as good as the better one."""
    names = labels(report)
    out: list[Record] = []
    for r in report.results:
        if not r.ranks:
            continue
        for i, better in enumerate(r.order):
            for j in range(i + 1, len(r.order)):
                out.append({"column": r.column.key, "better": names[better],
                            "worse": names[r.order[j]], "p_value": float(r.sig[i, j]),
                            "test": "pairs" if r.column.perm_test == "pairs" else "perm-both"})
    return out


def run_record(report: ProtocolReport) -> dict[str, object]:
    return {"protocol": report.settings.protocol, "criterion": report.criterion,
            "settings": settings_record(report),
            "columns": [{"key": r.column.key, "label": r.column.label,
                         "statistic": r.column.statistic, "level": r.column.level,
                         "testbeds": list(r.column.testbeds)} for r in report.results],
            "testbeds": {t.testbed: {"refset": t.refset, **{
                level: {"n_items": b.n_items, "systems": b.systems, "n_units": len(b.units),
                        "left_out": b.left_out, "dropped": b.dropped}
                for (tb, level), b in report.beds.items() if tb == t.testbed},
                "column_items": {r.column.key: n for r, n in _column_items(report, t.testbed)},
                "language_pair": report.language_pairs.get(t.testbed),
                "include_human": t.include_human}
                for t in report.tasks},
            "summary": summary_lines(report), "warnings": list(report.warnings)}


def to_json(report: ProtocolReport) -> str:
    payload = {"run": run_record(report), "results": records(report),
               "significance": significance(report)}
    return json.dumps(payload, ensure_ascii=False, indent=1)


def to_csv(report: ProtocolReport) -> str:
    return records_csv(records(report))


def table(report: ProtocolReport) -> tuple[list[str], list[tuple[str, ...]]]:
    """Columns and rows: metric, then rank and value per task (epsilon after acc-t)."""
    names = labels(report)
    header = ["metric"]
    for r in report.results:
        header += [f"{r.column.label} rank", r.column.label]
        if r.epsilons is not None:
            header.append(f"{r.column.label} eps")
    rows = []
    for key in report.keys:
        cells = [names[key]]
        for r in report.results:
            cells += [str(r.ranks[key]) if r.ranks else "-", _fmt(r.values[key])]
            if r.epsilons is not None:
                cells.append(_eps(r.epsilons[key]))
        rows.append(tuple(cells))
    return header, rows


def _eps(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.4g}"


def to_latex(report: ProtocolReport) -> str:
    """MTME's LaTeX layout: a rank and a value per task, rank 1 in bold."""
    names = labels(report)
    out = [*(f"% {line}" for line in summary_lines(report)),
           r"\begin{tabular}{l" + "|rr" * len(report.results) + "}", r"\toprule",
           "Metric & " + " & ".join(rf"\multicolumn{{2}}{{|l}}{{{_esc(r.column.label)}}}"
                                    for r in report.results) + r" \\", r"\midrule"]
    for key in report.keys:
        cells = []
        for r in report.results:
            rank, value = (str(r.ranks[key]) if r.ranks else "-"), _fmt(r.values[key], 3)
            if r.ranks and r.ranks[key] == 1:
                rank, value = rf"\textbf{{{rank}}}", rf"\textbf{{{value}}}"
            cells.append(f"{rank} & {value}")
        out.append(f"{_esc(names[key])} & " + " & ".join(cells) + r" \\")
    return "\n".join([*out, r"\bottomrule", r"\end{tabular}"])
