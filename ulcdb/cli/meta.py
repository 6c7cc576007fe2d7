"""`ulcdb meta`: meta-evaluate stored metric scores against stored human judgments."""

from __future__ import annotations

import csv
import io
import json
import math
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ulcdb.cli.common import Fmt, err_console, open_store, render
from ulcdb.errors import NotFound
from ulcdb.meta import (
    COEFFICIENTS,
    UNIT_NAMES,
    MetaError,
    MetaReport,
    MetaTask,
    MetricComparison,
    compare,
    criteria,
    evaluate,
    human_translations,
    scored_metrics,
    scored_refsets,
)
from ulcdb.selection import resolve_metrics, stored_set
from ulcdb.store import Store


class MetaFmt(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    latex = "latex"


class Level(str, Enum):
    seg = "seg"
    doc = "doc"
    sys = "sys"


class Grouping(str, Enum):
    flat = "flat"
    item = "item"
    system = "system"


class Reading(str, Enum):
    metric = "metric"
    seg_mean = "seg-mean"
    doc_mean = "doc-mean"


class HumanFrom(str, Enum):
    auto = "auto"
    ingested = "ingested"
    derived = "derived"


class SigTest(str, Enum):
    paired_bootstrap = "paired-bootstrap"
    permutation = "permutation"


LABELS = {"pearson": "Pearson", "spearman": "Spearman", "kendall_tau_b": "tau-b",
          "kendall_tau_c": "tau-c", "darr_tau": "DARR tau", "darr_tau_noties": "DARR tau*",
          "accuracy": "accuracy"}


def _split(spec: str | None) -> list[str]:
    return [s.strip() for s in (spec or "").split(",") if s.strip()]


def _translators(store: Store, tid: int, spec: str) -> list[str]:
    """Names from set names or translator names of any role, comma-separated."""
    known = store.translators(tid)
    out: list[str] = []
    for item in _split(spec):
        members = stored_set(store, tid, "system", item)
        if members is None:
            members = stored_set(store, tid, "reference", item)
        for name in members if members is not None else [item]:
            if name not in known:
                raise NotFound(f"no system, reference or system set named {name!r}")
            out.append(name)
    return list(dict.fromkeys(out))


def _refset(store: Store, tid: int, testbed: str, spec: str | None) -> str:
    """A stored reference-set name, the set -r names, or by default the full reference set
    (else the only reference set with scores)."""
    stored = scored_refsets(store, testbed)
    if spec:
        return spec if spec in stored else "+".join(sorted(_translators(store, tid, spec)))
    full = "+".join(sorted(store.translators(tid, "reference")))
    if full in stored or not stored:
        return full
    if len(stored) == 1:
        return stored[0]
    raise MetaError(f"the full reference set {full!r} has no scores; name one with -r "
                    f"({', '.join(stored)})")


def _criterion(store: Store, testbed: str, given: str | None) -> str:
    known = criteria(store, testbed)
    if given:
        if given not in known:
            raise MetaError(f"no human assessments with criterion {given!r} in {testbed!r} "
                            f"(have: {', '.join(known) or 'none'})")
        return given
    if len(known) != 1:
        raise MetaError(f"name the human criterion with --criterion "
                        f"(have: {', '.join(known) or 'none; see `ulcdb ingest assessments`'})")
    return known[0]


def _metrics(store: Store, tid: int, testbed: str, refset: str, level: str,
             spec: str | None) -> tuple[str, ...]:
    scored = scored_metrics(store, testbed, refset, level)
    if not spec:
        if not scored:
            raise MetaError(f"no {level}-level scores against {refset!r} are stored: run "
                            f"`ulcdb score -t {testbed}` first")
        return tuple(scored)
    wanted = resolve_metrics(store, tid, spec)
    kept = tuple(m for m in wanted if m in scored)
    missing = [m for m in wanted if m not in scored]
    if not kept:
        raise MetaError(f"none of {', '.join(wanted)} has {level}-level scores against "
                        f"{refset!r}: run `ulcdb score -t {testbed} -m {spec}` first")
    if missing:
        err_console.print(f"not scored yet, left out (run `ulcdb score` first): "
                          f"{', '.join(missing)}", style="yellow", highlight=False)
    return kept


def _targets(store: Store, tid: int, systems: str | None, exclude: list[str],
             exclude_human: bool) -> tuple[tuple[str, ...] | None, list[str]]:
    chosen = _translators(store, tid, systems) if systems else list(store.translators(tid))
    dropped = [n for spec in exclude for n in _translators(store, tid, spec)]
    if exclude_human:
        dropped += human_translations(store, tid)
    if not systems and not dropped:
        return None, []
    kept = tuple(n for n in chosen if n not in set(dropped))
    return kept, [n for n in dict.fromkeys(dropped) if n in chosen]


def _ci_levels(spec: str) -> tuple[float, ...]:
    """Percentages like ``95,99`` (strictly between 1 and 100) as fractions."""
    try:
        values = tuple(float(v) for v in _split(spec))
    except ValueError:
        values = ()
    if not values or not all(1 < v < 100 for v in values):
        raise typer.BadParameter(f"--ci takes percentages between 1 and 100 like 95,99, not "
                                 f"{spec!r}")
    return tuple(v / 100 for v in values)


def meta(
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")] = None,
    metrics: Annotated[str | None, typer.Option(
        "-m", "--metrics", help="Metric set or names, comma-separated (default: every metric "
        "scored against the reference set).")] = None,
    systems: Annotated[str | None, typer.Option(
        "-s", "--systems", help="System set or names (default: every scored target).")] = None,
    refs: Annotated[str | None, typer.Option(
        "-r", "--refs", help="Reference set: a stored reference-set name, or references / "
        "reference sets, comma-separated (default: all references).")] = None,
    level: Annotated[Level, typer.Option("-G", "--level", help="seg, doc or sys.")] = Level.sys,
    criterion: Annotated[str | None, typer.Option(
        "--criterion", "-c", help="Human criterion, e.g. MQM, DA-raw, DA-z, adequacy "
        "(default: the only one).")] = None,
    coef: Annotated[str | None, typer.Option(
        "--coef", help=f"Coefficients, comma-separated: {', '.join(COEFFICIENTS)} (default: "
        "all but darr_tau_noties; no DARR at sys level).")] = None,
    grouping: Annotated[Grouping, typer.Option(
        "--grouping", help="flat (all items), item (per segment/document, averaged) or "
        "system (per system, averaged).")] = Grouping.flat,
    exclude_human: Annotated[bool, typer.Option(
        "--exclude-human", help="Leave out human translations (references scored as targets "
        "and the system set 'human').")] = False,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", "-x", help="Leave out a system set (e.g. outliers) or systems; "
        "repeatable.")] = None,
    threshold: Annotated[float, typer.Option(
        "--threshold", help="DARR: minimum difference of human scores.")] = 25.0,
    acc_ties: Annotated[str, typer.Option(
        "--acc-ties", help="Accuracy ties: acc_eq (Deutsch et al. 2023) or "
        "skip_human_ties.")] = "acc_eq",
    bootstrap: Annotated[int, typer.Option(
        "--bootstrap", "-B", help="Bootstrap resamples (0: none).")] = 1000,
    resample: Annotated[Level | None, typer.Option(
        "--resample", help="Unit resampled: seg, doc or sys (default: the level's).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the resampling.")] = 1234,
    ci: Annotated[str, typer.Option("--ci", help="Confidence levels in %.")] = "95,99",
    dr: Annotated[bool, typer.Option(
        "--dr", help="DR' reading: system score = mean of document scores "
        "(same as --reading doc-mean).")] = False,
    reading: Annotated[Reading, typer.Option(
        "--reading", help="Document/system metric scores: the metric's own (metric), the "
        "mean of segment scores (seg-mean) or of document scores (doc-mean).")] = Reading.metric,
    human: Annotated[HumanFrom, typer.Option(
        "--human", help="Document/system human scores: ingested ones when present (auto), "
        "ingested, or derived (mean of segment assessments).")] = HumanFrom.auto,
    min_segments: Annotated[int, typer.Option(
        "--min-segments", help="Leave out documents with fewer assessed segments.")] = 1,
    variant: Annotated[str | None, typer.Option(
        "--variant", help="Score variant, e.g. case:mixed (default: all).")] = None,
    fisher: Annotated[bool, typer.Option(
        "--fisher", help="Also show Fisher z intervals (flat grouping).")] = False,
    sort: Annotated[str | None, typer.Option("--sort", help="Sort by this coefficient, "
                                             "best first.")] = None,
    sig: Annotated[SigTest | None, typer.Option(
        "--sig", help="Also test every pair of metrics: paired-bootstrap (reuses the "
        "resamples) or permutation (PERM-BOTH, --bootstrap permutations; slow for Kendall "
        "on many items).")] = None,
    sig_coef: Annotated[str | None, typer.Option(
        "--sig-coef", help="Coefficient tested by --sig (default: --sort's or the "
        "first).")] = None,
    sig_out: Annotated[Path | None, typer.Option(
        "--sig-out", help="Also write the --sig table to this file (JSON if it ends in .json, "
        "else CSV); needed with --format csv, whose stdout holds the results.")] = None,
    fmt: Annotated[MetaFmt, typer.Option("--format", "-f", help="Output format.")] = MetaFmt.table,
) -> None:
    """Meta-evaluate stored metric scores against human judgments: metrics x coefficients.

    Correlates metric scores at seg, doc or sys level with a human criterion: Pearson,
    Spearman, Kendall tau-b and tau-c, the WMT DARR tau (pairs of translations of one segment
    or document whose human scores differ by at least --threshold; a metric tie counts as
    discordant, darr_tau_noties leaves ties out) and pairwise accuracy, each with percentile
    bootstrap intervals (--bootstrap resamples of segments, documents or systems, seeded).
    Document and system human scores are the ingested ones when present, else the mean of
    segment assessments.  Scores must be stored first (`ulcdb score`).

    Example: ulcdb meta -G seg --criterion MQM --exclude-human --sort pearson
    """
    if sig and fmt == MetaFmt.csv and sig_out is None:
        raise MetaError("with --format csv, --sig needs --sig-out FILE for its table (stdout "
                        "holds one CSV of results)")
    reading_name = "doc_mean" if dr else reading.value.replace("-", "_")
    with open_store() as store:  # writable: (re)creates the meta_* macros
        name = testbed or store.only_testbed()
        tid = store.testbed_id(name)
        refset = _refset(store, tid, name, refs)
        targets, dropped = _targets(store, tid, systems, exclude or [], exclude_human)
        task = MetaTask(
            testbed=name, level=level.value, criterion=_criterion(store, name, criterion),
            refset=refset, metrics=_metrics(store, tid, name, refset, level.value, metrics),
            systems=targets, variant=variant, coefficients=tuple(_split(coef)),
            grouping=grouping.value, threshold=threshold, accuracy_ties=acc_ties,
            reading=reading_name, human_from=human.value, min_segments=min_segments,
            resample=resample.value if resample else None, n_resamples=bootstrap, seed=seed,
            ci_levels=_ci_levels(ci))
        if sort and sort not in task.coefs:
            raise MetaError(f"--sort {sort!r} is not among the coefficients "
                            f"({', '.join(task.coefs)})")
        report = evaluate(store, task)
    comparisons = compare(report, sig_coef or sort or task.coefs[0], sig.value) if sig else []
    _emit(report, comparisons, dropped, sort, fisher, fmt)
    if sig_out is not None:
        records = _comparison_records(comparisons, _labels(report))
        text = (json.dumps(records, ensure_ascii=False, indent=1) + "\n"
                if sig_out.suffix == ".json" else _csv(records))
        sig_out.write_text(text, encoding="utf-8")


