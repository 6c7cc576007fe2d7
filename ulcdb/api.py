"""ulcdb from Python: the library the CLI uses, for notebooks and scripts.

    import ulcdb

    db = ulcdb.open("wmt21.duckdb")                   # in testbeds/wmt21_newstest2021_ende/sample
    db.ingest_testbed(name="ende", source="source.en.txt", docs="docs.tsv",
                      refs={r: f"refs/{r}.de.txt" for r in ("ref-A", "ref-C", "ref-D")},
                      systems={s: f"systems/{s}.de.txt"
                               for s in ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")},
                      src_lang="en", tgt_lang="de")
    db.ingest_assessments("human/mqm_seg.tsv", criterion="MQM", skip_unknown=True)
    table = db.score("BLEU,chrF", level="sys")        # a pyarrow.Table; .to_pandas()
    db.queen("BLEU,chrF", level="sys")                # QUEEN needs 3+ references
    db.meta("MQM", level="sys")
    db.meta_protocol("wmt24", "MQM")
    db.compare("BLEU", baseline="Online-W")
    db.testbeds()                                     # typed rows (ulcdb.store.models.Testbed)

Every method calls the layer the CLI calls (``ulcdb.ops``): a table holds the rows the
command prints with ``-f json``, and a mistake raises the ``ulcdb.errors`` exception whose
message the command prints.  Tables come back as pyarrow Tables (``.to_pandas()`` gives a
DataFrame where pandas is installed); store entities as the dataclasses of ``ulcdb.store.models``.
A store opened ``read_only`` raises ``ReadOnly`` where scores are missing and on an ingest.

The notes a command prints on stderr (systems or metrics left out, imported scores used as
they are, a KING without ULC) come as ``ulcdb.UlcdbNote`` warnings, pointing at the caller's
line, and travel with the table in its schema metadata (``notes(table)``)::

    import warnings
    warnings.simplefilter("error", ulcdb.UlcdbNote)   # a note stops the notebook
    ulcdb.api.notes(db.king("BLEU,chrF"))              # what `ulcdb king` notes
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import pyarrow as pa

from ulcdb.errors import UlcdbNote, choice
from ulcdb.ingest.assessment_input import (
    AssessmentFormat,
    check_against_testbed,
    read_assessment_file,
)
from ulcdb.ingest.load import LoadReport, load_testbed
from ulcdb.ingest.load_assessments import AssessmentReport, load_assessments
from ulcdb.ingest.testbed_input import TestbedFormat, read_testbed
from ulcdb.interchange.load import ScoreImportReport
from ulcdb.meta import comparison_records
from ulcdb.ops import compare as compare_op
from ulcdb.ops import delete as delete_op
from ulcdb.ops import export as export_op
from ulcdb.ops import meta as meta_op
from ulcdb.ops import qarla as qarla_op
from ulcdb.ops import score as score_op
from ulcdb.ops import tune as tune_op
from ulcdb.ops.access import STORES, Opened
from ulcdb.ops.levels import LEVELS, level_choice
from ulcdb.ops.query import table as run_query
from ulcdb.ops.score import Request, Scoring
from ulcdb.scoring.progress import Progress
from ulcdb.scoring.selection import ScoreSelection, split_names
from ulcdb.store import models
from ulcdb.store.database import Store

PathLike = str | Path
Names = str | Sequence[str]  # names comma-separated, or a list of them
E = TypeVar("E", bound=Enum)  # an input format
NOTES = b"ulcdb.notes"  # the schema metadata key of a table's notes (a JSON list)
SIGNIFICANCE = b"ulcdb.significance"  # and of meta's tests of each pair of metrics (records)


def open(path: PathLike = "ulcdb.duckdb", read_only: bool = False) -> Database:  # noqa: A001
    """The store at ``path`` (created when missing unless ``read_only``)."""
    return Database(Path(path), read_only)


class Database:
    """One ulcdb store.  Use it as a context manager, or call ``close()``.

    ``score``, ``queen``, ``king``, ``jack``, ``compare``, ``meta`` and ``meta_protocol``
    warn the notes their commands print on stderr as ``ulcdb.UlcdbNote`` and attach them to
    the table they return (``ulcdb.api.notes(table)``)."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.store = Store(path, read_only=read_only)

    @property
    def _access(self) -> Opened:
        """The store as the library layer reaches it (``ulcdb.ops``)."""
        return Opened(self.store)

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
        data = read_testbed(_path(path), _format(TestbedFormat, fmt), name, _path(source),
                            _pairs(refs), _pairs(systems), _path(docs), lp, src_lang, tgt_lang)
        with self._access.write(STORES) as store:
            return load_testbed(store, data, replace=replace)

    def ingest_assessments(self, path: PathLike, *, testbed: str | None = None,
                           criterion: str | None = None,
                           mapping: Mapping[str, str] | None = None, level: str = "seg",
                           fmt: str = "auto", replace: bool = False,
                           skip_unknown: bool = False,
                           rename: Mapping[str, str] | None = None,
                           scale: str | None = None) -> AssessmentReport:
        """Human assessments, as `ulcdb ingest assessments` (``mapping``: key -> column;
        ``rename``: old -> new system or reference name; ``scale``: the criterion's scale
        as ``--scale`` takes it, ``MIN:MAX`` such as ``0:100`` or ``-25:0``)."""
        from ulcdb.formats.assessments import parse_scale

        bounds = parse_scale(scale) if scale is not None else None
        maps = [f"{k}={v}" for k, v in (mapping or {}).items()]
        form, level = _format(AssessmentFormat, fmt), level_choice(level, LEVELS)
        items = read_assessment_file(Path(path), form, criterion, maps, level,
                                     _pairs(rename))
        with self._access.write(STORES) as store:
            name = testbed or store.only_testbed()
            check_against_testbed(store, name, Path(path), form, maps, items)
            return load_assessments(store, name, items, Path(path), replace=replace,
                                    skip_unknown=skip_unknown, scale=bounds)

    def ingest_scores(self, paths: PathLike | Sequence[PathLike], *, fmt: str = "auto",
                      testbed: str | None = None, metric: str | None = None,
                      rename: Mapping[str, str] | None = None, target: str | None = None,
                      refs: Names = (), level: str | None = None, lp: str | None = None,
                      mapping: Mapping[str, str] | None = None,
                      refset_map: Mapping[str, str] | None = None,
                      details: Sequence[PathLike] = (), create_testbed: bool = False,
                      higher_is_better: bool | None = None, range_min: float | None = None,
                      range_max: float | None = None, description: str | None = None,
                      variant: str = "case:mixed", replace: bool = False,
                      progress: Progress | None = None) -> ScoreImportReport:
        """Metric scores computed elsewhere (COMET, BLEURT, your own), as `ulcdb ingest
        scores` (files or folders; ``fmt`` one of its formats): ``rename`` old -> new metric
        name, ``refs`` the reference (set) the scores are against where the files do not say
        it, ``mapping`` key -> column of a table, ``refset_map`` WMT refset -> ``REF+REF``;
        ``higher_is_better``, ``range_min``, ``range_max``, ``description``: a new metric's
        catalogue entry.  What was stored: ``.summary()`` is the command's line."""
        from ulcdb.ingest.assessment_input import parse_mapping, parse_renames
        from ulcdb.interchange import importer
        from ulcdb.interchange.model import MetricInfo

        choice("format", fmt, importer.FORMATS)
        files = [paths] if isinstance(paths, str | Path) else list(paths)
        request = importer.ScoreImport(
            paths=[Path(p) for p in files], fmt=fmt, testbed=testbed, metric=metric,
            rename=parse_renames(_pairs(rename)), target=target, refs=_names(refs),
            level=None if level is None else level_choice(level, LEVELS), lp=lp,
            mapping=parse_mapping(_pairs(mapping)), refset_map=importer.parse_refset_map(
                _pairs(refset_map)), details=[Path(p) for p in details],
            create_testbed=create_testbed, variant=variant, replace=replace,
            flags=MetricInfo("", higher_is_better, range_min, range_max, description),
            progress=progress)
        with self._access.write(STORES) as store:
            return importer.import_scores(store, request)

    # -- scores ------------------------------------------------------------------------------
    def select(self, metrics: str | None = None, *, testbed: str | None = None,
               systems: str | None = None, refs: str | None = None,
               lowercase: bool | None = None) -> ScoreSelection:
        """Resolve names as ``-m/-s/-r/-t`` do (sets, comma-separated names)."""
        return Request(testbed, metrics, systems, refs, None, lowercase).select(self.store)

    def score(self, metrics: str | None = None, *, level: str = "sys",
              testbed: str | None = None, systems: str | None = None, refs: str | None = None,
              segments: str | None = None, lowercase: bool | None = None,
              annotator: str = "spacy", annotator_model: str | None = None, ulc: str = "asiya",
              queen: bool = False, sort: str | None = None, jack: bool = False,
              remake: bool = False, jobs: int | None = 1,
              progress: Progress | None = None) -> pa.Table:
        """Compute the missing scores, store them, and return one row per translator and unit
        of ``level`` (seg, doc, sys or all), one column per metric plus ULC (and QUEEN),
        against the reference set ``refs`` (default: every reference) as one set: the table
        `ulcdb score -f json` prints.
        ``progress`` (see ``ulcdb.scoring.progress``) is shown the scores computed."""
        request = Request(testbed, metrics, systems, refs, segments, lowercase, annotator,
                          annotator_model)
        with score_op.score(self._access, request, Scoring(remake, jobs, progress=progress),
                            level=level, ulc=ulc, queen=queen, jack=jack,
                            sort=sort) as (done, report):
            table = _table(report.columns, report.rows())
        return _noted(table, done.selection.notes, done.imported)

    def queen(self, metrics: str | None = None, *, level: str = "sys",
              testbed: str | None = None, systems: str | None = None, refs: str | None = None,
              segments: str | None = None, lowercase: bool | None = None,
              annotator: str = "spacy", annotator_model: str | None = None,
              strict: bool = False, trans_topic: bool = False, asiya_doc: bool = False,
              doref: bool = False, remake: bool = False, jobs: int | None = 1) -> pa.Table:
        """QUEEN of every system over the metric set (3+ references; scores computed first),
        as `ulcdb queen -f json`.  Without ``systems``, a system that is the text of a
        reference used (WMT20's Human-A.0 with ref-A) is left out, as the command does."""
        request = Request(testbed, metrics, systems, refs, segments, lowercase, annotator,
                          annotator_model)
        result = qarla_op.queen(self._access, request, Scoring(remake, jobs),
                                qarla_op.Over(level, strict, trans_topic),
                                asiya_doc=asiya_doc, doref=doref)
        return _noted(_table(result.COLUMNS, result.records()), result.notes, result.imported)

    def king(self, metrics: str | None = None, *, level: str = "seg",
             testbed: str | None = None, systems: str | None = None, refs: str | None = None,
             segments: str | None = None, lowercase: bool | None = None,
             annotator: str = "spacy", annotator_model: str | None = None, by: str = "auto",
             orange: bool = False, search: str | None = None, asiya_doc: bool = False,
             strict: bool = False, trans_topic: bool = False, remake: bool = False,
             jobs: int | None = 1) -> pa.Table:
        """KING (with ``orange``, ORANGE) of each metric, ULC and QUEEN, or with ``search``
        (optimize, exhaustive) the metric set of highest KING, as `ulcdb king -f json`.
        Without ``systems``, a system that is the text of a reference used (WMT20's
        Human-A.0 with ref-A) is left out, as the command does."""
        request = Request(testbed, metrics, systems, refs, segments, lowercase, annotator,
                          annotator_model)
        result = qarla_op.king(self._access, request, Scoring(remake, jobs),
                               qarla_op.Over(level, strict, trans_topic), by=by,
                               asiya_doc=asiya_doc, search=search)
        return _noted(_table(result.columns(orange), result.records(orange)), result.notes,
                      result.imported)

    def jack(self, metrics: str | None = None, *, level: str = "seg",
             testbed: str | None = None, systems: str | None = None, refs: str | None = None,
             segments: str | None = None, lowercase: bool | None = None,
             annotator: str = "spacy", annotator_model: str | None = None,
             strict: bool = False, trans_topic: bool = False, remake: bool = False,
             jobs: int | None = 1) -> pa.Table:
        """JACK of the test set, as `ulcdb jack -f json` (``strict``: triples of three
        distinct references, ``trans_topic``: reference pairs from every segment, as
        ``--strict`` and ``-TT``)."""
        request = Request(testbed, metrics, systems, refs, segments, lowercase, annotator,
                          annotator_model)
        result = qarla_op.jack(self._access, request, Scoring(remake, jobs),
                               qarla_op.Over(level, strict, trans_topic))
        return _noted(_table(result.COLUMNS, result.records()), result.notes, result.imported)

    def meta(self, criterion: str | None = None, *, level: str = "sys",
             metrics: str | None = None, testbed: str | None = None, refs: str | None = None,
             systems: str | None = None, exclude: Names = (),
             exclude_human: bool = False, include_human: bool = False,
             coefficients: Names = (), reading: str = "metric",
             where: str | None = None, n_resamples: int = 1000, seed: int = 1234,
             sort: str | None = None, fisher: bool = False, sig: str | None = None,
             sig_coef: str | None = None, **settings: Any) -> pa.Table:
        """Correlation of the stored scores with a human criterion, as `ulcdb meta -f json`'s
        results (every metric on the same items, human translations left out): one row per
        metric and variant, each coefficient with its interval and n. ``systems``/``exclude``
        name translators or sets, ``reading`` is metric, seg-mean or doc-mean (DR'),
        ``where`` an SQL predicate over the segments (as `ulcdb meta --where`); ``settings``
        are MetaTask's other fields (grouping, threshold, resample, ci_levels...); options
        spelled otherwise: ``-B`` is ``n_resamples``, ``--ci 95,99`` ``ci_levels=(0.95,
        0.99)``, ``--own-items`` ``items="own"``, ``--acc-ties`` ``accuracy_ties``, ``--dr``
        ``reading="doc-mean"``, ``--human`` ``human_from``, ``--coef`` ``coefficients``
        (a TypeError names the one to use).  ``sig``
        (paired-bootstrap or permutation) tests every pair of metrics on ``sig_coef``
        (default ``sort``'s, else the first coefficient), as `ulcdb meta --sig`: the tests
        come with the table (``ulcdb.api.significance(table)``).  Its notes: the command's
        on stderr, then its summary's lines on what was left out."""
        done = meta_op.meta(self._access, level=level, sort=sort, testbed=testbed,
                            criterion=criterion, refs=refs, metrics=metrics, systems=systems,
                            exclude=_names(exclude), exclude_human=exclude_human,
                            include_human=include_human, coefficients=_names(coefficients),
                            reading=reading, where=where, n_resamples=n_resamples, seed=seed,
                            sig=sig, sig_coef=sig_coef, **settings)
        tests = comparison_records(done.comparisons, done.report.labels())
        return _noted(_tested(pa.Table.from_pylist(done.report.records(sort, fisher)), tests),
                      done.notes(), done.report.warnings, done.report.left_out_lines())

    def meta_protocol(self, protocol: str, criterion: str | None = None, *,
                      testbeds: Names = (), metrics: str | None = None,
                      systems: str | None = None, refs: str | None = None,
                      exclude: Names = (), include_human: bool = False,
                      variant: str | None = None, reading: str = "metric",
                      human_from: str = "auto", min_segments: int = 1,
                      n_resamples: int = 1000, seed: int = 1234,
                      progress: Progress | None = None) -> pa.Table:
        """The WMT23 or WMT24 (``protocol``) metrics-task table of ``testbeds`` (default: the
        only one), one row per metric with each statistic and its rank: the results of
        `ulcdb meta protocol NAME -f json`, with the tests the ranks rest on
        (``ulcdb.api.significance(table)``); ``progress`` is shown the columns done.  Its
        notes: the command's on stderr, then its summary's lines on what was left out (human
        translations, targets dropped), then those on acc-t at the all-ties baseline."""
        from ulcdb.meta.protocol_report import (
            all_ties_lines,
            left_out_lines,
            records,
            significance,
        )

        beds = meta_op.Beds(_names(testbeds), metrics, systems, refs, criterion,
                            _names(exclude), False, include_human, variant, reading,
                            human_from, min_segments)
        report, told = meta_op.protocol(self._access, protocol, beds, n_resamples, seed,
                                        progress)
        return _noted(_tested(pa.Table.from_pylist(records(report)), significance(report)),
                      told, left_out_lines(report), all_ties_lines(report))

    def compare(self, metrics: str | None = None, *, baseline: str | None = None,
                testbed: str | None = None, systems: str | None = None,
                refs: str | None = None, method: str = "bs", resamples: int | None = None,
                seed: int = 12345, unit: str = "seg", where: str | None = None,
                by: str | None = None, pairs: bool = False, variant: str | None = None,
                lowercase: bool | None = None, alpha: float = 0.05,
                analysis: str | None = None, jobs: int | None = 1,
                progress: Progress | None = None) -> pa.Table:
        """Paired significance tests as `ulcdb compare -f json` (missing scores computed
        first; metrics default to sacrebleu's BLEU, chrF, 1-TER): one row per system and
        metric; without ``baseline`` every pair is tested and the rows carry rank and
        cluster (with ``pairs``: one row per pair). ``by`` (length, doc, domain, genre,
        orig-lang, set:NAME, where:SQL) runs the same tests within each bucket of segments,
        named in the rows' ``bucket``.  ``analysis`` (word-freq, category) gives instead
        compare-mt's analysis, as `ulcdb compare --analysis`.  ``progress`` (see
        ``ulcdb.scoring.progress``) is shown the scores computed, then the tests done."""
        tests = compare_op.Tests(baseline, method, resamples, seed, unit, where, by, variant,
                                 alpha)
        done = compare_op.compare(self._access, Request(testbed, metrics, systems, refs,
                                                        None, lowercase),
                                  tests, Scoring(jobs=jobs, progress=progress), analysis,
                                  progress)
        said = (done.notes, done.imported)
        if done.analysis is not None:
            return _noted(_table(done.analysis.columns, done.analysis.rows), *said,
                          done.analysis.notes)
        assert done.report is not None  # a report where no analysis was asked
        table = _table(*(compare_op.pairs if pairs and baseline is None
                         else compare_op.results)(done.report))
        return _noted(table, *said, done.report.notes)

    def tune(self, metric: str = "TINE", *, criterion: str | None = None, level: str = "seg",
             testbed: str | None = None, systems: str | None = None, refs: str | None = None,
             seed: int = 1234, jobs: int | None = 1,
             progress: Progress | None = None) -> pa.Table:
        """Tune TINE's alpha and beta against ``criterion`` and store the tuned metric, as
        `ulcdb tune -f json`; ``progress`` is shown the pairs scored, then the generations."""
        done = tune_op.tune(self._access, metric, criterion=criterion, level=level,
                            testbed=testbed, systems=systems, refs=refs, seed=seed, jobs=jobs,
                            progress=progress)
        return _table(tune_op.COLUMNS, [done.row()])

    # -- writing and deleting ----------------------------------------------------------------
    def export(self, fmt: str, folder: PathLike, *, testbed: str | None = None,
               metrics: Names = (), targets: Names = (), refsets: Names = (),
               levels: Names = (), variant: str = "case:mixed",
               progress: Progress | None = None, **options: Any) -> list[Path]:
        """Scores written as `ulcdb export FMT FOLDER` (iqxml, mtme, wmt, nist, sacrebleu,
        comet); ``metrics``, ``targets``, ``refsets`` and ``levels`` (mtme, wmt and nist
        only) are names, comma-separated or as a list (empty: all); ``options`` are the
        format's own (layout, digits, gzip, texts, lp, width, refset_names); the files
        written.  ``progress`` is shown each metric written (each metric and level for wmt;
        sacrebleu's one aggregation as one step)."""
        writers: dict[str, Callable[..., export_op.Written]] = {
            "iqxml": export_op.iqxml, "mtme": export_op.mtme, "nist": export_op.nist,
            "sacrebleu": export_op.sacrebleu, "comet": export_op.comet}
        choice("format", fmt, export_op.FORMATS)
        chosen = export_op.Scores(_names(metrics), _names(targets), _names(refsets),
                                  _names(levels), variant)
        if fmt == "wmt":
            beds = [testbed] if testbed else []
            return _told(export_op.wmt(self._access, Path(folder), chosen, beds,
                                       progress=progress, **options))
        return _told(writers[fmt](self._access, Path(folder), chosen, testbed,
                                  progress=progress, **options))

    def export_table(self, source: str, output: PathLike, *, fmt: str | None = None,
                     query: bool = False, progress: Progress | None = None) -> int:
        """A table, view or (``query``) SQL query written as `ulcdb export table`; rows."""
        return export_op.table(self._access, source, Path(output), fmt, query, progress)

    def delete_testbed(self, name: str) -> str:
        """A test bed with everything in it (`ulcdb delete testbed`); what went."""
        return delete_op.delete(self._access, delete_op.testbed(name))

    def delete_translator(self, name: str, *, role: str = "system",
                          testbed: str | None = None) -> str:
        """A system or reference with its texts, scores and assessments; what went."""
        return delete_op.delete(self._access, delete_op.translator(role, name, testbed))

    def delete_scores(self, metrics: str, *, testbed: str | None = None,
                      targets: str | None = None, variant: str | None = None,
                      refset: str | None = None) -> str:
        """Stored scores of ``metrics`` (`ulcdb delete scores`); what went."""
        return delete_op.delete(self._access, delete_op.scores(metrics, testbed, targets,
                                                               variant, refset))

    # -- anything else ---------------------------------------------------------------------
    def sql(self, query: str, params: Sequence[Any] | Mapping[str, Any] | None = None
            ) -> pa.Table:
        """Any query (views and macros included) as an Arrow table; DuckDB's errors come as
        ``ulcdb.errors.QueryError`` with its message."""
        return run_query(self.store, query, params)

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


