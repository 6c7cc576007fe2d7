"""``ulcdb ingest scores``: pick the reader, give it what it needs from the store, load.

Formats (``fmt``; ``auto`` guesses from names and content):

- ``iqxml``: one IQ-XML file or a ``TARGET/REFERENCE/METRIC.xml[.gz]`` tree (IQMT or Asiya);
- ``mtme``: ``NAME-REF.LEVEL.score`` metric files, ``LP.NAME.LEVEL.score`` human files, or an
  mt-metrics-eval test-set folder (needs ``lp``: every metric and human file of that pair);
- ``wmt``: WMT metrics-task files (``TESTSET:LP`` test beds, see ``wmt``); with
  ``create_testbed`` and ``details`` files it creates scores-only test beds and translators;
- ``wmt20``: the WMT20 metrics-task release folder in one go (see ``wmt20``);
- ``nist``: ``.scr`` files, or a folder of ``REFSET/NAME-LEVEL.scr``;
- ``sacrebleu``: sacrebleu JSON or ``--sentence-level`` output;
- ``comet``: comet-score output (text or ``--to_json``);
- ``table``: CSV/TSV/Parquet/JSON with a column mapping;  ``lines``: one score per line.

A folder given for ``sacrebleu``, ``comet`` or ``table`` stands for the files of those
formats within it (recursively, sorted by path; hidden files left out); ``lines`` files
hold one target's scores each and must be named one by one.

Test bed: ``testbed``, else the only one (WMT and tables name theirs per row).
"""

from __future__ import annotations

import dataclasses
import gzip
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ulcdb.errors import InputError, UlcdbError
from ulcdb.formats import comet, iqxml, mtme, mtme_fast, sacrebleu_json, table
from ulcdb.formats.nist import scr
from ulcdb.formats.wmt import metrics_fast, metrics_task
from ulcdb.ingest.load_assessments import store_assessments
from ulcdb.ingest.model import Assessment, TestbedData
from ulcdb.ingest.mtme_testbeds import find_human_files, human_items, only_pair
from ulcdb.ingest.textio import check_file
from ulcdb.interchange.fast import fast_or_exact
from ulcdb.interchange.load import DEFAULT_VARIANT, STAGES, ScoreImportReport, store_frame
from ulcdb.interchange.model import (
    Advance,
    MetricInfo,
    Progress,
    ScoreFrame,
    SqlFrame,
    split_names,
    steps,
)
from ulcdb.interchange.testbeds import ensure_testbed, ensure_translators
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import check_name, refuse_lookalike

FORMATS = ("auto", "iqxml", "mtme", "wmt", "wmt20", "nist", "sacrebleu", "comet", "table",
           "lines")
FOLDER_FILES = {  # formats whose folders stand for the files within, by name ending
    "sacrebleu": (".json", ".txt"),
    "comet": (".txt", ".json"),
    "table": (".csv", ".tsv", ".tab", ".txt", ".parquet", ".pq", ".json", ".jsonl", ".ndjson"),
}
HUMAN_NAME = re.compile(r"^[a-z]{2,3}-[a-z]{2,3}(_[a-z]+)?\..+\.(seg|doc|sys|domain)\.score$")


@dataclass
class ScoreImport:
    """What ``ulcdb ingest scores`` was asked: files, format, and what files may not say."""

    paths: list[Path]
    fmt: str = "auto"
    testbed: str | None = None
    metric: str | None = None                 # name of the metric (single-metric files)
    rename: dict[str, str] = field(default_factory=dict)
    target: str | None = None
    refs: tuple[str, ...] = ()
    level: str | None = None
    lp: str | None = None                     # mt-metrics-eval folders
    mapping: dict[str, str] = field(default_factory=dict)            # table
    refset_map: dict[str, tuple[str, ...]] = field(default_factory=dict)  # wmt
    details: list[Path] = field(default_factory=list)                 # wmt
    create_testbed: bool = False
    variant: str = DEFAULT_VARIANT
    replace: bool = False
    flags: MetricInfo | None = None
    progress: Progress | None = None          # shows files read and the loader's stages