# -- output ------------------------------------------------------------------------------------


def _labels(report: MetaReport) -> dict[tuple[str, str], str]:
    keys = report.metrics()
    many = {m for m, _ in keys if sum(1 for k in keys if k[0] == m) > 1}
    return {(m, v): f"{m} [{v}]" if m in many else m for m, v in keys}


def _rows(report: MetaReport, sort: str | None) -> list[tuple[str, str]]:
    keys = report.metrics()
    if sort:
        def key(mv: tuple[str, str]) -> float:
            v = report.value(*mv, sort)
            return math.inf if math.isnan(v) else -v
        keys = sorted(keys, key=key)
    return keys


def _methods(fisher: bool) -> tuple[str, ...]:
    return ("bootstrap", "fisher") if fisher else ("bootstrap",)


def _summary(report: MetaReport, dropped: list[str]) -> str:
    t = report.task
    reading = {"metric": "", "seg_mean": "; metric doc/sys scores: mean of segment scores",
               "doc_mean": "; metric sys scores: mean of document scores (DR')"}[t.reading]
    text = (f"{t.level} level, {t.criterion} ({report.human_source}) vs scores against "
            f"{t.refset}{reading}; {len(report.targets)} targets; grouping {t.grouping}")
    if t.n_resamples:
        text += (f"; bootstrap: {t.n_resamples} resamples of {report.n_units} "
                 f"{UNIT_NAMES[t.resample_unit]}, seed {t.seed}")
    if any(c.startswith("darr") for c in t.coefs):
        text += f"; DARR threshold {t.threshold:g}"
    if dropped:
        text += f"; left out: {', '.join(dropped)}"
    return text


