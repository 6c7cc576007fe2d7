"""What a meta-evaluation must say before its numbers are read: the targets asked for that
no item holds (and why), and the coefficients that too few items leave without meaning
(Pearson over two items is +-1 whatever the metric)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ulcdb.errors import MetaError
from ulcdb.meta.report import LABELS, Estimate, Items, Key
from ulcdb.meta.select import human_translations
from ulcdb.meta.task import UNIT_NAMES, MetaTask
from ulcdb.metrics.base import Params
from ulcdb.scoring.scorer import variant_of
from ulcdb.scoring.selection import testbed_lowercase
from ulcdb.stats.correlations import FloatArray
from ulcdb.store.database import Store, named_query

# The fewest items (flat grouping) a coefficient needs to mean something: with two items
# Pearson, Spearman and Kendall are +-1 by construction; accuracy needs one pair.
MIN_ITEMS = {"pearson": 3, "spearman": 3, "kendall_tau_b": 3, "kendall_tau_c": 3,
             "accuracy": 2}


@dataclass(frozen=True)
class JudgedTargets:
    """The targets a task's human scores judge (at its level, criterion, human source,
    segments and --min-segments) and, with --include-human and no -s, the judged human
    translations among them: read once for the targets a run misses and the note on the
    human translations in the reference set."""

    judged: set[str]
    humans: set[str]

    @classmethod
    def of(cls, store: Store, task: MetaTask) -> JudgedTargets:
        judged = _judged(store, task, task.human_from, _segments(task))
        if not task.include_human or task.systems is not None:
            return cls(judged, set())
        return cls(judged, judged & set(human_translations(store, store.testbed_id(
            task.testbed))))


def _segments(task: MetaTask) -> list[int] | None:
    return sorted(task.segments) if task.segments is not None else None


def unmatched_targets(store: Store, task: MetaTask, own: dict[Key, Items],
                      left_out: dict[str, str], targets: JudgedTargets) -> dict[str, str]:
    """The targets asked for (named with -s, else every target the run's metrics score and,
    with --include-human, the judged human translations outside the reference set, but
    those left out on purpose) that no item holds, and why: no score, no judgment, or none
    of the same unit."""
    segments = _segments(task)
    scored = {r[0] for r in store.query(
        "select distinct translator from meta_metric(?, ?, ?, reading := ?, variant_name := ?, "
        "metrics := ?::varchar[], segments := ?::integer[])",
        [task.testbed, task.level, task.refset, task.reading, task.variant,
         list(task.metrics) if task.metrics is not None else None, segments])}
    judged = targets.judged
    held = {str(t) for it in own.values() for t in it.translator}
    asked = targets.humans - set(task.refset.split("+"))  # correlated as systems, scored or not
    wanted = (list(task.systems) if task.systems is not None
              else sorted((scored | asked) - set(left_out)))
    out: dict[str, str] = {}
    for t in (t for t in wanted if t not in held):
        if t not in scored:
            out[t] = f"no {task.level}-level score against {task.refset}"
        elif t not in judged:
            out[t] = f"no {task.criterion} judgment at {task.level} level"
            if task.min_segments > 1 and t in _judged(store, replace(task, min_segments=1),
                                                      task.human_from, segments):
                out[t] = (f"fewer than {task.min_segments} assessed segments at {task.level} "
                          "level (--min-segments)")
            elif t in _derivable(store, task, segments):
                out[t] = (f"no ingested {task.criterion} judgment at {task.level} level "
                          "(judged at seg level: --human derived averages those)")
        else:
            out[t] = f"no {task.level} unit both scored and judged"
    return out


def _derivable(store: Store, task: MetaTask, segments: list[int] | None) -> set[str]:
    """The translators whose doc/sys human scores could be the mean of their segments'
    when ingested ones are read (a criterion ingested at that level for some only)."""
    if task.level == "seg" or task.human_from == "derived" or segments is not None:
        return set()
    return _judged(store, task, "derived", None)


def _judged(store: Store, task: MetaTask, human_from: str, segments: list[int] | None
            ) -> set[str]:
    return {r[0] for r in store.query(named_query("meta_judged_translators"), [
        task.testbed, task.level, task.criterion, human_from, task.min_segments, segments])}


def humans_in_refset(task: MetaTask, targets: JudgedTargets) -> list[str]:
    """With --include-human (no -s): a note naming the judged human translations that are
    references of the reference set, which cannot be targets (WMT21 en-de's ref-A, ref-C
    and ref-D against ref-A+ref-C+ref-D: the run correlated the MT systems alone, saying
    nothing)."""
    inside = sorted(targets.humans & set(task.refset.split("+")))
    if not inside:
        return []
    one = len(inside) == 1
    return [f"--include-human: {', '.join(inside)} {'is' if one else 'are'} in the reference "
            f"set {task.refset}, so not {'a target' if one else 'targets'} (a reference is not "
            f"scored against itself): -r a set without {'it' if one else 'them'} scores "
            f"{'it' if one else 'them'} as {'a system' if one else 'systems'}"]


def partly_judged(store: Store, task: MetaTask, human_source: str,
                  targets: tuple[str, ...]) -> list[str]:
    """Doc/sys human scores derived from segment judgments that cover part of the test bed,
    against metric scores over every segment (WMT21 en-de: MQM judged 527 of its 1002
    segments): a note saying so, and how to put both on the judged segments."""
    if (task.level == "seg" or "derived" not in human_source.split("+")
            or task.segments is not None):
        return []
    fewest, most, any_judged, total = store.query(named_query("meta_judged_segments"), [
        task.testbed, task.criterion, list(targets)])[0]
    if not fewest or fewest >= total:
        return []
    judged = f"{fewest}" if fewest == most else f"{fewest} to {most}"
    note = (f"{task.level}-level {task.criterion}: the mean of each target's judged segments "
            f"({judged} of the {total} segments), metric scores over all {total}")
    if fewest != any_judged:  # the targets' judged segments differ: no one slice fits all
        return [note]
    quoted = task.criterion.replace("'", "''")
    return [f"{note}; --where \"seg_id in (select seg_id from assessments where criterion = "
            f"'{quoted}')\" puts both on the judged segments"]


def one_metric_twice(items: dict[Key, Items], labels: dict[Key, str]) -> list[str]:
    """A note naming the rows that are one metric under two names: scores equal up to a
    constant on the same items, so every coefficient is equal (BLEU and BLEU-4, NIST and
    NIST-5, -PER and 1-PER: scoring LEX stores them all, and `ulcdb meta` after it printed
    32 rows of WMT21 en-de of which 5 repeated others without a word)."""
    groups: dict[tuple[int, str], list[list[Key]]] = {}  # by what a shift keeps: n, spread
    for key in sorted(items, key=lambda k: labels[k]):
        score = items[key].score
        near = groups.setdefault((len(score), f"{np.std(score):.6g}"), [])
        group = next((g for g in near if _shifted(items[g[0]], items[key])), None)
        if group is None:
            near.append([key])
        else:
            group.append(key)
    twins = sorted(" = ".join(labels[k] for k in g) for near in groups.values() for g in near
                   if len(g) > 1)
    if not twins:
        return []
    return ["one metric under two names (the same scores up to a constant, so the same "
            f"coefficients): {'; '.join(twins)}"]


def _shifted(a: Items, b: Items) -> bool:
    """Whether ``b``'s scores are ``a``'s plus a constant, on the same (non-constant) items."""
    if len(a.score) < 3 or not (np.array_equal(a.translator, b.translator)
                                and np.array_equal(a.unit, b.unit)):
        return False
    if np.ptp(a.score) == 0:
        return False
    d = b.score - a.score
    return bool(np.all(np.abs(d - d[0]) <= 1e-9 * max(1.0, float(np.abs(a.score).max()))))


def variant_notes(store: Store, task: MetaTask, labels: dict[Key, str]) -> list[str]:
    """Without --variant every stored variant is correlated, and a row names its variant only
    when its metric has several: the header says the variant of the others when it is not
    the only one of the run, or not the test bed's case (the one `ulcdb score` writes)."""
    if task.variant is not None or not labels:
        return []
    variants = {v for _, v in labels}
    if len(variants) > 1:
        plain = [f"{m} {v}" for (m, v), label in labels.items() if label == m]
        return [f"variant of the rows without one: {', '.join(plain)}"] if plain else []
    (only,) = variants
    default = variant_of(Params(lowercase=testbed_lowercase(store, task.testbed)))
    if only == default:
        return []
    return [f"variant {only}: the only one scored here (the test bed's case is {default}; "
            "--variant chooses)"]


