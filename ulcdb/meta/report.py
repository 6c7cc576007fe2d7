"""The result of a meta-evaluation and its renderings (text table cells, CSV, JSON, LaTeX)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ulcdb.meta.task import DARR, UNIT_NAMES, MetaTask, Scale
from ulcdb.stats import correlations as stats

LABELS = {"pearson": "Pearson", "spearman": "Spearman", "kendall_tau_b": "tau-b",
          "kendall_tau_c": "tau-c", "darr_tau": "DARR tau", "darr_tau_noties": "DARR tau*",
          "accuracy": "accuracy"}
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
                  "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}
Key = tuple[str, str]  # (metric, variant)
BY_NAME = "name"  # `ulcdb meta --sort name`: rows in metric name order, not ranked
# One flat CSV/JSON row: names and settings (str), counts (int), values (float; None where
# undefined).
Record = dict[str, str | int | float | None]


@dataclass(frozen=True)
class ConfidenceInterval:
    level: float
    lo: float
    hi: float
    method: str  # bootstrap or fisher


@dataclass(frozen=True)
class Estimate:
    metric: str
    variant: str
    coefficient: str
    value: float
    n_items: int
    n_groups: int | None = None  # groups averaged (grouping item or system)
    n_pairs: int | None = None  # DARR pairs
    intervals: tuple[ConfidenceInterval, ...] = ()

    def interval(self, level: float, method: str = "bootstrap") -> ConfidenceInterval | None:
        return next((i for i in self.intervals if i.level == level and i.method == method),
                    None)


@dataclass(frozen=True)
class Items:
    """One metric's item vectors, aligned: human and oriented metric scores per target/unit;
    ``common`` marks the items every metric of the run scores."""

    translator: NDArray[np.object_]  # str
    unit: NDArray[np.object_]  # str: seg_id, doc_id or '' (sys)
    doc: NDArray[np.object_]  # str
    human: NDArray[np.float64]
    score: NDArray[np.float64]
    common: NDArray[np.bool_]

    def key(self) -> NDArray[np.str_]:
        return np.char.add(np.char.add(self.translator.astype(str), "\x1f"),
                           self.unit.astype(str))

    def subset(self, keep: NDArray[np.bool_]) -> Items:
        return Items(self.translator[keep], self.unit[keep], self.doc[keep], self.human[keep],
                     self.score[keep], self.common[keep])

    def targets(self) -> tuple[str, ...]:
        return tuple(sorted({str(t) for t in self.translator}))

    def at_rank_precision(self) -> Items:
        """The same items, metric scores rounded to ``stats.RANK_DECIMALS``."""
        return Items(self.translator, self.unit, self.doc, self.human,
                     np.round(self.score, stats.RANK_DECIMALS), self.common)


@dataclass(frozen=True)
class Coverage:
    """Which items and targets a run correlated, and what it left out and why."""

    items: str  # 'common' or 'own'
    n_own: dict[Key, int]  # each metric's own items
    targets_of: dict[Key, tuple[str, ...]]  # the targets each metric is correlated on
    lacking: dict[str, tuple[Key, ...]]  # common: targets dropped, metrics not scoring them
    left_out: dict[str, str]  # targets left out by selection, and why
    # targets asked for (named with -s, else scored by the run's metrics) without any item:
    # no judgment, no score, or none on the same units; and why
    unmatched: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, task: MetaTask, own: dict[Key, Items], used: dict[Key, Items],
           left_out: dict[str, str], unmatched: dict[str, str] | None = None) -> Coverage:
        targets_of = {k: it.targets() for k, it in used.items()}
        lacking: dict[str, tuple[Key, ...]] = {}
        if task.common:
            kept = {t for ts in targets_of.values() for t in ts}
            own_targets = {k: set(it.targets()) for k, it in own.items()}
            for t in sorted(set().union(*own_targets.values()) - kept):
                lacking[t] = tuple(k for k, ts in own_targets.items() if t not in ts)
        return cls(task.items, {k: len(it.human) for k, it in own.items()}, targets_of,
                   lacking, left_out, unmatched or {})

    def targets(self) -> tuple[str, ...]:
        return tuple(sorted({t for ts in self.targets_of.values() for t in ts}))

    def dropped(self, labels: dict[Key, str]) -> dict[str, str]:
        """Every target asked for but not correlated, and why."""
        out = dict(self.unmatched)
        out.update((t, "not scored by " + ", ".join(labels.get(k, k[0]) for k in ks))
                   for t, ks in self.lacking.items())
        return out


@dataclass(frozen=True)
class MetricComparison:
    better: Key  # (metric, variant) with the higher point estimate
    worse: Key
    coefficient: str
    result: stats.PairedComparison


def metric_labels(keys: Iterable[Key]) -> dict[Key, str]:
    """A metric's name as tables show it, with its variant (``BLEU [case:lc]``) where the
    metric comes under several."""
    keys = list(keys)
    many = {m for m, _ in keys if sum(1 for k in keys if k[0] == m) > 1}
    return {(m, v): f"{m} [{v}]" if m in many else m for m, v in keys}


@dataclass
class MetaReport:
    task: MetaTask  # as run: coefficients, targets and DARR threshold resolved
    estimates: list[Estimate]
    human_source: str
    coverage: Coverage
    n_units: int  # units of the resampling universe
    scale: Scale = field(default_factory=Scale)
    notes: list[str] = field(default_factory=list)  # what the header must say
    warnings: list[str] = field(default_factory=list)  # one line each, for stderr
    items: dict[Key, Items] = field(repr=False, default_factory=dict)
    replicates: dict[tuple[str, str, str], NDArray[np.float64]] = field(repr=False,
                                                                        default_factory=dict)

    @property
    def targets(self) -> tuple[str, ...]:
        return self.coverage.targets()

    def metrics(self) -> list[Key]:
        return list(dict.fromkeys((e.metric, e.variant) for e in self.estimates))

    def value(self, metric: str, variant: str, coefficient: str) -> float:
        for e in self.estimates:
            if (e.metric, e.variant, e.coefficient) == (metric, variant, coefficient):
                return e.value
        raise KeyError((metric, variant, coefficient))

    def labels(self) -> dict[Key, str]:
        return metric_labels(self.metrics())

    def ordered(self, sort: str | None = None) -> list[Key]:
        """Metrics in output order, as WMT results tables rank them: best first by ``sort``
        (default: the first coefficient; undefined values last; values equal to 12 decimals,
        whose last bits vary between runs, in name order), or by name with ``sort='name'``."""
        keys = sorted(self.metrics())
        coefficient = sort or (self.task.coefs[0] if self.task.coefs else BY_NAME)
        if coefficient == BY_NAME:
            return keys

        def key(mv: Key) -> float:
            v = self.value(*mv, coefficient)
            return math.inf if math.isnan(v) else -round(v, 12)
        return sorted(keys, key=key)

    def n_items(self, key: Key) -> int:
        return next(e.n_items for e in self.estimates if (e.metric, e.variant) == key)

    # -- the header ----------------------------------------------------------------------

    def summary_lines(self) -> list[str]:
        """What was correlated with what: the header of every rendering."""
        t, cov = self.task, self.coverage
        reading = {"metric": "", "seg_mean": "; metric doc/sys scores: mean of segment scores",
                   "doc_mean": "; metric sys scores: mean of document scores (DR')"}[t.reading]
        first = (f"meta-evaluation: {t.level} level, {t.criterion} ({self.human_source}) vs "
                 f"scores against {t.refset}{reading}; grouping {t.grouping}")
        if t.n_resamples:
            first += (f"; bootstrap: {t.n_resamples} resamples of {self.n_units} "
                      f"{UNIT_NAMES[t.resample_unit]}, seed {t.seed}")
        if any(c != "pearson" for c in t.coefs):
            first += f"; metric scores ranked at {stats.RANK_DECIMALS} decimals"
        if any(c in DARR for c in t.coefs):
            first += (f"; DARR threshold {t.threshold:g} ({t.criterion}: "
                      f"{self.scale.describe()})")
        lines = [first]
        keys = self.metrics()
        if cov.items == "common":
            n = self.n_items(keys[0]) if keys else 0
            lines.append(f"items: {n} per metric, those all {len(keys)} metrics score "
                         f"(--own-items keeps each metric's own)" if len(keys) > 1 else
                         f"items: {n}")
        else:
            lines.append("items: each metric on its own items (--own-items): rows differ in n and "
                         "targets, so they are not comparable")
        targets = self.targets
        lines.append(f"{len(targets)} targets: {', '.join(targets)}")
        return lines + self.left_out_lines() + self.notes

    def left_out_lines(self) -> list[str]:
        """The summary's lines on what was left out: targets dropped for lack of scores or
        of a human score, items, human translations (``Database.meta`` gives them as
        notes)."""
        cov, labels, keys = self.coverage, self.labels(), self.metrics()
        lines = []
        if cov.lacking:
            lines.append("dropped for lack of scores: " + "; ".join(
                f"{', '.join(ts)} (not scored by {', '.join(labels.get(k, k[0]) for k in ks)})"
                for ks, ts in _grouped(cov.lacking).items()))
        by_reason: dict[str, list[str]] = {}
        for target, why in cov.unmatched.items():
            by_reason.setdefault(why, []).append(target)
        lines += [f"dropped, {why}: {', '.join(ts)}" for why, ts in by_reason.items()]
        lost = [f"{labels[k]} {cov.n_own[k] - self.n_items(k)} of {cov.n_own[k]}"
                for k in keys if cov.n_own.get(k, 0) > self.n_items(k)]
        if lost and cov.items == "common":
            lines.append("own items left out: " + ", ".join(lost))
        if cov.left_out:
            lines.append("left out: " + ", ".join(f"{n} ({why})"
                                                  for n, why in cov.left_out.items())
                         + _human_hint(cov.left_out))
        return lines

    # -- records (CSV, JSON) ----------------------------------------------------------------

    def run_record(self) -> dict[str, object]:
        cov, labels = self.coverage, self.labels()
        keys = self.metrics()
        return {"items": cov.items,
                "n_items": self.n_items(keys[0]) if keys and cov.items == "common" else None,
                "targets": list(self.targets),
                "dropped_targets": cov.dropped(labels),
                "left_out": dict(cov.left_out),
                "scale": {"min": self.scale.lo, "max": self.scale.hi,
                          "source": self.scale.source},
                "where": self.task.where,
                "n_segments": (len(self.task.segments) if self.task.segments is not None
                               else None),
                "summary": self.summary_lines(), "warnings": list(self.warnings)}

    def records(self, sort: str | None = None, fisher: bool = False) -> list[Record]:
        """One flat record per metric: every coefficient, interval and count."""
        t, labels = self.task, self.labels()
        out = []
        for key in self.ordered(sort):
            rec: Record = {"metric": key[0], "variant": key[1], "label": labels[key]}
            groups = []
            for e in (e for e in self.estimates if (e.metric, e.variant) == key):
                rec.update(_estimate_fields(e, t.ci_levels, fisher))
                rec["n_items"] = e.n_items
                if e.n_groups is not None:
                    rec[f"{e.coefficient}_groups"] = e.n_groups  # the groups that counted
                    groups.append(e.n_groups)
            if groups:
                rec["n_groups"] = min(groups)  # the fewest any coefficient counted
            targets = self.coverage.targets_of.get(key, ())
            rec.update(level=t.level, criterion=t.criterion, human_source=self.human_source,
                       refset=t.refset, reading=t.reading, grouping=t.grouping,
                       items=self.coverage.items, n_targets=len(targets),
                       targets=" ".join(targets), n_resamples=t.n_resamples,
                       resample=t.resample_unit, seed=t.seed)
            out.append(rec)
        return out

    def to_csv(self, sort: str | None = None, fisher: bool = False) -> str:
        return records_csv(self.records(sort, fisher))

    def to_json(self, comparisons: Sequence[MetricComparison] = (), sort: str | None = None,
                fisher: bool = False) -> str:
        """``{"run": ..., "results": [...], "significance": [...]}``, with or without --sig."""
        payload = {"run": self.run_record(), "results": self.records(sort, fisher),
                   "significance": comparison_records(comparisons, self.labels())}
        return json.dumps(payload, ensure_ascii=False, indent=1)

    # -- text table and LaTeX ---------------------------------------------------------------

    def cell(self, key: Key, coef: str, fisher: bool = False) -> str:
        """Value, DARR pairs and intervals of one coefficient, one per line."""
        e = next(e for e in self.estimates
                 if (e.metric, e.variant, e.coefficient) == (*key, coef))
        lines = [_fmt(e.value)]
        if e.n_groups is not None:
            lines.append(f"{e.n_groups} groups")
        if e.n_pairs is not None:
            lines.append(f"{e.n_pairs} pairs")
        for method in _methods(fisher):
            for lv in self.task.ci_levels:
                iv = e.interval(lv, method)
                if iv:
                    tag = f"{lv * 100:g}%" + (" z" if method == "fisher" else "")
                    lines.append(f"{tag} [{_fmt(iv.lo, 3)}, {_fmt(iv.hi, 3)}]")
        return "\n".join(lines)

    def n_cell(self, key: Key) -> str:
        return str(self.n_items(key))  # the groups each coefficient averaged: in its cell

    def table(self, sort: str | None = None, fisher: bool = False
              ) -> tuple[list[str], list[tuple[str, ...]]]:
        """Columns and rows of the text table: metric, n, one cell per coefficient."""
        coefs, labels = self.task.coefs, self.labels()
        return (["metric", "n", *(LABELS[c] for c in coefs)],
                [(labels[k], self.n_cell(k), *(self.cell(k, c, fisher) for c in coefs))
                 for k in self.ordered(sort)])

    def to_latex(self, sort: str | None = None, fisher: bool = False,
                 comparisons: Sequence[MetricComparison] = ()) -> str:
        coefs, labels = self.task.coefs, self.labels()
        levels = ", ".join(f"{lv * 100:g}%" for lv in self.task.ci_levels)
        out = [*(f"% {line}" for line in self.summary_lines()),
               f"% cells: value, then the {levels} intervals; n: items correlated",
               r"\begin{tabular}{lr" + "r" * len(coefs) + "}", r"\toprule",
               r"Metric & $n$ & " + " & ".join(_esc(LABELS[c]) for c in coefs) + r" \\",
               r"\midrule"]
        for key in self.ordered(sort):
            cells = []
            for c in coefs:
                parts = self.cell(key, c, fisher).split("\n")
                cis = [p.split(" [", 1)[1].rstrip("]") for p in parts[1:] if " [" in p]
                cells.append(parts[0] + "".join(rf" {{\scriptsize[{ci}]}}" for ci in cis))
            out.append(f"{_esc(labels[key])} & {self.n_items(key)} & " + " & ".join(cells)
                       + r" \\")
        out += [r"\bottomrule", r"\end{tabular}"]
        sig = comparison_records(comparisons, labels)
        if sig:
            out.append(f"% significance: {json.dumps(sig)}")
        return "\n".join(out)


def _grouped(lacking: dict[str, tuple[Key, ...]]) -> dict[tuple[Key, ...], list[str]]:
    out: dict[tuple[Key, ...], list[str]] = {}
    for target, keys in lacking.items():
        out.setdefault(keys, []).append(target)
    return out


def _human_hint(left_out: dict[str, str]) -> str:
    return ("; --include-human brings human translations in"
            if "human translation" in left_out.values() else "")


def _estimate_fields(e: Estimate, ci_levels: tuple[float, ...], fisher: bool) -> Record:
    rec: Record = {e.coefficient: _num(e.value)}
    for method in _methods(fisher):
        suffix = "" if method == "bootstrap" else "_fisher"
        for lv in ci_levels:
            iv = e.interval(lv, method)
            pct = f"{lv * 100:g}"
            rec[f"{e.coefficient}_lo{pct}{suffix}"] = _num(iv.lo) if iv else None
            rec[f"{e.coefficient}_hi{pct}{suffix}"] = _num(iv.hi) if iv else None
    if e.n_pairs is not None:
        rec[f"{e.coefficient}_pairs"] = e.n_pairs
    return rec


def comparison_records(comparisons: Sequence[MetricComparison], labels: dict[Key, str]
                       ) -> list[Record]:
    return [{"better": labels[c.better], "worse": labels[c.worse], "coefficient": c.coefficient,
             "delta": _num(c.result.delta), "p_value": _num(c.result.p_value),
             "test": c.result.method, "n_resamples": c.result.n_resamples,
             "seed": c.result.seed} for c in comparisons]


def records_csv(records: Sequence[Mapping[str, object]]) -> str:
    """Records as one CSV table (columns: the union of their keys, in order)."""
    columns = list(dict.fromkeys(k for r in records for k in r))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows([{k: "" if v is None else v for k, v in r.items()} for r in records])
    return buf.getvalue()


def _methods(fisher: bool) -> tuple[str, ...]:
    return ("bootstrap", "fisher") if fisher else ("bootstrap",)


def _num(v: float | None) -> float | None:
    return None if v is None or math.isnan(v) else float(v)


def _fmt(v: float | None, digits: int = 4) -> str:
    return "-" if v is None or math.isnan(v) else f"{v:.{digits}f}"


def _esc(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)