def _flat_records(report: MetaReport, sort: str | None, fisher: bool) -> list[dict]:
    t, labels = report.task, _labels(report)
    records = []
    for key in _rows(report, sort):
        rec: dict = {"metric": key[0], "variant": key[1], "label": labels[key]}
        for e in (e for e in report.estimates if (e.metric, e.variant) == key):
            rec[e.coefficient] = _num(e.value)
            for method in _methods(fisher):
                suffix = "" if method == "bootstrap" else "_fisher"
                for lv in t.ci_levels:
                    iv = e.interval(lv, method)
                    pct = f"{lv * 100:g}"
                    rec[f"{e.coefficient}_lo{pct}{suffix}"] = _num(iv.lo) if iv else None
                    rec[f"{e.coefficient}_hi{pct}{suffix}"] = _num(iv.hi) if iv else None
            if e.n_pairs is not None:
                rec[f"{e.coefficient}_pairs"] = e.n_pairs
            rec["n_items"] = e.n_items
            if e.n_groups is not None:
                rec["n_groups"] = e.n_groups
        rec.update(level=t.level, criterion=t.criterion, human_source=report.human_source,
                   refset=t.refset, reading=t.reading, grouping=t.grouping,
                   n_targets=len(report.targets), n_resamples=t.n_resamples,
                   resample=t.resample_unit, seed=t.seed)
        records.append(rec)
    return records


