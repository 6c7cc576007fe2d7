"""`ulcdb ingest ...`: test beds and human assessments."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ulcdb.cli.common import err_console, open_store
from ulcdb.errors import InputError, UlcdbError
from ulcdb.ingest import assessments as ar
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.load_assessments import load_assessments
from ulcdb.ingest.model import Assessment, TestbedData
from ulcdb.ingest.textio import check_file

app = typer.Typer(help="Bring test beds and human assessments into the store.",
                  no_args_is_help=True)


class TestbedFormat(str, Enum):
    auto = "auto"
    plain = "plain"
    sgml = "sgml"
    wmt = "wmt"
    mtme = "mtme"
    config = "config"
    long = "long"


class AssessmentFormat(str, Enum):
    auto = "auto"
    nist = "nist"
    mtme = "mtme"
    table = "table"
    mqm = "mqm"


def _pairs(values: list[str], option: str) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for v in values:
        name, sep, file = v.partition("=")
        if not sep or not name or not file:
            raise UlcdbError(f"{option} takes NAME=FILE, got {v!r}")
        if name in out:
            raise UlcdbError(f"{option} {name} is given twice ({out[name]} and {file}): "
                             "every name must be unique")
        out[name] = Path(file)
    return out


UNRECOGNISED = ("unrecognised test-bed format (expected WMT XML, NIST SGML, a long TSV with "
                "columns seg_id, doc_id, source, translator, kind, translation, a ULC.config or "
                "an mt-metrics-eval folder with --lp); plain text files go with --source, "
                "--ref NAME=FILE and --sys NAME=FILE")


def _sniff(path: Path) -> TestbedFormat:
    if path.is_dir():
        return TestbedFormat.mtme
    if path.suffix == ".config" or path.name.endswith("config"):
        return TestbedFormat.config
    check_file(path)  # a FIFO would block the read below
    with path.open("rb") as handle:
        head = handle.read(4096).lower()
    if b"<dataset" in head:
        return TestbedFormat.wmt
    if any(tag in head for tag in (b"<srcset", b"<refset", b"<tstset")):
        return TestbedFormat.sgml
    from ulcdb.ingest.longtsv import is_long_tsv

    if is_long_tsv(path):
        return TestbedFormat.long
    if path.suffix.lower() == ".xml" or head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml"):
        return TestbedFormat.wmt  # its reader says what is wrong with the XML
    if path.suffix.lower() == ".tsv":
        return TestbedFormat.long  # its reader names the columns the header lacks
    return TestbedFormat.plain


def read_testbed(path: Path | None, fmt: TestbedFormat, name: str | None, source: Path | None,
                 refs: list[str], systems: list[str], docs: Path | None, lp: str | None,
                 src_lang: str | None, tgt_lang: str | None) -> TestbedData:
    """Pick the reader for the arguments given, run it and apply --src-lang/--tgt-lang."""
    first = path or source
    if first is None:
        raise UlcdbError("give a test bed PATH, or --source with --ref/--sys files")
    if not first.exists():
        raise InputError(first, None, "no such file or directory")
    if fmt == TestbedFormat.auto:
        # a folder given as --source is no mt-metrics-eval layout: the text reader refuses it
        fmt = (TestbedFormat.plain if path is None and first.is_dir() else _sniff(first))
        if fmt == TestbedFormat.plain and path is not None and not refs and not systems:
            raise InputError(path, None, UNRECOGNISED)
    data = _read_format(first, fmt, name, refs, systems, docs, lp)
    _apply_languages(data, src_lang, tgt_lang)
    return data


def _read_format(first: Path, fmt: TestbedFormat, name: str | None, refs: list[str],
                 systems: list[str], docs: Path | None, lp: str | None) -> TestbedData:
    from ulcdb.ingest import longtsv, mtme, sgml, ulcconfig, wmtxml

    default_name = name if name is not None else (first.stem if not first.is_dir()
                                                   else first.name)
    if fmt == TestbedFormat.mtme:
        if not lp:
            raise InputError(first, None, "a folder is read as the mt-metrics-eval layout, "
                             "which needs --lp (e.g. --lp en-de)")
        return mtme.read_mtme(first, lp, name=name)
    if fmt == TestbedFormat.config:
        data = ulcconfig.read_ulc_config(first)
        data.name = name if name is not None else data.name
        return data
    if fmt == TestbedFormat.wmt:
        return wmtxml.read_wmtxml(default_name, first)
    if fmt == TestbedFormat.long:
        return longtsv.read_long_tsv(default_name, first)
    if fmt == TestbedFormat.sgml:
        return sgml.read_sgml(default_name, first, [Path(r.split("=")[-1]) for r in refs],
                              [Path(s.split("=")[-1]) for s in systems])
    return _read_plain(default_name, first, refs, systems, docs)


def _read_plain(name: str, source: Path, refs: list[str], systems: list[str],
                docs: Path | None) -> TestbedData:
    """Plain files; languages are guessed from WMT-style file names (``source.es.txt``)."""
    from ulcdb.ingest import plain

    ref_files, sys_files = _pairs(refs, "--ref"), _pairs(systems, "--sys")
    data = plain.read_plain(name, source, ref_files, sys_files, docs)
    targets = [*ref_files.values(), *sys_files.values()]
    guesses = {"src_lang": _lang_suffix(source),
               "tgt_lang": _lang_suffix(targets[0]) if targets else None}
    for side, guess in guesses.items():
        if guess:
            setattr(data, side, guess)
            data.guessed_languages.add(side)
    return data


def _apply_languages(data: TestbedData, src_lang: str | None, tgt_lang: str | None) -> None:
    """--src-lang/--tgt-lang fill what the input leaves open; contradicting it is an error."""
    for side, given in (("src_lang", src_lang), ("tgt_lang", tgt_lang)):
        if not given:
            continue
        have = getattr(data, side)
        if have and have != given and side not in data.guessed_languages:
            option = "--" + side.replace("_", "-")
            raise InputError(data.origin or data.name, None,
                             f"{option} {given} contradicts the input's {side} {have!r}")
        setattr(data, side, given)
        data.guessed_languages.discard(side)


def _lang_suffix(path: Path) -> str | None:
    """``source.es.txt`` -> ``es``: the language code WMT-style file names carry."""
    parts = path.name.split(".")
    code = parts[-2] if len(parts) >= 3 else ""
    return code if 2 <= len(code) <= 3 and code.isalpha() else None


@app.command("testbed")
def ingest_testbed(
    path: Annotated[Path | None, typer.Argument(
        help="WMT XML file, SGML source file, mt-metrics-eval folder or ULC.config.")] = None,
    name: Annotated[str | None, typer.Option("--name", "-n", help="Test bed name.")] = None,
    fmt: Annotated[TestbedFormat, typer.Option("--format", help="Input format.")] =
    TestbedFormat.auto,
    source: Annotated[Path | None, typer.Option("--source", help="Source file (plain/SGML).")] =
    None,
    ref: Annotated[list[str], typer.Option("--ref", help="Reference NAME=FILE (SGML: FILE); "
                                                          "repeat.")] = [],  # noqa: B006
    sys: Annotated[list[str], typer.Option("--sys", help="System NAME=FILE (SGML: FILE); "
                                                          "repeat.")] = [],  # noqa: B006
    docs: Annotated[Path | None, typer.Option("--docs", help="Documents: TSV with seg_id and "
                                                             "doc_id, or one doc id a line.")] =
    None,
    lp: Annotated[str | None, typer.Option("--lp", help="Language pair (mt-metrics-eval).")] =
    None,
    src_lang: Annotated[str | None, typer.Option("--src-lang")] = None,
    tgt_lang: Annotated[str | None, typer.Option("--tgt-lang")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace changed content.")] = False,
) -> None:
    """Ingest a test bed, or add systems/references to one (identical content is a no-op).

    Formats: plain files (--source, --ref NAME=FILE, --sys NAME=FILE, --docs), NIST/MetricsMATR
    SGML, WMT XML, the mt-metrics-eval layout (folder + --lp), ULC.config / IQsetup.config, and
    long TSV (one row per segment and translator: seg_id, doc_id, source, translator, kind,
    translation; seg_ids other than 1..n are renumbered in order).

    Adding to an existing test bed without --docs keeps its documents; --src-lang/--tgt-lang
    fill languages the input or the store leaves empty.  --replace replaces a translator whose
    text differs (dropping its scores and human assessments) or, when the source segments or
    the documents differ, the whole test bed (the error says what that drops).

    Example: ulcdb ingest testbed --name demo --source src.txt --ref ref-A=a.txt --sys S1=s1.txt
    """
    data = read_testbed(path, fmt, name, source, ref, sys, docs, lp, src_lang, tgt_lang)
    with open_store(create=True) as store:
        report = load_testbed(store, data, replace=replace)
    typer.echo(report.summary())


def _mapping(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        key, sep, col = v.partition("=")
        if not sep:
            raise UlcdbError(f"--map takes KEY=COLUMN, got {v!r}")
        out[key.strip()] = col.strip()
    return out


def _renames(values: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        old, sep, new = (part.strip() for part in v.partition("="))
        if not sep or not old or not new:
            raise UlcdbError(f"--rename takes OLD=NEW, got {v!r}")
        if old in out:
            raise UlcdbError(f"--rename {old} is given twice")
        out[old] = new
    return out


def _assessment_format(path: Path, fmt: AssessmentFormat,
                       mapping: list[str]) -> AssessmentFormat:
    if fmt != AssessmentFormat.auto:
        return fmt
    if path.name.endswith(".score"):
        return AssessmentFormat.mtme
    if mapping:
        return AssessmentFormat.table
    if "mqm" in path.name.lower():
        return AssessmentFormat.mqm
    return AssessmentFormat.nist


def read_assessment_file(path: Path, fmt: AssessmentFormat, criterion: str | None,
                         mapping: list[str], level: str, rename: list[str]
                         ) -> list[Assessment]:
    """Read ``path`` in its format, with --rename OLD=NEW applied to every format."""
    if not path.exists():
        raise InputError(path, None, "no such file")
    renames = _renames(rename)
    fmt = _assessment_format(path, fmt, mapping)
    if fmt == AssessmentFormat.mtme:
        items = ar.read_mtme_human(path)
    elif fmt == AssessmentFormat.mqm:
        items = ar.read_wmt_mqm(path)
    elif fmt == AssessmentFormat.table:
        if not mapping:
            raise UlcdbError("--format table needs --map system=COL --map score=COL ...")
        items = ar.read_table(path, _mapping(mapping), criterion=criterion, level=level)
    elif not criterion:
        raise UlcdbError("NIST CSV files need --criterion (e.g. adequacy)")
    else:
        items = ar.read_nist_csv(path, criterion)
    return ar.rename_translators(items, renames)


@app.command("assessments")
def ingest_assessments(
    path: Annotated[Path, typer.Argument(help="File of human assessments.")],
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")] = None,
    fmt: Annotated[AssessmentFormat, typer.Option("--format", help="Input format.")] =
    AssessmentFormat.auto,
    criterion: Annotated[str | None, typer.Option("--criterion", "-c",
                                                  help="adequacy, DA-raw, DA-z, MQM, ...")] = None,
    mapping: Annotated[list[str], typer.Option("--map", help="table format: KEY=COLUMN for "
                                               "system, score, seg_id, seg_in_doc, doc_id, "
                                               "judge, criterion.")] = [],  # noqa: B006
    level: Annotated[str, typer.Option("--level", help="table format: seg, doc or sys.")] = "seg",
    rename: Annotated[list[str], typer.Option("--rename", help="OLD=NEW system or reference "
                                              "name (any format); repeat.")] = [],  # noqa: B006
    replace: Annotated[bool, typer.Option("--replace", help="Replace differing values.")] = False,
    skip_unknown: Annotated[bool, typer.Option(
        "--skip-unknown", help="Leave out rows of systems the test bed lacks (reported).")] =
    False,
    scale: Annotated[str | None, typer.Option(
        "--scale", help="The criterion's scale MIN:MAX, e.g. 0:100, -25:0, or : (unbounded); "
        "values outside it are refused.")] = None,
) -> None:
    """Ingest human assessments (segment, document or system level).

    Formats: NIST/Asiya CSV (systemId,documentId,segmentId,judgeId,score), mt-metrics-eval
    human-scores files (LP.NAME.{seg,doc,sys}.score; refA names reference ref-A there), generic
    CSV/TSV with --map, WMT MQM average segment scores.

    Example: ulcdb ingest assessments human/da.tsv --map system=system --map seg_id=seg_id
    --map score=da_raw --map judge=judge -c DA-raw
    """
    bounds = ar.parse_scale(scale) if scale is not None else None
    items = read_assessment_file(path, fmt, criterion, mapping, level, rename)
    if criterion:
        for a in items:
            a.criterion = a.criterion or criterion
    with open_store(create=True) as store:
        name = testbed or store.only_testbed()
        if _assessment_format(path, fmt, mapping) == AssessmentFormat.mtme:
            tid = store.testbed_id(name)
            ar.check_mtme_units(path, *store.query(
                "select (select count(*) from segment where testbed_id = $1), "
                "(select count(*) from document where testbed_id = $1)", [tid])[0])
            ar.match_mtme_names(items, store.translators(tid))
        report = load_assessments(store, name, items, path, replace=replace,
                                  skip_unknown=skip_unknown, scale=bounds)
    typer.echo(report.summary())


class ScoreFormat(str, Enum):
    auto = "auto"
    iqxml = "iqxml"
    mtme = "mtme"
    wmt = "wmt"
    wmt20 = "wmt20"
    nist = "nist"
    sacrebleu = "sacrebleu"
    comet = "comet"
    table = "table"
    lines = "lines"


@app.command("scores")
def ingest_scores(
    paths: Annotated[list[Path], typer.Argument(help=(
        "Score files or folders (a sacrebleu, comet or table folder: the files within)."))],
    fmt: Annotated[ScoreFormat, typer.Option("--format", "-f", help="Input format.")] =
    ScoreFormat.auto,
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")] = None,
    metric: Annotated[str | None, typer.Option("--metric", "-m", help=(
        "Metric name: for files that do not name it (COMET, lines, .scr), or to rename the "
        "one metric of the files."))] = None,
    rename: Annotated[list[str], typer.Option("--rename", help="OLD=NEW metric name; "
                                              "repeat.")] = [],  # noqa: B006
    target: Annotated[str | None, typer.Option("--target", help=(
        "System (or reference) scored, where the file does not say it."))] = None,
    ref: Annotated[list[str], typer.Option("--ref", "-r", help=(
        "Reference the scores are against, where the file does not say it; repeat for a "
        "multi-reference set."))] = [],  # noqa: B006
    level: Annotated[str | None, typer.Option("--level", help="table: seg, doc or sys.")] = None,
    lp: Annotated[str | None, typer.Option("--lp", help=(
        "Language pair: mt-metrics-eval folder; wmt20: only this pair."))] = None,
    mapping: Annotated[list[str], typer.Option("--map", help=(
        "table: KEY=COLUMN for testbed, metric, target, refset, level, seg_id, seg_in_doc, "
        "doc_id, value, variant."))] = [],  # noqa: B006
    refset_map: Annotated[list[str], typer.Option("--refset-map", help=(
        "wmt: REFSET=REF[+REF...], e.g. newstestM2020=ref-A+ref-B (WMT20 names are "
        "known)."))] = [],  # noqa: B006
    details: Annotated[list[Path], typer.Option("--details", help=(
        "wmt: input_details file (SID TESTSET LP DOCID SEGID) of a test bed to create."))] =
    [],  # noqa: B006
    create_testbed: Annotated[bool, typer.Option("--create-testbed", help=(
        "wmt: create missing scores-only test beds (from --details) and translators."))] =
    False,
    higher_is_better: Annotated[bool | None, typer.Option(
        "--higher-is-better/--lower-is-better", help="Direction of a new metric (default "
        "higher).")] = None,
    range_min: Annotated[float | None, typer.Option("--range-min")] = None,
    range_max: Annotated[float | None, typer.Option("--range-max")] = None,
    description: Annotated[str | None, typer.Option("--description", help=(
        "Catalogue description of a new metric."))] = None,
    variant: Annotated[str, typer.Option("--variant", help="Score variant.")] = "case:mixed",
    replace: Annotated[bool, typer.Option("--replace", help=(
        "Replace stored scores of the same metric, target, reference set and level."))] =
    False,
) -> None:
    """Ingest metric scores computed elsewhere (COMET, BLEURT, your own, ...).

    Formats (auto-detected from names and content unless --format): IQ-XML files or
    TARGET/REFERENCE/METRIC.xml[.gz] trees (IQMT and Asiya layouts); mt-metrics-eval files
    (metric-scores/LP/NAME-REF.LEVEL.score, human-scores/LP.NAME.LEVEL.score) or a test-set
    folder with --lp; WMT metrics-task files (METRIC LP TESTSET REFSET SYSTEM [DOCID [SEG]]
    SCORE, plain or .gz); the whole WMT20 release folder (--format wmt20: scores-only test
    beds, DA, outlier and human system sets, every metric); NIST/MetricsMATR .scr files;
    sacrebleu JSON or --sentence-level output; comet-score output (text or --to_json; a
    file named METRIC.REFSET.txt, as `ulcdb export comet` writes, gives the metric and the
    reference set); CSV/TSV/Parquet/JSON tables with --map; one score per line (--format
    lines).  A folder of sacrebleu, comet or table files stands for the files within.

    A new metric gets a catalogue entry (direction, range, description from the options or
    the file).  Scores already stored for the same metric, target, reference set and level
    are refused unless --replace.  Segment (document) scores of a metric, target and
    reference set must cover every segment (document) of the test bed (None marks a missing
    one where the format has it).  Unknown systems, documents or segments, missing ones,
    a WMT language pair other than the test bed's, NaN and duplicates stop the import with
    the file and line; nothing is written.

    WMT files name their test bed TESTSET:LP; with --create-testbed --details
    input_details/LP.txt a scores-only test bed (no texts) and its translators are created.

    Example: ulcdb ingest scores comet.txt --metric COMET-22 --ref ref-A
    Example: ulcdb ingest scores ../shared/testbeds/wmt20_metrics --format wmt20
    """
    from ulcdb.interchange.importer import ScoreImport, import_scores
    from ulcdb.interchange.model import MetricInfo

    refsets = {}
    for item in refset_map:
        name, sep, members = item.partition("=")
        if not sep or not name or not members:
            raise UlcdbError(f"--refset-map takes REFSET=REF[+REF...], got {item!r}")
        refsets[name] = tuple(members.split("+"))
    renames = {}
    for item in rename:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise UlcdbError(f"--rename takes OLD=NEW, got {item!r}")
        renames[old] = new
    request = ScoreImport(
        paths=list(paths), fmt=fmt.value, testbed=testbed, metric=metric, rename=renames,
        target=target, refs=tuple(ref), level=level, lp=lp, mapping=_mapping(mapping),
        refset_map=refsets, details=list(details), create_testbed=create_testbed,
        variant=variant, replace=replace,
        flags=MetricInfo("", higher_is_better, range_min, range_max, description))
    with open_store(create=True) as store, err_console.status("reading and checking scores..."):
        report = import_scores(store, request)
    typer.echo(report.summary())
    for name, counts in getattr(report, "testbeds", {}).items():
        typer.echo(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


class AnnotationFormat(str, Enum):
    conllu = "conllu"
    ptb = "ptb"
    conll05 = "conll05"
    iob = "iob"


@app.command("annotations")
def ingest_annotations(
    path: Annotated[Path, typer.Argument(help="Annotation file (one translator's segments).")],
    translator: Annotated[str, typer.Option("--translator", help="System or reference the "
                                            "file annotates.")],
    fmt: Annotated[AnnotationFormat, typer.Option("--format", "-f", help="Input format.")],
    testbed: Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")] = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Name of the annotation run "
                                             "(default: FORMAT import).")] = None,
) -> None:
    """Ingest another tool's annotations of one translator's segments.

    Formats: CoNLL-U (any UD parser; '# seg_id = N' comments group sentences into segments,
    else one sentence per segment), PTB bracketed trees (one per line), CoNLL-2005 SRL
    columns, IOB NE tags (one token per line, blank line between segments).  Segment or
    token counts that do not match are refused with file and line; nothing is written.

    Example: ulcdb ingest annotations sys1.conllu --translator S1 --format conllu --tool udpipe
    """
    from ulcdb.annotation.importers import import_annotations

    with open_store(create=True) as store:
        name = testbed or store.only_testbed()
        report = import_annotations(store, path, name, translator, fmt.value, tool)
    typer.echo(report.summary())
