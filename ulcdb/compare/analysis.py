"""`ulcdb compare --analysis`: compare-mt's word-level analyses, side by side for systems.

- ``word-freq``: compare-mt's word accuracy by reference frequency (``ulcdb.compare.words``)
  on the stored texts, tokenised with sacrebleu's 13a tokenizer (WMT texts are detokenised;
  compare-mt expects tokens), lower-cased when the comparison is (``--case lc``).  One
  reference (compare-mt takes one); frequencies are counted on that reference over the whole
  test bed, as compare-mt counts them on the reference file; ``--where`` restricts the
  segments whose words are matched.
- ``category``: the stored per-category linguistic metrics (SP-Op-t: lexical overlap of the
  words of part of speech t; NE-Oe-t: of the named entities of type t; any ``FAMILY-t``),
  each tested like any metric (paired bootstrap / AR against the baseline, the first system
  without ``-b``).  Categories that no compared system's output nor reference shows (every
  score 0) are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ulcdb.compare.data import CompareError
from ulcdb.compare.run import ALPHA, CompareReport, CompareTask, Result, run
from ulcdb.compare.words import WordAccuracy, word_accuracy
from ulcdb.scoring.progress import Progress, silent
from ulcdb.scoring.remedy import catalogue_names, remedy
from ulcdb.scoring.selection import split_names
from ulcdb.stats.sacrebleu_significance import BS_RESAMPLES
from ulcdb.store.database import Store, named_query

ANALYSES = ("word-freq", "category")
CATEGORY_FAMILIES = "SP-Op,NE-Oe"
_AGGREGATES = ("*", "**")


@dataclass
class AnalysisTable:
    """An analysis as long records (csv/json) and as a side-by-side table; ``caption``: what
    the numbers are, ``notes``: what was left out (both said above the table)."""

    columns: list[str]
    rows: list[list[Any]]
    wide_columns: list[str]
    wide_rows: list[list[Any]]
    caption: str
    notes: list[str] = field(default_factory=list)


# -- word frequency ----------------------------------------------------------------------------


def _texts(store: Store, testbed: str, names: list[str]) -> dict[str, dict[int, str]]:
    rows = store.query(named_query("compare_texts"), [store.testbed_id(testbed), names])
    out: dict[str, dict[int, str]] = {n: {} for n in names}
    for name, seg, text in rows:
        if text is not None:
            out[name][int(seg)] = text
    return out


def word_freq(store: Store, task: CompareTask,
              progress: Progress | None = None) -> list[WordAccuracy]:
    """compare-mt's word accuracy by frequency bucket for every system of ``task``
    (``progress``: one step per system)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    refs = task.refset.split("+")
    if len(refs) != 1:
        raise CompareError(f"--analysis word-freq matches words against one reference (as "
                           f"compare-mt), not {task.refset!r}: name one with -r")
    texts = _texts(store, task.testbed, [refs[0], *task.systems])
    tokenize = Tokenizer13a()
    lower = "case:lc" in (task.variant or task.default_variant).split("|")

    def tokens(text: str) -> list[str]:
        toks = tokenize(text.strip()).split()
        return [t.lower() for t in toks] if lower else toks

    ref = {s: tokens(t) for s, t in texts[refs[0]].items()}
    freq: dict[str, int] = {}
    for sent in ref.values():
        for w in sent:
            freq[w] = freq.get(w, 0) + 1
    segs = sorted(s for s in ref if all(s in texts[n] for n in task.systems)
                  and (task.segments is None or s in task.segments))
    if not segs:
        raise CompareError("no segment has the reference and every system's output")
    outs = {n: [tokens(texts[n][s]) for s in segs] for n in task.systems}
    with (progress or silent)(len(outs)) as tick:
        return word_accuracy([ref[s] for s in segs], outs, freq,
                             resamples=task.resamples or BS_RESAMPLES, seed=task.seed,
                             tick=tick)


def word_freq_table(rows: list[WordAccuracy], systems: tuple[str, ...],
                    seed: int | None = 12345) -> AnalysisTable:
    long_cols = ["bucket", "system", "n_ref", "n_out", "n_match", "recall", "precision",
                 "fmeas", "f_low", "f_high", "p_value"]
    buckets = list(dict.fromkeys(r.bucket for r in rows))
    # no word of the reference or of any output: F is 0/0, printed 0 as compare-mt does;
    # there is nothing to test (a p-value of 1 read as "no difference found")
    empty = [b for b in buckets if not any(r.n_ref or r.n_out for r in rows if r.bucket == b)]
    rows = [replace(r, p_value=None) if r.bucket in empty else r for r in rows]
    long_rows = [[r.bucket, r.system, r.n_ref, r.n_out, r.n_match, r.recall, r.precision,
                  r.fmeas, r.f_low, r.f_high, r.p_value] for r in rows]
    by = {(r.bucket, r.system): r for r in rows}
    wide_cols = ["frequency", "ref words", *(f"{s} F [95%]" for s in systems)]
    wide = []
    for b in buckets:
        cells = [by[b, s] for s in systems]
        row = [b, cells[0].n_ref, *(_f_cell(c) for c in cells)]
        if len(systems) == 2:
            p = cells[1].p_value
            row += [f"{cells[1].fmeas - cells[0].fmeas:+.4f}",
                    "" if p is None else f"{p:.4f}{'*' if p < ALPHA else ''}"]
        wide.append(row)
    if len(systems) == 2:
        wide_cols += [f"{systems[1]} - {systems[0]}", "p-value"]
    return AnalysisTable(long_cols, long_rows, wide_cols, wide,
                         "word accuracy (F-measure of matched words) by frequency in the "
                         "reference, compare-mt's buckets, 13a tokens; [95%]: compare-mt's "
                         "bootstrap interval (1000 samples of half the segments, seed "
                         f"{seed}); p-value: paired bootstrap against {systems[0]} "
                         "(sacrebleu's draws)" + (
                             f"; buckets without a word of the reference or of any output: "
                             f"{', '.join(empty)} (F undefined, shown 0 as compare-mt does; "
                             "no p-value)" if empty else ""))