def _num(v: float) -> float | None:
    return None if v is None or math.isnan(v) else float(v)


def _fmt(v: float | None, digits: int = 4) -> str:
    return "-" if v is None or math.isnan(v) else f"{v:.{digits}f}"


def _cell(report: MetaReport, key, coef: str, fisher: bool) -> str:
    e = next(e for e in report.estimates if (e.metric, e.variant, e.coefficient) == (*key, coef))
    lines = [_fmt(e.value)]
    if e.n_pairs is not None:
        lines.append(f"{e.n_pairs} pairs")
    for method in _methods(fisher):
        for lv in report.task.ci_levels:
            iv = e.interval(lv, method)
            if iv:
                tag = f"{lv * 100:g}%" + (" z" if method == "fisher" else "")
                lines.append(f"{tag} [{_fmt(iv.lo, 3)}, {_fmt(iv.hi, 3)}]")
    return "\n".join(lines)


_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
                  "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def _latex(report: MetaReport, sort: str | None, fisher: bool, summary: str) -> str:
    def esc(text: str) -> str:
        return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)

    coefs, labels = report.task.coefs, _labels(report)
    levels = ", ".join(f"{lv * 100:g}%" for lv in report.task.ci_levels)
    out = [f"% {summary}", f"% cells: value, then the {levels} intervals",
           r"\begin{tabular}{l" + "r" * len(coefs) + "}", r"\toprule",
           "Metric & " + " & ".join(esc(LABELS[c]) for c in coefs) + r" \\", r"\midrule"]
    for key in _rows(report, sort):
        cells = []
        for c in coefs:
            parts = _cell(report, key, c, fisher).split("\n")
            cis = [p.split(" [", 1)[1].rstrip("]") for p in parts[1:] if " [" in p]
            cells.append(parts[0] + "".join(rf" {{\scriptsize[{ci}]}}" for ci in cis))
        out.append(esc(labels[key]) + " & " + " & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(out)


def _comparison_records(comparisons: list[MetricComparison], labels) -> list[dict]:
    return [{"better": labels[c.better], "worse": labels[c.worse], "coefficient": c.coefficient,
             "delta": _num(c.result.delta), "p_value": _num(c.result.p_value),
             "test": c.result.method, "n_resamples": c.result.n_resamples,
             "seed": c.result.seed} for c in comparisons]


def _emit(report: MetaReport, comparisons: list[MetricComparison], dropped: list[str],
          sort: str | None, fisher: bool, fmt: MetaFmt) -> None:
    summary = _summary(report, dropped)
    labels = _labels(report)
    sig = _comparison_records(comparisons, labels)
    if fmt == MetaFmt.table:
        coefs = report.task.coefs
        render(["metric", *(LABELS[c] for c in coefs)],
               [(labels[k], *(_cell(report, k, c, fisher) for c in coefs))
                for k in _rows(report, sort)], Fmt.table, title=f"meta-evaluation: {summary}")
        if sig:
            render(list(sig[0]), [tuple(r.values()) for r in sig], Fmt.table,
                   title="is the better metric significantly better? (one-sided p)")
        return
    records = _flat_records(report, sort, fisher)
    if fmt == MetaFmt.json:  # one schema, with or without --sig
        payload = {"results": records, "significance": sig}
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=1))
    elif fmt == MetaFmt.csv:
        typer.echo(_csv(records), nl=False)
    else:
        typer.echo(_latex(report, sort, fisher, summary))
        if sig:
            typer.echo(f"% significance: {json.dumps(sig)}")


def _csv(records: list[dict]) -> str:
    columns = list(dict.fromkeys(k for r in records for k in r))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows([{k: "" if v is None else v for k, v in r.items()} for r in records])
    return buf.getvalue()


def register(app: typer.Typer) -> None:
    app.command()(meta)
