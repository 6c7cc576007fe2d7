"""Compute missing metric scores and store them, with provenance.

For each family of the chosen metrics and each (target, reference set) pair that QARLA and
ULC need, the family scores the target's outputs against the set at segment, document and
system level; the results go into seg_score / doc_score / sys_score in one transaction per
family.  Pairs:
- every system against each single reference and against the whole reference set;
- every reference against each other reference;
- with 3+ references, every system and every reference against the set minus one reference
  (what KING compares: h against R - {r});
- on request (``jack``), every system against every other system.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import pyarrow as pa

from ulcdb import __version__
from ulcdb.annotation.model import Analysis
from ulcdb.errors import StoreError
from ulcdb.metrics import registry
from ulcdb.metrics.base import Documents, Family, MetricSpec, Params
from ulcdb.scoring.engines import Engine, LocalEngine
from ulcdb.scoring.rows import PackedScores, Rows, ScoreKey, pack
from ulcdb.store.database import Store, named_query

# What a family scores for one translator: its texts, or their analyses (``needs_analysis``).
Inputs = list[str] | list[Analysis]
# One task of a family run: the family, the target's inputs, per reference set its members'
# inputs, the documents, the parameters and a label for progress and errors.
FamilyTask = tuple[Family, Inputs, list[list[Inputs]], Documents, Params, str]
# What a task hands back: per reference set its scores, and the CPU seconds they took.
TaskResult = tuple[list[PackedScores], float]


@dataclass(frozen=True)
class Pair:
    target: str
    refs: tuple[str, ...]  # sorted

    @property
    def refset(self) -> str:
        return "+".join(self.refs)


@dataclass
class ScoreReport:
    computed: dict[str, int] = field(default_factory=dict)  # family -> pairs computed
    skipped: int = 0
    imported: dict[str, int] = field(default_factory=dict)  # metric -> pairs with imported scores
    # family -> CPU seconds its tasks took (summed over the workers), seconds its rows took
    # to write (the driver, while the workers go on with the next families)
    compute_cpu: dict[str, float] = field(default_factory=dict)
    write_seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        done = ", ".join(f"{f}: {n} pairs" for f, n in self.computed.items()) or "nothing new"
        return "; ".join([f"computed {done}; {self.skipped} family-pairs already stored",
                          *self.notes()])

    def notes(self) -> list[str]:
        """What the scores used have to be read with: the imported ones, used as they are
        (the summary's last clause)."""
        if not self.imported:
            return []
        used = ", ".join(f"{m} ({n} pairs)" for m, n in self.imported.items())
        return [f"imported scores used as they are: {used}"]


def imported_metrics(store: Store, testbed_id: int, refset: str, metrics: Iterable[str]
                     ) -> list[str]:
    """Those of ``metrics`` whose scores against ``refset`` (in this test bed) include
    imported ones, in the order given: commands that use them say so."""
    names = list(metrics)
    found = {r[0] for r in store.query(named_query("imported_metrics"),
                                       [testbed_id, refset, names])}
    return [m for m in names if m in found]


def variant_of(params: Params) -> str:
    """The key scores are stored under: the case, and the annotation when not the default
    (scores from different parses are different numbers, never mixed)."""
    tag = params.annotation_tag()
    return f"case:{params.case_tag()}" + (f"|{tag}" if tag else "")


def plan_pairs(systems: list[str], refs: list[str], jack: bool = False) -> list[Pair]:
    """Every (target, reference set) pair ULC, QUEEN, KING and JACK need."""
    pairs: list[Pair] = []
    full = tuple(sorted(refs))
    for s in systems:
        pairs += [Pair(s, (r,)) for r in refs]
        if len(refs) > 1:
            pairs.append(Pair(s, full))
    for r in refs:
        pairs += [Pair(r, (o,)) for o in refs if o != r]
    if len(refs) >= 3:
        for r in refs:
            rest = tuple(sorted(o for o in refs if o != r))
            pairs += [Pair(t, rest) for t in [*systems, r]]
    if jack:
        pairs += [Pair(s, (o,)) for s in systems for o in systems if o != s]
    return list(dict.fromkeys(pairs))


_CATALOGUE_COLUMNS = ("name", "family", "linguistic_level", "higher_is_better", "range_min",
                      "range_max", "description", "reference_implementation")


def catalogue_table(specs: Iterable[MetricSpec]) -> pa.Table:
    """Built-in catalogue rows as Arrow, in the specs' order (a name once)."""
    rows = {s.name: s for s in specs}.values()
    return pa.table({c: [getattr(s, c) for s in rows] for c in _CATALOGUE_COLUMNS},
                    schema=pa.schema([(c, pa.bool_() if c == "higher_is_better" else
                                       pa.float64() if c.startswith("range") else
                                       pa.string()) for c in _CATALOGUE_COLUMNS]))


def sync_catalogue(store: Store, specs: Iterable[MetricSpec]) -> dict[str, int]:
    """Insert or refresh built-in catalogue rows (one statement); returns name -> metric_id."""
    table = catalogue_table(specs)
    if table.num_rows:
        with store.registered("_catalogue_in", table):
            cols = ", ".join(_CATALOGUE_COLUMNS)
            updates = ", ".join(f"{c} = excluded.{c}" for c in _CATALOGUE_COLUMNS[1:])
            store.con.execute(
                f"insert into metric ({cols}, origin) select {cols}, 'builtin' from "
                f"_catalogue_in on conflict (name) do update set {updates}")
    return catalogue_ids(store)


def catalogue_ids(store: Store) -> dict[str, int]:
    """Name -> metric_id of every metric in the catalogue."""
    return {n: int(i) for n, i in store.query("select name, metric_id from metric")}


def ensure_refset(store: Store, testbed_id: int, names: tuple[str, ...],
                  ids: dict[str, int]) -> int:
    name = "+".join(names)
    rid = store.scalar("select refset_id from refset where testbed_id = ? and name = ?",
                       [testbed_id, name])
    if rid is None:
        rid = store.scalar("insert into refset (testbed_id, name, size) values (?, ?, ?) "
                           "returning refset_id", [testbed_id, name, len(names)])
        store.insert_columns("refset_member", {"refset_id": [rid] * len(names),
                                               "translator_id": [ids[n] for n in names]})
    return int(rid)


def _family_task(args: FamilyTask) -> TaskResult:
    """In a worker: the scores of one target against its reference sets, packed as Arrow
    arrays (``rows.pack``: the driver only adds the key columns), and the CPU time."""
    family, hyps, refsets, docs, params, _label = args
    start = time.process_time()
    packed = [pack(result) for result in family.compute_many(hyps, refsets, docs, params)]
    return packed, time.process_time() - start


@dataclass
class _Job:
    """A family's tasks in the engine: the pairs to store and the results to come."""

    family: Family
    ids: dict[str, int]  # metric name -> metric_id
    todo: list[Pair]
    first: dict[tuple[str, ...], Pair]  # text keys of a pair -> the pair scored for them
    groups: list[list[Pair]]  # the pairs of each task
    results: Iterator[TaskResult]


def _with_requirements(metrics: list[str], index: dict[str, tuple[Family, MetricSpec]]
                       ) -> list[str]:
    """Built-in metrics plus what derived ones (x-b, x-i) are computed from (x and Ol)."""
    out: list[str] = []
    for m in metrics:
        if m not in index:
            continue
        if index[m][0].derived:
            from ulcdb.metrics.backoff_interpolation import requirements

            out += [r for r in requirements(m) if r in index]
        out.append(m)
    return list(dict.fromkeys(out))


class Scorer:
    """Scores one test bed: texts loaded once, families run over planned pairs."""

    def __init__(self, store: Store, testbed: str, params: Params | None = None,
                 jobs: int | None = None, engine: Engine | None = None) -> None:
        self.store = store
        self.engine = engine  # None: local processes, made per run
        self.testbed = testbed
        self.tid = store.testbed_id(testbed)
        self.params = params or Params()
        self.variant = variant_of(self.params)
        self.jobs = jobs or os.cpu_count() or 1
        self.ids = store.translators(self.tid)
        self.docs = Documents(tuple(r[0] for r in store.query(
            "select doc_id from segment where testbed_id = ? order by seg_id", [self.tid])))
        self._texts: dict[str, list[str]] = {}
        self._analyses: dict[str, list[Analysis]] = {}
        self._doc_analyses: dict[str, list[Analysis]] = {}
        self._keys: dict[str, str] = {}

    def texts(self, name: str) -> list[str]:
        if name not in self._texts:
            self._texts[name] = [r[0] for r in self.store.query(
                "select text from translation where translator_id = ? order by seg_id",
                [self.ids[name]])]
        return self._texts[name]

    def inputs(self, name: str, family: Family | None = None) -> Inputs:
        """What a family scores: texts, or Analysis objects for a family with
        ``needs_analysis = True`` (annotated on demand, cached per translator)."""
        if family is None or not family.needs_analysis:
            return self.texts(name)
        if name not in self._analyses:
            from ulcdb.annotation.annotate import analyses_for, annotate_testbed
            from ulcdb.annotation.annotators import ANNOTATORS

            tool, model = self.params.annotator, self.params.annotator_model
            if not self._analyses and tool in ANNOTATORS:  # first need: annotate the test bed
                annotate_testbed(self.store, self.testbed, annotator=tool, model=model,
                                 jobs=self.jobs, engine=self.engine)
            self._analyses[name] = analyses_for(self.store, self.texts(name), tool, model,
                                                jobs=self.jobs, engine=self.engine)
        if family.needs_documents:
            return self._with_documents(name)
        return self._analyses[name]

    def _with_documents(self, name: str) -> list[Analysis]:
        """The analyses of ``name`` with each imported document analysis (a document DRS)
        attached to the first segment of its document."""
        if name not in self._doc_analyses:
            from dataclasses import replace

            from ulcdb.annotation import storage

            out = list(self._analyses[name])
            rid = storage.find_run(self.store, self.params.annotator,
                                   self.params.annotator_model)
            texts, spans = self.texts(name), self.docs.spans()
            keys = {d: storage.doc_hash(texts[a:b]) for d, a, b in spans}
            stored = storage.load(self.store, rid, list(keys.values())) if rid else {}
            for d, a, _ in spans:
                doc = stored.get(keys[d])
                if doc is not None and doc.drs is not None:
                    out[a] = replace(out[a], doc_drs=doc.drs)
            self._doc_analyses[name] = out
        return self._doc_analyses[name]

    def missing(self, family: Family, metric_ids: list[int], pairs: list[Pair]) -> list[Pair]:
        """Pairs lacking, for any of the family's metrics, both a system score and imported
        scores (a metric imported at segment level only is not computed beside them)."""
        rows = self.store.query(named_query("scored_pairs"),
                                [self.tid, self.variant, metric_ids])
        done = {(t, r) for t, r, n in rows if n == len(metric_ids)}
        return [p for p in pairs if (p.target, p.refset) not in done]

    def imported(self, metric_ids: list[int]) -> set[ScoreKey]:
        """(metric, target, reference set, variant) keys holding imported scores."""
        return {tuple(r) for r in self.store.query(named_query("testbed_imported_keys"),
                                                   [self.tid, self.variant, metric_ids])}

    def _note_imported(self, report: ScoreReport, metrics: list[str], pairs: list[Pair],
                       ids: dict[str, int]) -> None:
        """Count, per requested metric, the pairs whose scores are imported ones."""
        wanted = {ids[m]: m for m in metrics if m in ids}
        keys = {(self.ids[p.target], p.refs) for p in pairs}
        rid_refs = {rid: tuple(name.split("+")) for name, rid in self.store.query(
            "select name, refset_id from refset where testbed_id = ?", [self.tid])}
        counts: dict[str, int] = {}
        for mid, trid, rid, _ in self.imported(list(wanted)):
            if (trid, rid_refs.get(rid)) in keys:
                counts[wanted[mid]] = counts.get(wanted[mid], 0) + 1
        report.imported.update((m, counts[m]) for m in metrics if m in counts)

    def _families(self, metrics: list[str]) -> tuple[list[Family], list[Family]]:
        """(computed families, derived x-b / x-i families) the metrics need."""
        index = registry.metric_index()
        fams: dict[str, Family] = {}
        derived: dict[str, Family] = {}
        for m in _with_requirements(metrics, index):
            fam = index[m][0]
            if fam.derived:  # x-b / x-i: catalogue only, SQL computes them
                derived.setdefault(fam.name, fam)
            else:
                fams.setdefault(fam.name, fam)
        return list(fams.values()), list(derived.values())

    def _catalogued(self) -> dict[str, int]:
        return catalogue_ids(self.store)

    def pending(self, metrics: list[str], pairs: list[Pair], remake: bool = False) -> bool:
        """Whether ``run`` would write anything (a read-only store suffices when not).  With
        no pairs nothing is computed, so nothing is registered either: a request refused
        after planning (compare --analysis without -r) leaves the catalogue as it was."""
        if not pairs:
            return False
        if remake:
            return True
        fams, derived = self._families(metrics)
        ids = self._catalogued()
        if any(s.name not in ids for fam in fams + derived for s in fam.specs()):
            return True
        return any(self.missing(fam, [ids[m] for m in fam.metrics_for(self.params)], pairs)
                   for fam in fams)

    def run(self, metrics: list[str], pairs: list[Pair], remake: bool = False,
            progress: Callable[[str, int], None] | None = None) -> ScoreReport:
        """Compute and store what is missing; on a read-only store (nothing ``pending``)
        it only reports."""
        fams, derived = self._families(metrics)
        writable = not self.store.read_only
        for fam in derived:
            if writable:
                sync_catalogue(self.store, fam.specs())
        report = ScoreReport()
        engine = self.engine or LocalEngine(self.jobs)
        try:
            planned: list[tuple[Family, dict[str, int], list[Pair]]] = []
            for fam in fams:
                ids = sync_catalogue(self.store, fam.specs()) if writable else self._catalogued()
                # read-only with no pairs: a family not registered yet has nothing to report
                metric_ids = [ids[m] for m in fam.metrics_for(self.params) if m in ids]
                todo = pairs if remake else self.missing(fam, metric_ids, pairs)
                report.skipped += len(pairs) - len(todo)
                if progress:
                    progress(fam.name, len(pairs) - len(todo))
                if todo:
                    planned.append((fam, ids, todo))
            if isinstance(engine, LocalEngine) and engine.forks():
                for fam, _, _ in planned:  # once here, not once per worker
                    fam.warm_up()
            jobs = [self._submit(fam, ids, todo, engine) for fam, ids, todo in planned]
            for job in jobs:  # the workers go on with the next families while one is written
                self._store(job, report, progress)
                report.computed[job.family.name] = len(job.todo)
        finally:
            engine.close(cancel=sys.exc_info()[0] is not None)
        self._note_imported(report, metrics, pairs, self._catalogued())
        return report

    def _submit(self, fam: Family, ids: dict[str, int], todo: list[Pair], engine: Engine
                ) -> _Job:
        """One task per target (its reference sets together), handed to the engine.

        Pairs whose target and references have identical texts to an earlier pair's (a system
        submitted twice, a reference equal to another) are scored once and copied."""
        self._check_texts(fam, todo)
        first: dict[tuple[str, ...], Pair] = {}
        for p in todo:
            first.setdefault(self._pair_key(p), p)
        by_target: dict[str, list[Pair]] = {}
        for p in dict.fromkeys(first.values()):
            by_target.setdefault(p.target, []).append(p)
        groups = list(by_target.values())
        share = engine.share  # Ray: each translator's inputs shipped once, not per task
        tasks: list[FamilyTask] = [
            (fam, share(self.inputs(g[0].target, fam)),
             [[share(self.inputs(r, fam)) for r in p.refs] for p in g],
             share(self.docs), self.params, f"{fam.name} of {g[0].target}") for g in groups]
        results = engine.map(_family_task, tasks, label=lambda t: t[-1])
        return _Job(fam, ids, todo, first, groups, results)

    def _store(self, job: _Job, report: ScoreReport,
               progress: Callable[[str, int], None] | None) -> None:
        """A family's results as they come, then its rows in one transaction."""
        name = job.family.name
        computed: dict[Pair, PackedScores] = {}
        for group, (packed, cpu) in zip(job.groups, job.results, strict=True):
            computed.update(zip(group, packed, strict=True))
            report.compute_cpu[name] = report.compute_cpu.get(name, 0.0) + cpu
            if progress:
                progress(name, len(group))
        start = time.perf_counter()
        with self.store.transaction():
            batches: dict[int, int] = {}
            rows = Rows(skip=self.imported([job.ids[s.name] for s in job.family.specs()]))
            for pair in job.todo:
                n = len(pair.refs)
                if n not in batches:
                    batches[n] = self._batch(job.family, n)
                rid = ensure_refset(self.store, self.tid, pair.refs, self.ids)
                rows.add(self.ids[pair.target], rid, self.variant, batches[n],
                         computed[job.first[self._pair_key(pair)]], job.ids)
            if progress and len(job.todo) > len(computed):
                progress(name, len(job.todo) - len(computed))
            self._delete_existing(rows)
            rows.insert(self.store)
            self.store.drop_orphan_batches()  # replaced by --remake, or all keys imported
        report.write_seconds[name] = time.perf_counter() - start

    def _pair_key(self, pair: Pair) -> tuple[str, ...]:
        """The text keys of a pair's target and references."""
        return (self._text_key(pair.target), *map(self._text_key, pair.refs))

    def _check_texts(self, fam: Family, todo: list[Pair]) -> None:
        """A translator without texts (a scores-only test bed, made from score files) cannot
        be scored: one line instead of a failure inside the family."""
        for name in dict.fromkeys(n for p in todo for n in (p.target, *p.refs)):
            if not self.texts(name):
                raise StoreError(
                    f"{name!r} of test bed {self.testbed!r} has no text (a scores-only test "
                    f"bed, made from score files): ulcdb cannot compute {fam.name} for it; "
                    "use the metrics whose scores were imported (`ulcdb list metrics "
                    "--computed`)")

    def _text_key(self, name: str) -> str:
        """md5 of a translator's whole output: equal outputs are scored once."""
        if name not in self._keys:
            self._keys[name] = hashlib.md5("\n".join(self.texts(name)).encode()).hexdigest()
        return self._keys[name]

    def _batch(self, fam: Family, nrefs: int) -> int:
        params = {"lowercase": self.params.lowercase, "nrefs": nrefs, "lang": self.params.lang}
        return int(self.store.scalar(
            "insert into score_batch (family, signature, parameters, implementation_version, "
            "ulcdb_version, origin) values (?, ?, ?, ?, ?, 'computed') returning batch_id",
            [fam.name, fam.signature(self.params, nrefs), json.dumps(params), fam.version,
             __version__]))

    def _delete_existing(self, rows: Rows) -> None:
        """Drop the stored scores under the keys about to be written (--remake, or a family
        that gained metrics); imported keys are never among them.  One pass per table,
        skipped when nothing is there."""
        con = self.store.con
        con.execute("create or replace temp table _keys (metric_id integer, "
                    "translator_id integer, refset_id integer, variant varchar)")
        self.store.insert_columns("_keys", rows.keys())
        exists = ("exists (select 1 from _keys k where k.metric_id = t.metric_id and "
                  "k.translator_id = t.translator_id and k.refset_id = t.refset_id and "
                  "k.variant = t.variant)")
        for table in ("sys_score", "doc_score", "seg_score"):
            if self.store.scalar(f"select count(*) from {table} t where {exists}"):
                con.execute(f"delete from {table} t where {exists}")
        con.execute("drop table _keys")