def undefined_resamples(task: MetaTask, estimates: list[Estimate],
                        replicates: dict[tuple[str, str, str], FloatArray],
                        labels: dict[Key, str]) -> list[str]:
    """The bootstrap resamples in which a shown coefficient is undefined (a resample with
    too few distinct units, or constant scores): its intervals and --sig rest on the others,
    fewer than --bootstrap asked."""
    counts = []
    for e in estimates:
        reps = replicates.get((e.metric, e.variant, e.coefficient))
        missing = int(np.isnan(reps).sum()) if reps is not None else 0
        if missing and not math.isnan(e.value):
            counts.append(f"{labels[(e.metric, e.variant)]} {LABELS[e.coefficient]} {missing}")
    if not counts:
        return []
    return [f"warning: bootstrap: undefined in some of the {task.n_resamples} resamples (too few "
            f"distinct {UNIT_NAMES[task.resample_unit]} or constant scores), intervals "
            f"and --sig over the others: {', '.join(counts)}"]


def too_few_items(task: MetaTask, estimates: list[Estimate], labels: dict[Key, str],
                  dropped: dict[str, str]) -> tuple[list[Estimate], list[str]]:
    """Flat coefficients over fewer items than they need are left blank, each with a loud
    warning; when none is left, the run is refused naming the targets dropped and why."""
    if task.grouping != "flat":
        return estimates, []
    out, warnings = [], []
    for e in estimates:
        need = MIN_ITEMS.get(e.coefficient, 0)
        if e.n_items < need:
            out.append(replace(e, value=math.nan, intervals=()))
            warnings.append(f"warning: {LABELS[e.coefficient]} needs at least {need} items, "
                            f"{labels[(e.metric, e.variant)]} has {e.n_items}: left blank "
                            "(over so few it is +-1 or undefined whatever the scores)")
        else:
            out.append(e)
    if warnings and all(math.isnan(e.value) for e in out):
        n = min(e.n_items for e in estimates)
        lost = "; ".join(f"{t} ({why})" for t, why in dropped.items())
        raise MetaError(f"only {n} {task.level}-level item{'s' if n != 1 else ''} left, too "
                        f"few for any coefficient (Pearson, Spearman and Kendall need 3, "
                        f"accuracy 2)" + (f"; dropped: {lost}" if lost else ""))
    return out, warnings

