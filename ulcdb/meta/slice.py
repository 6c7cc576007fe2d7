"""`ulcdb meta --where`: meta-evaluation on the segments an SQL predicate selects.

The predicate is `ulcdb compare`'s (``ulcdb.compare.where``, one place).  What a slice means
at each level, as an mt-metrics-eval user expects of a domain or subset:

- seg: the selected segments' items, nothing recomputed.
- doc, sys: the units' scores are recomputed from the selected segments only, on both sides,
  since the stored ones cover other segments too.  Human scores: the mean of the selected
  segments' assessments (as MQM system scores are); ingested document/system assessments
  cannot be cut, so ``--human ingested`` is refused.  Metric scores (reading ``metric``):
    * a metric whose stored scores at that level are the mean of its segment scores (checked
      on the data, view ``mean_reading``): the mean of the selected segment scores;
    * a metric with stored sufficient statistics and a corpus formula (BLEU, chrF, TER, NIST,
      BLEU-n): that formula on the summed statistics of the selected segments, as `ulcdb
      compare` computes it (``ulcdb.compare.measures``);
    * any other corpus-level metric (e.g. METEOR, whose system score is not a mean and that
      stores no statistics): refused, naming the metric; ``--reading seg-mean`` reads every
      metric as the mean of its selected segment scores.
  The ``doc-mean`` reading (DR') at sys level: each document's score recomputed on its
  selected segments as above (mean, or corpus formula, checked at doc level), then the mean
  over the documents with a selected segment.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ulcdb.compare.measures import measure
from ulcdb.compare.where import where_segments
from ulcdb.errors import MetaError
from ulcdb.meta.task import MetaTask
from ulcdb.stats.sacrebleu_significance import corpus_score
from ulcdb.store.database import Store, named_query

Rescored = tuple[tuple[str, str, str, str | None, float], ...]  # metric, variant, target,
# doc_id, value


def slice_task(store: Store, task: MetaTask) -> tuple[MetaTask, list[str]]:
    """``task`` with its segments resolved from ``task.where`` and, at doc/sys level, the
    corpus-level metrics' scores recomputed on them; and lines for the report's header."""
    if task.where is None:
        return task, []
    segments = task.segments
    if segments is None:
        segments = where_segments(store, task.testbed, task.where)
    notes = [f"segments where {task.where}: {len(segments)}"]
    task = replace(task, segments=segments)
    if task.level == "seg":
        return task, notes
    if task.human_from == "ingested":
        raise MetaError(f"--where cuts documents and systems: their human scores are derived "
                        f"from the selected segments' assessments, not the ingested "
                        f"{task.level}-level ones (use --human auto or derived)")
    notes.append(f"{task.level}-level human scores: mean of the selected segments' "
                 "assessments")
    if task.reading == "seg_mean":
        return task, notes
    if task.reading == "doc_mean" and task.level == "sys":
        rescored, readings = _doc_mean(store, task, segments)
    else:  # the metric's own reading (doc_mean at doc level is the same)
        rescored, readings = _rescore(store, task, segments, task.level, with_means=False)
    notes += readings
    return replace(task, rescored=rescored), notes


def _rescore(store: Store, task: MetaTask, segments: frozenset[int], level: str,
             with_means: bool) -> tuple[Rescored, list[str]]:
    """The ``level`` (doc or sys) scores of the run's metrics on the selected segments:
    corpus-level metrics by their formula on the summed statistics (refused without them);
    metrics whose stored scores are means only with ``with_means`` (else the SQL averages
    them)."""
    rows = store.query("select metric, variant, is_mean from mean_reading(?, ?, ?, "
                       "metrics := ?::varchar[]) where (?::varchar is null or variant = ?) "
                       "order by metric, variant",
                       [task.testbed, level, task.refset, _names(task), task.variant,
                        task.variant])
    corpus = sorted({m for m, _, is_mean in rows if not is_mean})
    means = sorted({m for m, _, is_mean in rows if is_mean} - set(corpus))
    notes = []
    if corpus:
        notes.append(f"recomputed by the corpus formula on the selected segments' "
                     f"statistics: {', '.join(corpus)}")
    if means:
        notes.append(f"recomputed as the mean of the selected segment scores: "
                     f"{', '.join(means)}")
    out: list[tuple[str, str, str, str | None, float]] = []
    if corpus:
        out += _corpus(store, task, segments, level, corpus)
    if means and with_means:
        out += _means(store, task, segments, level, means)
    return tuple(out), notes


def _corpus(store: Store, task: MetaTask, segments: frozenset[int], level: str,
            corpus: list[str]) -> list[tuple[str, str, str, str | None, float]]:
    stats = store.query(named_query("meta_slice_stats"),
                        [store.testbed_id(task.testbed), task.testbed, task.refset, corpus,
                         sorted(segments), task.variant, "seg"])
    nrefs = len(task.refset.split("+"))
    with_stats = {m for m, *_, st in stats if st is not None}
    lacking = [m for m in corpus
               if m not in with_stats or measure(m, True, nrefs).kind == "mean"]
    if lacking:
        raise MetaError(f"{', '.join(lacking)}: {level}-level scores are corpus-level "
                        "(not the mean of segment scores) and have no stored statistics with "
                        "a corpus formula, so they cannot be recomputed on the --where "
                        "segments: leave them out (-m) or use --reading seg-mean")
    groups: dict[tuple[str, str, str, str | None], list[list[float]]] = {}
    for metric, variant, target, doc, _, st in stats:
        groups.setdefault((metric, variant, target, doc if level == "doc" else None),
                          []).append(st)
    out = []
    for (metric, variant, target, doc), vectors in groups.items():
        meas = measure(metric, True, nrefs)
        value = meas.to_metric(corpus_score(np.array(vectors, dtype=float), meas.score))
        out.append((metric, variant, target, doc, value))
    return out


def _means(store: Store, task: MetaTask, segments: frozenset[int], level: str,
           means: list[str]) -> list[tuple[str, str, str, str | None, float]]:
    rows = store.query(named_query("meta_slice_means"),
                       [level, task.testbed, task.refset, means, sorted(segments),
                        task.variant, "seg"])
    return [(m, v, t, d, float(x)) for m, v, t, d, x in rows]


def _doc_mean(store: Store, task: MetaTask, segments: frozenset[int]
              ) -> tuple[Rescored, list[str]]:
    """DR' on a slice: each document's score recomputed on its selected segments (as at doc
    level), then the system score is the mean over the documents with a selected segment."""
    docs, notes = _rescore(store, task, segments, "doc", with_means=True)
    per: dict[tuple[str, str, str], list[float]] = {}
    for metric, variant, target, _, value in docs:
        per.setdefault((metric, variant, target), []).append(value)
    out = tuple((m, v, t, None, float(np.mean(vals))) for (m, v, t), vals in per.items())
    return out, [*notes, "system score: the mean of those document scores (--reading "
                         "doc-mean)"]


def _names(task: MetaTask) -> list[str] | None:
    return list(task.metrics) if task.metrics is not None else None