def parse_refset_map(items: Collection[str]) -> dict[str, tuple[str, ...]]:
    """``--refset-map``'s REFSET=REF[+REF...] items as names -> references."""
    refsets = {}
    for item in items:
        name, sep, members = item.partition("=")
        if not sep or not name or not members:
            raise UlcdbError(f"--refset-map takes REFSET=REF[+REF...], got {item!r}")
        refsets[name] = tuple(members.split("+"))
    return refsets


def _folder_of_files(path: Path) -> str:
    """A folder whose files all have one format (what `ulcdb export comet|wmt|sacrebleu`
    writes): that format."""
    formats = set()
    for f in sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")):
        try:
            formats.add(sniff(f))
        except InputError:
            formats.add("?")
    if len(formats) == 1 and "?" not in formats:
        return formats.pop()
    found = ", ".join(sorted(formats - {"?"})) or "none ulcdb reads"
    raise InputError(path, None, f"cannot tell the format of this folder (its files: {found}): "
                     "give --format")


def sniff(path: Path) -> str:
    """The format of a file or folder, from its name, layout and first bytes."""
    if path.is_dir():
        if (path / "metric-scores").is_dir() or (path / "human-scores").is_dir():
            return "mtme"
        if (path / "input_details").is_dir() and (path / "metrics").is_dir():
            return "wmt20"
        if any(path.glob("*/*/*.xml")) or any(path.glob("*/*/*.xml.gz")):
            return "iqxml"
        if any(path.glob("*.scr")) or any(path.glob("*/*.scr")):
            return "nist"
        return _folder_of_files(path)
    name = path.name.lower()
    if name.endswith((".xml", ".xml.gz")):
        return "iqxml"
    if name.endswith(".scr"):
        return "nist"
    if name.endswith((".parquet", ".pq", ".csv")):
        return "table"
    head = _head(path)
    first = head.split(b"\n", 1)[0].rstrip(b"\r")
    wmt_like = first.count(b"\t") in (5, 6, 7) and _is_number(first.split(b"\t")[-1].decode(
        "utf-8", "replace"))
    if name.endswith(".score"):  # mt-metrics-eval, or a WMT submission (METRIC.seg.score)
        return "wmt" if wmt_like else "mtme"
    if head.lstrip()[:1] in (b"{", b"["):
        if b'"signature"' in head or (b'"system"' in head and b'"src"' not in head
                                       and b'"metric"' not in head):
            return "sacrebleu"  # one run's JSON, or the multi-system one (no signature)
        return "table" if b'"metric"' in head and b'"value"' in head else "comet"
    text = first.decode("utf-8", "replace")
    if comet.SEGMENT.match(text) or comet.SYSTEM.match(text):
        return "comet"
    if sacrebleu_json.SENTENCE.match(text) and "|" in text:
        return "sacrebleu"
    if wmt_like:
        return "wmt"
    if _is_number(text) or text.strip() == "None":
        return "lines"
    if name.removesuffix(".gz").endswith((".tsv", ".json", ".jsonl", ".ndjson")):
        return "table"
    raise InputError(path, None, "cannot tell the format of this file: give --format")


