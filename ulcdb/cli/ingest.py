"""`ulcdb ingest ...`: test beds and human assessments."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, Literal, get_args

import typer

from ulcdb.cli.common import err_console, one_of, open_store
from ulcdb.cli.options import TestbedOpt, levels
from ulcdb.ingest.assessment_input import AssessmentFormat
from ulcdb.ingest.testbed_input import TestbedFormat
from ulcdb.ops.levels import LEVELS

app = typer.Typer(help="Bring test beds and human assessments into the store.",
                  no_args_is_help=True)


@app.command("testbed")
def ingest_testbed(
    path: Annotated[Path | None, typer.Argument(
        help="WMT XML file, SGML source file, mt-metrics-eval folder or ULC.config.")] = None,
    name: Annotated[str | None, typer.Option("--name", "-n", help="Test bed name.")] = None,
    fmt: Annotated[TestbedFormat, typer.Option("--format", help="Input format.", **one_of(
        "format", [f.value for f in TestbedFormat], TestbedFormat))] =
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
    src_lang: Annotated[str | None, typer.Option(
        "--src-lang", help="Source language (e.g. en), where the input does not say.")] = None,
    tgt_lang: Annotated[str | None, typer.Option(
        "--tgt-lang", help="Target language (e.g. de): metrics check they can score it; "
        "fills it in for an existing test bed.")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace changed content.")] = False,
) -> None:
    """Ingest a test bed, or add systems/references to one (identical content is a no-op).

    Formats: plain files (--source, --ref NAME=FILE, --sys NAME=FILE, --docs), NIST/MetricsMATR
    SGML, WMT XML, the mt-metrics-eval layout (a folder, with its human-scores; --lp where it
    holds several language pairs), ULC.config / IQsetup.config, and
    long TSV (one row per segment and translator: seg_id, doc_id, source, translator, kind,
    translation; seg_ids other than 1..n are renumbered in order).

    Adding to an existing test bed without --docs keeps its documents; --src-lang/--tgt-lang
    (ISO 639-1 codes; English names such as german are read as de, with a note) fill
    languages the input or the store leaves empty.  --replace replaces a translator whose
    text differs (dropping its scores and human assessments) or, when the source segments or
    the documents differ, the whole test bed (the error says what that drops).

    Example: ulcdb ingest testbed --name demo --source src.txt --ref ref-A=a.txt --sys S1=s1.txt
    """
    from ulcdb.ingest.load import load_testbed
    from ulcdb.ingest.testbed_input import read_testbed

    data = read_testbed(path, fmt, name, source, ref, sys, docs, lp, src_lang, tgt_lang)
    with open_store(create=True) as store:
        report = load_testbed(store, data, replace=replace)
    typer.echo(report.summary())


@app.command("assessments")
def ingest_assessments(
    path: Annotated[Path, typer.Argument(help="File of human assessments.")],
    testbed: TestbedOpt = None,
    fmt: Annotated[AssessmentFormat, typer.Option("--format", help="Input format.", **one_of(
        "format", [f.value for f in AssessmentFormat], AssessmentFormat))] =
    AssessmentFormat.auto,
    criterion: Annotated[str | None, typer.Option("--criterion", "-c",
                                                  help="adequacy, DA-raw, DA-z, MQM, ...")] = None,
    mapping: Annotated[list[str], typer.Option("--map", help="table format: KEY=COLUMN for "
                                               "system, score, seg_id, seg_in_doc, doc_id, "
                                               "judge, criterion.")] = [],  # noqa: B006
    level: Annotated[str, typer.Option("--level", help="table format: seg, doc or sys.",
                                       **levels(LEVELS))] = "seg",
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
    from ulcdb.formats import assessments as ar
    from ulcdb.ingest.assessment_input import check_against_testbed, read_assessment_file
    from ulcdb.ingest.load_assessments import load_assessments

    bounds = ar.parse_scale(scale) if scale is not None else None
    items = read_assessment_file(path, fmt, criterion, mapping, level, rename)
    with open_store(create=True) as store:
        name = testbed or store.only_testbed()
        check_against_testbed(store, name, path, fmt, mapping, items)
        report = load_assessments(store, name, items, path, replace=replace,
                                  skip_unknown=skip_unknown, scale=bounds)
    typer.echo(report.summary())


ScoreFormat = Literal["auto", "iqxml", "mtme", "wmt", "wmt20", "nist", "sacrebleu", "comet",
                      "table", "lines"]


# The option panels of `ingest scores --help`: in one table beside
# --higher-is-better/--lower-is-better, option names and examples were cut at 80 columns.
WMT = "WMT metrics-task files"
NEW = "A new metric"


@app.command("scores")
def ingest_scores(
    paths: Annotated[list[Path], typer.Argument(help=(
        "Score files or folders (a sacrebleu, comet or table folder: the files within)."))],
    fmt: Annotated[ScoreFormat, typer.Option("--format", "-f", help="Input format.",
                                             **one_of("format", get_args(ScoreFormat)))] = "auto",
    testbed: TestbedOpt = None,
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
    level: Annotated[str | None, typer.Option("--level", help="table: seg, doc or sys.",
                                              **levels(LEVELS))] = None,
    lp: Annotated[str | None, typer.Option("--lp", help=(
        "Language pair: mt-metrics-eval folder of several; wmt20: only this pair."))] = None,
    mapping: Annotated[list[str], typer.Option("--map", help=(
        "table: KEY=COLUMN for testbed, metric, target, refset, level, seg_id, seg_in_doc, "
        "doc_id, value, variant."))] = [],  # noqa: B006
    refset_map: Annotated[list[str], typer.Option(
        "--refset-map", rich_help_panel=WMT,
        help="wmt: REFSET=REF[+REF...], e.g. newstestM2020=ref-A+ref-B (WMT20 names are "
        "known).")] = [],  # noqa: B006
    details: Annotated[list[Path], typer.Option(
        "--details", rich_help_panel=WMT,
        help="wmt: input_details file (SID TESTSET LP DOCID SEGID) of a test bed to "
        "create.")] = [],  # noqa: B006
    create_testbed: Annotated[bool, typer.Option(
        "--create-testbed", rich_help_panel=WMT,
        help="wmt: create missing scores-only test beds (from --details) and "
        "translators.")] = False,
    higher_is_better: Annotated[bool | None, typer.Option(
        "--higher-is-better/--lower-is-better", rich_help_panel=NEW,
        help="Direction of a new metric (default higher).")] = None,
    range_min: Annotated[float | None, typer.Option(
        "--range-min", rich_help_panel=NEW,
        help="Lowest value a new metric can take (scores below are refused).")] = None,
    range_max: Annotated[float | None, typer.Option(
        "--range-max", rich_help_panel=NEW,
        help="Highest value a new metric can take (scores above are refused).")] = None,
    description: Annotated[str | None, typer.Option(
        "--description", rich_help_panel=NEW,
        help="Catalogue description of a new metric.")] = None,
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
    from ulcdb.cli.common import progress_bar
    from ulcdb.ingest.assessment_input import parse_mapping, parse_renames
    from ulcdb.interchange.importer import ScoreImport, import_scores, parse_refset_map
    from ulcdb.interchange.model import MetricInfo

    request = ScoreImport(
        paths=list(paths), fmt=fmt, testbed=testbed, metric=metric,
        rename=parse_renames(rename), target=target, refs=tuple(ref), level=level, lp=lp,
        mapping=parse_mapping(mapping), refset_map=parse_refset_map(refset_map),
        details=list(details), create_testbed=create_testbed, variant=variant, replace=replace,
        flags=MetricInfo("", higher_is_better, range_min, range_max, description),
        progress=partial(progress_bar, verb="importing") if err_console.is_terminal else None)
    with open_store(create=True) as store:
        report = import_scores(store, request)
    typer.echo(report.summary())
    for name, counts in getattr(report, "testbeds", {}).items():
        typer.echo(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


AnnotationFormat = Literal["conllu", "ptb", "conll05", "iob", "boxer-xml", "boxer-xml-doc"]


@app.command("annotations")
def ingest_annotations(
    path: Annotated[Path, typer.Argument(help="Annotation file (one translator's segments).")],
    translator: Annotated[str, typer.Option("--translator", help="System or reference the "
                                            "file annotates.")],
    fmt: Annotated[AnnotationFormat, typer.Option("--format", "-f", help="Input format.", **one_of(
        "format", get_args(AnnotationFormat)))],
    testbed: TestbedOpt = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Name of the annotation run "
                                             "(default: FORMAT import).")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace the run's differing "
                                          "annotations of these segments.")] = False,
) -> None:
    """Ingest another tool's annotations of one translator's segments.

    Formats: CoNLL-U (any UD parser; '# seg_id = N' comments group sentences into segments,
    else one sentence per segment), PTB bracketed trees (one per line), CoNLL-2005 SRL
    columns, IOB NE tags (one token per line, blank line between segments), Boxer's flat XML
    DRSs (--format boxer-xml: one <xfdrs xml:id="dN"> per segment, a segment Boxer failed on
    has none; --format boxer-xml-doc: one per document, N = document number, for DR_doc; DR
    metrics then read them with `ulcdb score --annotator TOOL`).  Segment or
    token counts that do not match are refused with file and line; nothing is written.

    Example: ulcdb ingest annotations sys1.conllu --translator S1 --format conllu --tool udpipe
    """
    from ulcdb.annotation.importers import import_annotations

    with open_store(create=True) as store:
        name = testbed or store.only_testbed()
        report = import_annotations(store, path, name, translator, fmt, tool, replace)
    typer.echo(report.summary())


ResourceKind = Literal["lin-thesaurus", "verbocean"]


@app.command("resource")
def ingest_resource(
    kind: Annotated[ResourceKind, typer.Argument(help="lin-thesaurus or verbocean.", **one_of(
        "resource", get_args(ResourceKind)))],
    paths: Annotated[list[Path], typer.Argument(help="The published file(s): simN.lsp, "
                                                "simV.lsp, simA.lsp; verbocean.*.txt.")],
    replace: Annotated[bool, typer.Option("--replace", help="Install over a different "
                                          "copy already installed.")] = False,
) -> None:
    """Install Lin's thesaurus or VerbOcean for TINE, in place of its stand-ins.

    The files are checked (a bad line is refused with file and line; nothing is installed)
    and installed once for every store, in $ULCDB_RESOURCES (default
    $XDG_DATA_HOME/ulcdb/resources).  TINE then expands arguments with Lin's 20 best
    neighbours (instead of GloVe's) and aligns verbs VerbOcean relates (any relation but
    opposite-of) besides VerbNet's; its signature names the files' checksum, so scores made
    with other resources stay apart.  `--replace` swaps a different copy.

    Example: ulcdb ingest resource lin-thesaurus simN.lsp simV.lsp simA.lsp
    """
    from ulcdb.metrics.tine_lexica import install

    target, ident, entries = install(kind, paths, replace)
    typer.echo(f"{kind} {ident}: {entries} entries installed in {target}")
