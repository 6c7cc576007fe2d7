"""The official WMT20 metrics-task correlations, read from the task's own result files.

The task's repository (github.com/WMT-Metrics-task/wmt20-metrics) keeps under
``results/output/``:

- ``system-level/DA-<lp><suffix>-cor.csv``: Kendall tau-b over all MT systems and
  ``DA-<lp><suffix>-cor-excloutl.csv``: Pearson without the outliers (suffix ``_B``, ``_P``,
  ``_M`` for newstestB2020, newstestP2020, newstestM2020), full precision;
- ``system-level/DA-<testset>-<lp>-sys-scores.csv``: the system scores those were computed
  from (human z, every metric, MEE's newstestM2020 column already the maximum of its
  single-reference scores).  Pearson over all MT systems and Kendall tau-b without the
  outliers, which the task printed only in its tables, are recomputed here with scipy by the
  task's rules (create_sys_tables.py: human translations left out, metrics with a missing
  system left out);
- ``seglevel_{allsys,excloutl}/`` and ``doclevel_{allsys,excloutl}/RR-newstest2020-<lp>-seg-
  nohy-cor.csv``: the DARR tau (printed to 4 significant digits) and its number of pairs.

Keys are the rows of examples/wmt20-metrics.sh: (lp, level, refset, systems, metric,
coefficient); metric names as ulcdb stores them (``wmt20:BLEU`` etc.)."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from scipy import stats

Key = tuple[str, str, str, str, str, str]
REFSETS = {"": ("newstest2020", "ref-A"), "_B": ("newstestB2020", "ref-B"),
           "_P": ("newstestP2020", "ref-P"), "_M": ("newstestM2020", "ref-A+ref-B")}
HUMANS = ("Human-A.0", "Human-B.0", "Human-P.0")
RENAMED = {"BLEU": "wmt20:BLEU", "chrF": "wmt20:chrF", "chrF++": "wmt20:chrF++"}
NOT_METRICS = ("LP", "SYSTEM", "HUMAN", "HUMAN_RAW")
PRINTED = 4  # significant digits of the DARR files (combine-scores-seg-RR.py: f'{result:.4}')


@dataclass(frozen=True)
class Official:
    value: float
    n: int
    digits: int | None = None  # significant digits printed; None: full precision

    def matches(self, value: float, n: int) -> bool:
        if n != self.n:
            return False
        if self.digits is None:
            return math.isclose(value, self.value, rel_tol=0, abs_tol=1e-9)
        return f"{value:.{self.digits}}" == f"{self.value:.{self.digits}}"


def name(metric: str) -> str:
    metric = metric.replace("_DASH_", "-").replace("_PLUS_", "+")
    return RENAMED.get(metric, metric)


def outliers(release: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    with (release / "human" / "outliers.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            found.setdefault(row["lp"], set()).add(row["system"])
    return found


def system_level(results: Path, lp: str, outliers: set[str]) -> dict[Key, Official]:
    """Every system-level number of LP: the task's files, and scipy on its system scores."""
    folder, code, found = results / "system-level", lp.replace("-", ""), {}
    for suffix, (testset, refset) in REFSETS.items():
        scores = folder / f"DA-{testset}-{code}-sys-scores.csv"
        if not scores.exists():
            continue
        for systems, coef in (("all", "pearson"), ("no-outliers", "kendall_tau_b")):
            found |= _recomputed(scores, lp, refset, systems, coef, outliers)
        for systems, coef, tail in (("all", "kendall_tau_b", ""),
                                    ("no-outliers", "pearson", "-excloutl")):
            with (folder / f"DA-{code}{suffix}-cor{tail}.csv").open(encoding="utf-8") as f:
                for row in list(csv.reader(f, delimiter="\t"))[1:]:
                    if row[0] not in NOT_METRICS:
                        key = (lp, "sys", refset, systems, name(row[0]), coef)
                        found[key] = Official(float(row[1]), int(row[2]))
    return found


def _recomputed(path: Path, lp: str, refset: str, systems: str, coef: str,
                outliers: set[str]) -> dict[Key, Official]:
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter=" ") if r["SYSTEM"] not in HUMANS]
    if systems == "no-outliers":
        rows = [r for r in rows if r["SYSTEM"] not in outliers]
    metrics = [m for m in rows[0] if m not in NOT_METRICS
               and all(r[m] not in ("", "nan", "NaN") for r in rows)]
    human = [float(r["HUMAN"]) for r in rows]
    corr = stats.pearsonr if coef == "pearson" else stats.kendalltau
    return {(lp, "sys", refset, systems, name(m), coef): Official(
        float(corr(human, [float(r[m]) for r in rows])[0]), len(rows)) for m in metrics}


def pair_level(results: Path, lp: str) -> dict[Key, Official]:
    """The DARR numbers of LP at document and segment level (newstest2020 only)."""
    found = {}
    for level in ("doc", "seg"):
        for systems, folder in (("all", "allsys"), ("no-outliers", "excloutl")):
            path = (results / f"{level}level_{folder}" /
                    f"RR-newstest2020-{lp.replace('-', '')}-seg-nohy-cor.csv")
            if not path.exists():
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    metric, value, n = line.split()
                    found[(lp, level, "ref-A", systems, name(metric), "darr_tau")] = Official(
                        float(value), int(n), PRINTED)
    return found