def _head(path: Path) -> bytes:
    check_file(path)
    try:
        with path.open("rb") as fh:
            start = fh.read(2)
        opener = gzip.open if start == b"\x1f\x8b" else open
        with opener(path, "rb") as fh:
            return fh.read(8192)
    except OSError as exc:
        raise InputError(path, None, f"cannot read file: {exc}") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def import_scores(store: Store, req: ScoreImport) -> ScoreImportReport:
    """Read ``req.paths`` and store their scores in one transaction."""
    if not req.paths:
        raise UlcdbError("no files given")
    for path in req.paths:
        if not path.exists():
            raise InputError(path, None, "no such file or directory")
    if req.metric is not None:  # an empty --metric is no metric name, not "the default"
        check_name("metric", req.metric, req.paths[0])
    fmt = req.fmt if req.fmt != "auto" else sniff(req.paths[0])
    if fmt not in FORMATS:
        raise UlcdbError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    req = dataclasses.replace(req, paths=expand_folders(req.paths, fmt))
    if fmt == "wmt20":
        from ulcdb.formats.wmt.wmt20 import ingest_wmt20

        if len(req.paths) != 1 or not req.paths[0].is_dir():
            raise InputError(req.paths[0], None, "--format wmt20 takes one folder (the WMT20 "
                             "metrics-task release)" + ("" if len(req.paths) == 1
                                                        else f", not {len(req.paths)} paths"))
        return ingest_wmt20(store, req.paths[0], lps=[req.lp] if req.lp else None,
                            replace=req.replace, variant=req.variant, rename=req.rename,
                            progress=req.progress)
    with steps(req.progress, len(req.paths) + len(STAGES)) as advance:
        return _import_files(store, fmt, req, advance)


def _import_files(store: Store, fmt: str, req: ScoreImport, advance: Advance
                  ) -> ScoreImportReport:
    """Every format but wmt20: ``advance`` told each path read and each loader stage."""
    if fmt == "wmt":
        return _import_wmt(store, req, advance)
    if fmt == "table":
        return _import_tables(store, req, advance)
    if req.create_testbed:
        raise UlcdbError("--create-testbed works with --format wmt (scores-only test beds need "
                         "the segment layout --details gives)")
    testbed = req.testbed or store.only_testbed()
    tid = store.testbed_id(testbed)
    roles = dict(store.query("select name, role from translator where testbed_id = ?", [tid]))
    at = (testbed, tid, roles)
    if fmt == "mtme":  # metric files read by DuckDB; line by line to name a problem
        return fast_or_exact(store, lambda: _mtme_fast(store, at, req, advance),
                             lambda: _read_files(store, fmt, at, req, advance),
                             mtme_fast.WORK_TABLES, mtme_fast.CONFLICTS_NAMED)
    return _read_files(store, fmt, at, req, advance)


def _read_files(store: Store, fmt: str, at: tuple[str, int, dict[str, str]], req: ScoreImport,
                advance: Advance) -> ScoreImportReport:
    """The files read one by one (Python or Arrow), then stored."""
    testbed, tid, roles = at
    frames, human, notes = [], [], []
    for path in req.paths:
        if fmt == "mtme":
            files, human_files, said = _mtme_listing(path, req)
            counts = _unit_counts(store, tid)
            frames += [mtme.read_mtme_metric(p, testbed, roles, counts, _src_refs(req))
                       for p in files]
            human += [(p, human_items(p, roles, counts)) for p in human_files]
            notes += said
        else:
            frames.append(_read_one(fmt, path, testbed, roles, store, tid, req))
        advance(path.name, 1)
    frame = _renamed(ScoreFrame.concat(frames), req) if frames else None
    if fmt == "sacrebleu" and frame is not None:
        notes += sacrebleu_json.own_metrics_note(frame)
    report = _store_read(store, testbed, frame, human, req, advance)
    report.notes += notes
    if frame is not None and frame.rows == 0 and not human:
        raise InputError(req.paths[0], None, "no scores found")
    return report


def _store_read(store: Store, testbed: str, frame: ScoreFrame | SqlFrame | None,
                human: list[tuple[Path, list[Assessment]]], req: ScoreImport,
                advance: Advance) -> ScoreImportReport:
    """Metric scores and human scores in one transaction."""
    with store.transaction():
        rows = isinstance(frame, SqlFrame) or (frame is not None and frame.rows)
        report = (store_frame(store, frame, req.variant, req.replace, req.flags, advance)
                  if frame is not None and rows else ScoreImportReport())
        for path, judged in human:
            done = store_assessments(store, testbed, judged, path, req.replace)
            report.notes.append(f"{path.name}: {done.inserted} human scores stored, "
                                f"{done.unchanged} already there")
        report.files += len(human)
    return report