def _f_cell(r: WordAccuracy) -> str:
    if r.f_low is None or r.f_high is None:
        return f"{r.fmeas:.4f}"
    return f"{r.fmeas:.4f} [{r.f_low:.4f}, {r.f_high:.4f}]"


# -- linguistic categories ---------------------------------------------------------------------


def category_metrics(store: Store, testbed: str, families: str | None) -> list[str]:
    """The stored per-category metrics ``FAMILY-t`` of each family named (aggregates such as
    ``FAMILY-*`` left out)."""
    stored = [r[0] for r in store.query(named_query("testbed_metrics"), [testbed])]
    out: list[str] = []
    for family in split_names(families or CATEGORY_FAMILIES):
        prefix = f"{family}-"
        found = [m for m in stored if m.startswith(prefix) and "*" not in m[len(prefix):]]
        if not found:
            raise CompareError(f"no stored per-category scores {family}-<category> in "
                               f"{testbed!r}: {_category_remedy(store, testbed, family)}")
        out += found
    return out


def _category_remedy(store: Store, testbed: str, family: str) -> str:
    """`ulcdb score -m FAMILY-*` computes a catalogue family's per-category scores; any other
    family's come from an import only."""
    known = sorted(n[:-2] for n in catalogue_names() if n.endswith("-*"))
    if family in known:
        return remedy(store, testbed, [f"{family}-*"], [])
    return (f"ulcdb computes per-category scores of {', '.join(known)} only: those of "
            f"{family} can only be imported, as metrics named {family}-<category>")


def category(store: Store, task: CompareTask, families: str | None,
             progress: Progress | None = None) -> CompareReport:
    """Every stored per-category metric of ``families`` tested against the baseline (the
    first system when none is given)."""
    metrics = tuple(category_metrics(store, task.testbed, families))
    tested = replace(task, metrics=metrics, baseline=task.baseline or task.systems[0])
    with (progress or silent)(tested.steps) as tick:
        return run(store, tested, tick=tick)


def category_table(report: CompareReport, families: str | None) -> AnalysisTable:
    t = report.task
    fams = sorted(split_names(families or CATEGORY_FAMILIES), key=len, reverse=True)

    def split(metric: str) -> tuple[str, str]:
        fam = next(f for f in fams if metric.startswith(f"{f}-"))
        return fam, metric[len(fam) + 1:]

    by_metric: dict[str, list[Result]] = {}
    for r in report.results:
        by_metric.setdefault(r.metric, []).append(r)
    kept = {m: rs for m, rs in by_metric.items() if any(r.score for r in rs)}
    long_cols = ["family", "category", "system", "baseline", "score", "ci_low", "ci_high",
                 "p_value", "method", "n_samples", "seed", "n_units"]
    long_rows = [[*split(m), r.system, r.baseline, r.score, r.ci_low, r.ci_high, r.p_value,
                  t.method, t.n_samples, t.seed, r.n_units]
                 for m, rs in kept.items() for r in rs]
    wide_cols = ["family", "category", *t.systems]
    if len(t.systems) == 2:
        wide_cols += [f"{t.systems[1]} - {t.systems[0]}", "p-value"]
    wide = []
    for m, rs in kept.items():
        scores = {r.system: r.score for r in rs}
        row = [*split(m), *(f"{scores[s]:.4f}" for s in t.systems)]
        if len(t.systems) == 2:
            p = next(r.p_value for r in rs if r.system == t.systems[1])
            mark = "*" if p is not None and p < t.alpha else ""
            row += [f"{scores[t.systems[1]] - scores[t.systems[0]]:+.4f}",
                    "" if p is None else f"{p:.4f}{mark}"]
        wide.append(row)
    dropped = len(by_metric) - len(kept)
    notes = [f"{dropped} categories left out: no occurrence (every score 0)"] if dropped else []
    return AnalysisTable(long_cols, long_rows, wide_cols, wide,
                         f"per-category scores (mean of segment scores) against {t.baseline}",
                         notes)


def analyse(store: Store, task: CompareTask, kind: str, families: str | None = None,
            progress: Progress | None = None) -> AnalysisTable:
    """The analysis ``kind`` (word-freq or category) of ``task``'s systems; ``progress``
    hears each system's word accuracy done, or each category test."""
    if kind == "word-freq":
        return word_freq_table(word_freq(store, task, progress), task.systems, task.seed)
    if kind == "category":
        return category_table(category(store, task, families, progress), families)
    raise CompareError(f"--analysis {kind!r}: use one of {', '.join(ANALYSES)}")
