"""ulcdb from Python: the library the CLI uses, for notebooks and scripts.

    import ulcdb

    db = ulcdb.open("wmt21.duckdb")
    db.ingest_testbed(name="ende", source="src.en", refs={"ref-A": "ref.de"},
                      systems={"S1": "s1.de", "S2": "s2.de"}, tgt_lang="de")
    db.ingest_assessments("mqm.tsv", criterion="MQM")
    table = db.score("BLEU,chrF", level="sys")        # a pyarrow.Table; .to_pandas()
    db.queen("BLEU,NIST", level="sys")
    db.meta("MQM", level="sys")
    db.testbeds()                                     # typed rows (ulcdb.models.Testbed)

Tables come back as pyarrow Tables (``.to_pandas()`` gives a DataFrame where pandas is
installed); store entities as the dataclasses of ``ulcdb.models``.  Errors are the
exceptions of ``ulcdb.errors`` (``UlcdbError`` and its subclasses) with the CLI's messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import pyarrow as pa

from ulcdb import models
from ulcdb.ingest.assessment_input import (
    AssessmentFormat,
    check_against_testbed,
    read_assessment_file,
)
from ulcdb.ingest.load import LoadReport, load_testbed
from ulcdb.ingest.load_assessments import AssessmentReport, load_assessments
from ulcdb.ingest.testbed_input import TestbedFormat, read_testbed
from ulcdb.meta.evaluate import evaluate
from ulcdb.meta.plan import meta_task
from ulcdb.qarla import Scope, queen_rows
from ulcdb.report import LEVELS, score_matrix
from ulcdb.scoring import Scorer, plan_pairs, variant_of
from ulcdb.selection import Selection
from ulcdb.selection import select as resolve_selection
from ulcdb.store import Store

PathLike = str | Path


def open(path: PathLike = "ulcdb.duckdb", read_only: bool = False) -> Database:  # noqa: A001
    """The store at ``path`` (created when missing unless ``read_only``)."""
    return Database(Path(path), read_only)


class Database:
    """One ulcdb store.  Use it as a context manager, or call ``close()``."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.store = Store(path, read_only=read_only)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- bringing data in ------------------------------------------------------------------
    def ingest_testbed(self, path: PathLike | None = None, *, name: str | None = None,
                       source: PathLike | None = None,
                       refs: Mapping[str, PathLike] | None = None,
                       systems: Mapping[str, PathLike] | None = None,
                       docs: PathLike | None = None, lp: str | None = None,
                       src_lang: str | None = None, tgt_lang: str | None = None,
                       fmt: str = "auto", replace: bool = False) -> LoadReport:
        """A test bed from any format `ulcdb ingest testbed` reads (``path``), or plain files
        (``source``, ``refs`` and ``systems`` as name -> file, ``docs``)."""
        data = read_testbed(_path(path), TestbedFormat(fmt), name, _path(source),
                            _pairs(refs), _pairs(systems), _path(docs), lp, src_lang, tgt_lang)
        return load_testbed(self.store, data, replace=replace)

    def ingest_assessments(self, path: PathLike, *, testbed: str | None = None,
                           criterion: str | None = None,
                           mapping: Mapping[str, str] | None = None, level: str = "seg",
                           fmt: str = "auto", replace: bool = False,
                           skip_unknown: bool = False) -> AssessmentReport:
        """Human assessments, as `ulcdb ingest assessments` (``mapping``: key -> column)."""
        maps = [f"{k}={v}" for k, v in (mapping or {}).items()]
        items = read_assessment_file(Path(path), AssessmentFormat(fmt), criterion, maps, level,
                                     [])
        name = testbed or self.store.only_testbed()
        check_against_testbed(self.store, name, Path(path), AssessmentFormat(fmt), maps, items)
        return load_assessments(self.store, name, items, Path(path), replace=replace,
                                skip_unknown=skip_unknown)

    # -- scores ------------------------------------------------------------------------------
    def select(self, metrics: str | None = None, *, testbed: str | None = None,
               systems: str | None = None, refs: str | None = None,
               lowercase: bool | None = None) -> Selection:
        """Resolve names as ``-m/-s/-r/-t`` do (sets, comma-separated names)."""
        return resolve_selection(self.store, testbed, metrics, systems, refs, None, lowercase,
                                 "spacy", None)

    def score(self, metrics: str | None = None, *, level: str = "sys",
              testbed: str | None = None, systems: str | None = None, refs: str | None = None,
              lowercase: bool | None = None, ulc: str = "asiya",
              jobs: int | None = 1) -> pa.Table:
        """Compute the missing scores, store them, and return one row per translator and unit
        of ``level`` (seg, doc, sys or all), one column per metric plus ULC, against the
        whole reference set: the table `ulcdb score -f csv` prints."""
        sel = self.select(metrics, testbed=testbed, systems=systems, refs=refs,
                          lowercase=lowercase)
        Scorer(self.store, sel.testbed, sel.params, jobs).run(
            sel.metrics, plan_pairs(sel.systems, sel.refs))
        refset = "+".join(sorted(sel.refs))
        rows: list[dict[str, Any]] = []
        for lv in LEVELS if level == "all" else (level,):
            m = score_matrix(self.store, sel.testbed, lv, sel.metrics, sel.systems, refset,
                             variant_of(sel.params), ulc)
            rows += [{"level": lv, "refset": refset, "variant": m.variant, "translator": t,
                      "unit": u, **dict(zip(m.metrics, values, strict=True))}
                     for t, u, values in m.rows]
        return pa.Table.from_pylist(rows)

    def queen(self, metrics: str | None = None, *, level: str = "sys",
              testbed: str | None = None, systems: str | None = None,
              refs: str | None = None) -> pa.Table:
        """QUEEN of every system over the metric set (3+ references; scores computed first)."""
        self.score(metrics, level=level, testbed=testbed, systems=systems, refs=refs)
        sel = self.select(metrics, testbed=testbed, systems=systems, refs=refs)
        scope = Scope(sel.testbed, variant_of(sel.params), tuple(sel.metrics),
                      tuple(sel.systems), tuple(sel.refs))
        return pa.Table.from_pylist([
            {"level": level, "translator": r.translator, "role": r.role, "refset": r.refset,
             "unit": r.unit, "hits": r.hits, "triples": r.triples, "queen": r.queen}
            for r in queen_rows(self.store, scope, level, with_refs=False)])

    def meta(self, criterion: str | None = None, *, level: str = "sys",
             metrics: str | None = None, testbed: str | None = None, refs: str | None = None,
             systems: str | None = None, exclude: Sequence[str] = (),
             exclude_human: bool = False, coefficients: Sequence[str] = (),
             reading: str = "metric", where: str | None = None, n_resamples: int = 1000,
             seed: int = 1234) -> pa.Table:
        """Correlation of the stored scores with a human criterion, as `ulcdb meta` (every
        metric on the same items, human translations left out): one row per metric, variant
        and coefficient, with its interval and n. ``systems``/``exclude`` name translators
        or sets, ``reading`` is metric, seg_mean or doc_mean (DR'), ``where`` an SQL
        predicate over the segments (as `ulcdb meta --where`)."""
        task, _ = meta_task(self.store, testbed=testbed, level=level, criterion=criterion,
                            refs=refs, metrics=metrics, systems=systems,
                            exclude=tuple(exclude), exclude_human=exclude_human,
                            coefficients=tuple(coefficients), reading=reading, where=where,
                            n_resamples=n_resamples, seed=seed)
        return pa.Table.from_pylist(evaluate(self.store, task).records())

    def compare(self, metrics: str | None = None, *, baseline: str | None = None,
                testbed: str | None = None, systems: str | None = None,
                refs: str | None = None, method: str = "bs", resamples: int | None = None,
                seed: int = 12345, unit: str = "seg", where: str | None = None,
                by: str | None = None) -> pa.Table:
        """Paired significance tests as `ulcdb compare -f json` (missing scores computed
        first; metrics default to sacrebleu's BLEU, chrF, 1-TER): one row per system and
        metric; without ``baseline`` every pair is tested and the rows carry rank and
        cluster. ``by`` (length, doc, domain, genre, orig-lang, set:NAME, where:SQL) runs the
        same tests within each bucket of segments, named in the rows' ``bucket``."""
        from dataclasses import asdict

        from ulcdb.compare import run, run_by
        from ulcdb.compare.buckets import segment_labels
        from ulcdb.compare.plan import DEFAULT_METRICS, plan

        sel = self.select(metrics or DEFAULT_METRICS, testbed=testbed, systems=systems,
                          refs=refs)
        planned = plan(self.store, sel, baseline)
        task = planned.task(self.store, method=method, resamples=resamples, seed=seed,
                            unit=unit, where=where)  # a bad predicate fails before scoring
        if by:
            segment_labels(self.store, task, by)
        Scorer(self.store, sel.testbed, sel.params, 1).run(sel.metrics, planned.pairs)
        report = run_by(self.store, task, by) if by else run(self.store, task)
        return pa.Table.from_pylist([{**asdict(r), "method": method,
                                      "n_samples": task.n_samples, "seed": seed}
                                     for r in report.results])

    # -- anything else ---------------------------------------------------------------------
    def sql(self, query: str, params: Sequence[Any] | Mapping[str, Any] | None = None
            ) -> pa.Table:
        """Any query (views and macros included) as an Arrow table."""
        return self.store.con.sql(query, params=params or None).to_arrow_table()

    def testbeds(self) -> list[models.Testbed]:
        return self._rows(models.Testbed, "select * from testbed order by testbed_id")

    def translators(self, testbed: str | None = None) -> list[models.Translator]:
        tid = self.store.testbed_id(testbed or self.store.only_testbed())
        return self._rows(models.Translator, "select * from translator where testbed_id = ? "
                          "order by translator_id", [tid])

    def documents(self, testbed: str | None = None) -> list[models.Document]:
        tid = self.store.testbed_id(testbed or self.store.only_testbed())
        return self._rows(models.Document, "select * from document where testbed_id = ? "
                          "order by doc_index", [tid])

    def metrics(self) -> list[models.Metric]:
        """The metrics the store has a catalogue row for (scored or imported)."""
        return self._rows(models.Metric, "select * from metric order by metric_id")

    def _rows(self, entity: type[models.Entity], query: str, params: list[Any] | None = None
              ) -> list[models.Entity]:
        cur = self.store.con.execute(query, params or [])
        return models.from_rows(entity, [d[0] for d in cur.description], cur.fetchall())


def _path(value: PathLike | None) -> Path | None:
    return None if value is None else Path(value)


def _pairs(named: Mapping[str, PathLike] | None) -> list[str]:
    return [f"{name}={path}" for name, path in (named or {}).items()]