def _mtme_fast(store: Store, at: tuple[str, int, dict[str, str]], req: ScoreImport,
               advance: Advance) -> ScoreImportReport | None:
    """mt-metrics-eval metric files read by DuckDB (``mtme_fast``), human files line by
    line; ``None`` where there are no metric files or they are not plain."""
    testbed, tid, roles = at
    counts = _unit_counts(store, tid)
    files, human, notes = [], [], []
    for path in req.paths:
        found, human_files, said = _mtme_listing(path, req)
        files += found
        human += [(p, human_items(p, roles, counts)) for p in human_files]
        notes += said
    if not files:
        return None
    frame = mtme_fast.read_mtme_sql(store, files, testbed, roles, counts, _src_refs(req),
                                    lambda names: _renames(names, req))
    if frame is None:
        return None
    for path in req.paths:
        advance(path.name, 1)
    report = _store_read(store, testbed, frame, human, req, advance)
    report.notes += notes
    return report


def expand_folders(paths: list[Path], fmt: str) -> list[Path]:
    """Folders of formats read file by file, replaced by the files within (sorted)."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir() or (fmt not in FOLDER_FILES and fmt != "lines"):
            out.append(path)
            continue
        if fmt == "lines":
            raise InputError(path, None, "--format lines reads files one by one (each one "
                             "target's scores): name the files, not a folder")
        endings = tuple(e + gz for e in FOLDER_FILES[fmt] for gz in ("", ".gz"))
        found = sorted(p for p in path.rglob("*") if p.is_file()
                       and p.name.lower().endswith(endings)
                       and not any(part.startswith(".") for part in p.relative_to(path).parts))
        if not found:
            raise InputError(path, None, f"no {fmt} files here (names ending "
                             f"{', '.join(FOLDER_FILES[fmt])})")
        out += found
    return out


def _read_one(fmt: str, path: Path, testbed: str, roles: dict[str, str], store: Store,
              tid: int, req: ScoreImport) -> ScoreFrame:
    refs = tuple(sorted(req.refs))
    if fmt == "iqxml":
        return (iqxml.read_iqxml_tree(path, testbed, roles) if path.is_dir()
                else iqxml.read_iqxml(path, testbed, roles))
    if fmt == "nist":
        if path.is_dir():
            return scr.read_scr_tree(path, testbed, roles, refs or None, req.metric)
        found = split_names(path.parent.name, "+", roles)
        folder = tuple(sorted(found[0])) if len(found) == 1 else None
        return scr.read_scr(path, testbed, refs or folder, req.metric)
    if fmt == "sacrebleu":
        kept = set(req.rename) | (set(sacrebleu_json.ULCDB_NAMES) if req.metric else set())
        return sacrebleu_json.read_sacrebleu(path, testbed, roles, req.target, refs or None,
                                             req.variant, kept)
    if fmt == "comet":
        return comet.read_comet(path, testbed, roles, refs, req.metric, req.target)
    if fmt == "lines":
        n = store.query("select count(*) from segment where testbed_id = ?", [tid])[0][0]
        return table.read_score_lines(path, testbed, req.metric or "", req.target or "", refs,
                                      n)
    raise UlcdbError(f"format {fmt!r} cannot read {path}")


def _import_tables(store: Store, req: ScoreImport, advance: Advance) -> ScoreImportReport:
    """Tables may name a test bed per row; --testbed, else the only one, fills in the rest."""
    names = [r[0] for r in store.query(named_query("testbed_names"))]
    default = req.testbed or (names[0] if len(names) == 1 else None)
    refs = tuple(sorted(req.refs)) or None
    frames = []
    for path in req.paths:
        frames.append(table.read_table_scores(path, req.mapping, default, req.metric,
                                              req.target, refs, req.level, req.variant))
        advance(path.name, 1)
    with store.transaction():
        return store_frame(store, _renamed(ScoreFrame.concat(frames), req), req.variant,
                           req.replace, req.flags, advance)


def _unit_counts(store: Store, tid: int) -> dict[str, int]:
    """The test bed's number of segments (``seg``) and documents (``doc``)."""
    return dict(zip(("seg", "doc"), store.query(named_query("testbed_unit_counts"), [tid])[0],
                    strict=True))


