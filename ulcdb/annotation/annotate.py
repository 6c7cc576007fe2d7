"""Annotate the translations of a test bed (each distinct text once), and fetch analyses
on demand for metrics that need them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from ulcdb.annotation import storage
from ulcdb.annotation.annotators import ANNOTATORS
from ulcdb.annotation.model import FAILED, Analysis
from ulcdb.errors import UlcdbError
from ulcdb.scoring.engines import Engine
from ulcdb.store.database import Store, named_query

BATCH = 500  # texts per transaction


@dataclass
class AnnotateReport:
    run_id: int
    total: int
    done_before: int
    annotated: int
    failed: int
    empty: int

    def summary(self) -> str:
        return (f"run {self.run_id}: {self.annotated} texts annotated ({self.failed} failed, "
                f"{self.empty} empty), {self.done_before} of {self.total} already stored")


class Annotator(Protocol):
    """What an annotator module (spacy_adapter, stanza_adapter) offers."""

    DEFAULT_MODEL: str

    def version(self, model: str | None = None) -> str: ...

    def analyse(self, texts: Sequence[str], model: str | None = None, jobs: int = 1,
                chunk: int = 500, batch_size: int = ..., engine: Engine | None = None
                ) -> Iterator[list[Analysis]]: ...


def _tool(annotator: str) -> Annotator:
    if annotator == "spacy":
        from ulcdb.annotation import spacy_adapter
        return spacy_adapter
    if annotator == "stanza":
        from ulcdb.annotation import stanza_adapter
        return stanza_adapter
    raise UlcdbError(f"unknown annotator {annotator!r} (use one of {', '.join(ANNOTATORS)})")


def run_for(store: Store, annotator: str = "spacy", model: str | None = None) -> int:
    """The run that analyses go to: the (annotator, model, version) in use; for an imported
    tool (any other name) its newest run."""
    if annotator not in ANNOTATORS:
        rid = storage.find_run(store, annotator, model)
        if rid is None:
            raise UlcdbError(f"no annotation run named {annotator!r}: annotate with spacy or "
                             "stanza, or import one with `ulcdb ingest annotations`")
        return rid
    tool = _tool(annotator)
    name = model or tool.DEFAULT_MODEL
    from ulcdb.metrics.languages import model_language

    return storage.ensure_run(store, annotator, name, tool.version(name),
                              model_language(annotator, name))


def annotate_texts(store: Store, texts: Sequence[str], annotator: str = "spacy",
                   model: str | None = None, jobs: int | None = None,
                   progress: Callable[[int], None] | None = None,
                   run_id: int | None = None, engine: Engine | None = None) -> AnnotateReport:
    """Annotate the distinct texts the run lacks, one transaction per batch."""
    rid = run_id if run_id is not None else run_for(store, annotator, model)
    distinct = {storage.text_hash(t): t for t in texts}
    have = storage.annotated(store, rid, list(distinct))
    todo = [(h, t) for h, t in distinct.items() if h not in have]
    report = AnnotateReport(rid, len(distinct), len(have), 0, 0, 0)
    if progress:
        progress(len(have))
    if not todo:
        return report
    if annotator not in ANNOTATORS:
        raise UlcdbError(f"run {annotator!r} was imported and lacks {len(todo)} texts: import "
                         "them, or use spacy/stanza")
    tool = _tool(annotator)
    jobs = jobs or os.cpu_count() or 1
    name = model or tool.DEFAULT_MODEL
    pieces = tool.analyse([t for _, t in todo], name, jobs=jobs, chunk=BATCH, engine=engine)
    pos = 0
    for analyses in pieces:
        hashes = [h for h, _ in todo[pos:pos + len(analyses)]]
        pos += len(analyses)
        storage.save(store, rid, zip(hashes, analyses, strict=True))
        report.annotated += len(analyses)
        report.failed += sum(a.status == FAILED for a in analyses)
        report.empty += sum(a.status == "empty" for a in analyses)
        if progress:
            progress(len(analyses))
    return report


def testbed_texts(store: Store, testbed: str) -> list[str]:
    """Distinct translation texts (systems and references) of a test bed."""
    tid = store.testbed_id(testbed)
    return [r[0] for r in store.query(named_query("testbed_texts"), [tid])]


def annotate_testbed(store: Store, testbed: str, annotator: str = "spacy",
                     model: str | None = None, jobs: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     engine: Engine | None = None) -> AnnotateReport:
    """Annotate every distinct translation of the test bed the run lacks (resumable)."""
    return annotate_texts(store, testbed_texts(store, testbed), annotator, model, jobs,
                          progress, engine=engine)


def analyses_for(store: Store, texts: Sequence[str], annotator: str = "spacy",
                 model: str | None = None, jobs: int | None = None,
                 engine: Engine | None = None) -> list[Analysis]:
    """Analyses of ``texts`` in order, annotating on demand what the run lacks; a text an
    imported run lacks comes back failed (its scores are NULL)."""
    rid = run_for(store, annotator, model)
    if annotator in ANNOTATORS:
        annotate_texts(store, texts, annotator, model, jobs, run_id=rid, engine=engine)
    hashes = [storage.text_hash(t) for t in texts]
    stored = storage.load(store, rid, hashes)
    missing = Analysis(status=FAILED, message=f"not annotated by {annotator}")
    return [stored.get(h, missing) for h in hashes]