def _table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> pa.Table:
    """Rows as an Arrow table with these columns (also when there is no row)."""
    return pa.Table.from_pydict({c: [r[i] for r in rows] for i, c in enumerate(columns)})


def notes(table: pa.Table) -> list[str]:
    """The notes ``table`` came with (its command's stderr notes; none when it has none)."""
    return list(json.loads((table.schema.metadata or {}).get(NOTES, b"[]")))


def significance(table: pa.Table) -> pa.Table:
    """The tests of each pair of metrics a ``meta`` (with ``sig``) or ``meta_protocol`` table
    came with: the records of its command's ``-f json`` "significance" (none without)."""
    return pa.Table.from_pylist(json.loads((table.schema.metadata or {}).get(SIGNIFICANCE,
                                                                             b"[]")))


def _tested(table: pa.Table, tests: Sequence[Mapping[str, Any]]) -> pa.Table:
    """``table`` carrying ``tests`` (records) in its schema metadata."""
    metadata = {**(table.schema.metadata or {}), SIGNIFICANCE: json.dumps(tests).encode()}
    return table.replace_schema_metadata(metadata)


def _noted(table: pa.Table, *told: Iterable[str]) -> pa.Table:
    """``table`` carrying the notes of ``told`` (the fields its command prints on stderr)
    in its schema metadata, each also warned as a ``UlcdbNote`` from the caller's line."""
    said = [note for lines in told for note in lines]
    _warn(said)
    metadata = {**(table.schema.metadata or {}), NOTES: json.dumps(said).encode()}
    return table.replace_schema_metadata(metadata)


def _warn(notes: Iterable[str]) -> None:
    """Each note warned as a ``UlcdbNote`` from the line that called the API's method."""
    for note in notes:
        warnings.warn(note, UlcdbNote, stacklevel=4)


def _told(written: export_op.Written) -> list[Path]:
    """The files an export wrote, its notes warned as ``UlcdbNote`` from the caller's line
    (`ulcdb export` prints them on stderr)."""
    _warn(written.notes)
    return written.paths


def _names(value: Names) -> tuple[str, ...]:
    """Names given as a list, or comma-separated in a string as the command's options take
    them (a string is no sequence of one-letter names)."""
    return tuple(split_names(value)) if isinstance(value, str) else tuple(value)


def _format(kind: type[E], fmt: str) -> E:
    """An input format as `ulcdb ingest ... --format` refuses it: one line naming the
    choices (it was Python's ValueError "'x' is not a valid TestbedFormat")."""
    return kind(choice("format", fmt, [f.value for f in kind]))


def _path(value: PathLike | None) -> Path | None:
    return None if value is None else Path(value)


def _pairs(named: Mapping[str, PathLike] | Mapping[str, str] | None) -> list[str]:
    return [f"{name}={path}" for name, path in (named or {}).items()]