def _src_refs(req: ScoreImport) -> tuple[str, ...] | None:
    return tuple(sorted(req.refs)) or None


def _mtme_listing(path: Path, req: ScoreImport) -> tuple[list[Path], list[Path], list[str]]:
    """(metric files, human files, notes) of an mt-metrics-eval file or test-set folder."""
    if not path.is_dir():
        if path.parent.name == "human-scores" or HUMAN_NAME.match(path.name):
            return [], [path], []
        return [path], [], []
    lp = req.lp or only_pair(path)  # a folder of one language pair needs no --lp
    files: list[Path] = []
    domain: list[Path] = []
    if (path / "metric-scores").is_dir():
        files, domain = mtme.find_metric_files(path, lp)
    human_files = find_human_files(path, lp)
    if not files and not domain and not human_files:
        raise InputError(path, None, f"no mt-metrics-eval scores here (metric-scores/{lp}/"
                         f"*.score or human-scores/{lp}.*.score)")
    domain += [p for p in human_files if p.name.endswith(".domain.score")]
    notes = [f"skipped {len(domain)} domain-level files (the store has no domain level)"] \
        if domain else []
    return files, [p for p in human_files if p not in domain], notes


def _renames(names: list[str], req: ScoreImport) -> dict[str, str]:
    """Old -> new metric names: --rename, and --metric for the files' one metric."""
    rename = dict(req.rename)
    if req.metric:
        if len(names) > 1:
            raise UlcdbError(f"--metric names one metric but the files hold {len(names)} "
                             f"({', '.join(names)}): use --rename OLD=NEW")
        if names:
            rename.setdefault(names[0], req.metric)
    return rename


def _renamed(frame: ScoreFrame, req: ScoreImport) -> ScoreFrame:
    return frame.renamed(_renames(frame.metric_names(), req))


# --- WMT --------------------------------------------------------------------------------------


def _import_wmt(store: Store, req: ScoreImport, advance: Advance) -> ScoreImportReport:
    """WMT files read by DuckDB (``metrics_fast``); line by line to name a problem."""
    files = _wmt_files(req.paths)

    def fast() -> ScoreImportReport | None:
        rows = metrics_fast.read_wmt_sql(store, files, None)
        if rows is None:
            return None
        advance(f"{len(files)} files", len(req.paths))
        return _store_wmt(store, req, advance, rows.keys,
                          partial(metrics_fast.sql_frame, store, rows))

    def exact() -> ScoreImportReport:
        raw = metrics_task.read_wmt_raw(files)
        advance(f"{len(files)} files", len(req.paths))
        metrics_task.check_raw_values(raw)
        return _store_wmt(store, req, advance, metrics_task.WmtKeys.of(raw),
                          partial(metrics_task.wmt_frame, raw))

    return fast_or_exact(store, fast, exact, metrics_fast.WORK_TABLES)


def _store_wmt(store: Store, req: ScoreImport, advance: Advance, keys: metrics_task.WmtKeys,
               frame_of: Callable[..., ScoreFrame | SqlFrame]) -> ScoreImportReport:
    """Test beds (created from --details when asked), translators and the scores, in one
    transaction; ``frame_of`` makes the rows from the test beds, reference sets and
    renames."""
    refsets = {**metrics_task.WMT20_REFSETS, **req.refset_map}
    plans = {d.name: d for d in (metrics_task.read_details(p, req.testbed if len(req.details) == 1
                                                  else None) for p in req.details)}
    with store.transaction():
        testbeds = _wmt_testbeds(store, keys, req, plans)
        refs = {tok: metrics_task.refs_of(tok, refsets) for (tok,), _ in keys.distinct("refset")}
        notes = []
        if req.create_testbed:
            notes = _create_wmt_translators(store, keys, testbeds, refs)
        names = sorted({k[0] for k, _ in keys.keys})
        frame = frame_of(testbeds, refs, _renames(names, req), {})
        report = store_frame(store, frame, req.variant, req.replace, req.flags, advance)
    report.notes += notes
    return report


def _wmt_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file()
                           and re.search(r"\.(tsv|score|txt)(\.gz)?$", p.name))
            if not found:
                raise InputError(path, None, "no WMT score files (*.tsv, *.score, .gz) here")
            files += found
        else:
            files.append(path)
    return files


def _wmt_testbeds(store: Store, raw: metrics_task.WmtKeys, req: ScoreImport,
                  plans: dict[str, TestbedData]) -> dict[tuple[str, str], str]:
    """(TESTSET, LP) -> test bed: --testbed, else TESTSET:LP, else TESTSET; created from the
    --details layout when asked."""
    keys = raw.distinct("testset", "lp")
    existing = {r[0] for r in store.query(named_query("testbed_names"))}
    if req.testbed and len(keys) > 1:
        where = keys[1][1]
        raise InputError(raw.path(where), where.line, "--testbed names one test "
                         f"bed but the files hold {len(keys)} test sets / language pairs")
    out = {}
    for (testset, lp), where in keys:
        name = req.testbed or f"{testset}:{lp}"
        if name not in existing and not req.testbed and testset in existing:
            name = testset
        if name not in existing:
            if req.create_testbed and name in plans:
                ensure_testbed(store, plans[name])
                existing.add(name)
            else:
                hint = (f"give --details with the layout of {name!r} (input_details/{lp}.txt)"
                        if req.create_testbed else
                        "ingest it first, name it with --testbed, or use --create-testbed "
                        "--details FILE")
                raise InputError(raw.path(where), where.line,
                                 f"no test bed for {testset} {lp}: {hint}")
        _check_lp(store, raw, name, lp, where)
        out[(testset, lp)] = name
    for name, plan in plans.items():
        if name in existing and name in out.values():
            ensure_testbed(store, plan)  # checks the layout of an existing one
    return out


def _check_lp(store: Store, raw: metrics_task.WmtKeys, testbed: str, lp: str,
              where: metrics_task.FirstRow
              ) -> None:
    """The LP column must be the test bed's language pair, where the test bed has one."""
    found = store.query("select src_lang, tgt_lang from testbed where name = ?", [testbed])
    src, tgt = found[0] if found else (None, None)
    if src and tgt and lp != f"{src}-{tgt}":
        raise InputError(raw.path(where), where.line, f"language pair {lp!r}, but "
                         f"test bed {testbed!r} is {src}-{tgt}")


def _check_new_name(name: str, role: str, named: Collection[str],
                    where: tuple[str, int | None]) -> None:
    """A WMT file's system must be a name the command line can give back, and unlike every
    other of the test bed (``named``) but for case or Unicode normalisation ('online-A'
    beside 'Online-A'), as an ingested test bed's translators are."""
    check_name(role, name, *where)
    refuse_lookalike(where[0], role, name, named, line=where[1])


def _create_wmt_translators(store: Store, raw: metrics_task.WmtKeys,
                            testbeds: dict[tuple[str, str], str],
                            refs: dict[str, tuple[str, ...]]) -> list[str]:
    """Members of reference sets become references, every other target a system."""
    rows = raw.distinct("testset", "lp", "refset", "system")
    roles: dict[str, dict[str, str]] = {}
    stored = {name: list(store.translators(store.testbed_id(name)))
              for name in set(testbeds.values())}
    for (testset, lp, refset, system), where in rows:
        mine = roles.setdefault(testbeds[(testset, lp)], {})
        for ref in refs[refset]:
            mine[ref] = "reference"
        mine.setdefault(system, "system")
        _check_new_name(system, mine[system], [*stored[testbeds[(testset, lp)]], *mine],
                        (str(raw.path(where)), where.line))
    notes = []
    for name, wanted in roles.items():
        added = ensure_translators(store, name, wanted, "wmt")
        if added:
            notes.append(f"{name}: added {len(added)} translators")
    return notes
