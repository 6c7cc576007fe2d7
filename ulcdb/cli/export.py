"""`ulcdb export ...`: the store's scores and tables in the formats of the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_args

import typer

from ulcdb.cli.common import one_of, progress_bar, store_file
from ulcdb.cli.options import TestbedOpt, grouped
from ulcdb.cli.outputs import file_option, folder_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ulcdb.ops.export import Scores, Written

app = typer.Typer(help="Write scores (IQ-XML, mt-metrics-eval, WMT, NIST .scr, sacrebleu, "
                  "COMET) and any table, view or query (CSV, TSV, Parquet, JSON).",
                  no_args_is_help=True)

MetricOpt = Annotated[list[str], typer.Option("--metric", "-m", help="Metric; repeat or "
                                              "comma-separate (default: all).")]
TargetOpt = Annotated[list[str], typer.Option("--target", help="System or reference scored; "
                                              "repeat or comma-separate (default: all).")]
RefsetOpt = Annotated[list[str], typer.Option("--refset", help="Reference set as stored "
                                              "(ref-A+ref-B); repeat (default: all).")]
LevelOpt = Annotated[list[str], typer.Option("--level", help="seg, doc or sys; repeat "
                                             "(default: all the format holds).")]
VariantOpt = Annotated[str, typer.Option("--variant", help="Score variant.")]
FolderArg = Annotated[Path, typer.Argument(help="Folder to write into (created).",
                                           callback=folder_option)]
Layout = Literal["iqmt", "asiya"]
WRITING = partial(progress_bar, verb="writing")  # each metric (and level) written
TableFormat = Literal["csv", "tsv", "parquet", "json"]


@dataclass(frozen=True)
class ScoreOpts:
    """--metric --target --refset --variant: which stored scores are written.  Named
    metrics, targets, reference sets and the variant must exist (the writers check it through
    fetch.check_selection before writing): an unknown one is an error naming what is."""

    metric: MetricOpt = field(default_factory=list)
    target: TargetOpt = field(default_factory=list)
    refset: RefsetOpt = field(default_factory=list)
    variant: VariantOpt = "case:mixed"

    def scores(self, level: list[str] | None = None) -> Scores:
        """The library's selection of scores (names repeated or comma-separated)."""
        from ulcdb.ops.export import Scores

        return Scores(tuple(self.metric), tuple(self.target), tuple(self.refset),
                      tuple(level or ()), self.variant)


def _done(written: Written, folder: Path) -> None:
    from ulcdb.cli.score import print_notes

    print_notes(written.notes)
    typer.echo(f"wrote {len(written.paths)} files under {folder}")


@app.command("iqxml")
@grouped
def export_iqxml(
    folder: FolderArg,
    testbed: TestbedOpt = None,
    layout: Annotated[Layout, typer.Option("--layout", help=(
        "iqmt: <IQ> with segment and system scores (IQMT manual 4.1.1); asiya: <REPORT> with "
        "<DOC> scores too."), **one_of("layout", get_args(Layout)))] = "iqmt",
    digits: Annotated[int | None, typer.Option("--digits", help=(
        "Fixed decimals (Asiya writes 8); default: full precision."))] = None,
    gzip: Annotated[bool, typer.Option("--gzip", help="Write .xml.gz, as Asiya does.")] = False,
    *,
    scores: ScoreOpts,
) -> None:
    """IQ-XML files (IQMT or Asiya layout).

    FOLDER/TARGET/REF0_REF1/METRIC.xml for system-vs-reference(s), reference-vs-reference
    and system-vs-system scores, as IQMT and Asiya read them.

    Example: ulcdb export iqxml scores/ --layout asiya --digits 8 --gzip
    """
    from ulcdb.ops import export

    _done(export.iqxml(store_file, folder, scores.scores(), testbed, layout, digits, gzip,
                       WRITING),
          folder)


@app.command("mtme")
@grouped
def export_mtme(
    folder: FolderArg,
    testbed: TestbedOpt = None,
    texts: Annotated[bool, typer.Option("--texts/--no-texts", help=(
        "Also write sources, references, system outputs and documents."))] = True,
    *,
    scores: ScoreOpts,
    level: LevelOpt = [],  # noqa: B006
    lp: Annotated[str | None, typer.Option("--lp", help=(
        "Language pair SRC-TGT for the file names, where the test bed has no languages."))] =
    None,
) -> None:
    """mt-metrics-eval's layout, so its tools run on the store.

    FOLDER is the test-set folder: metric-scores/LP/NAME-REF.LEVEL.score,
    human-scores/LP.CRITERION.LEVEL.score and, unless --no-texts, sources/, references/,
    system-outputs/, documents/.  Reference names lose their dashes (ref-A is refA), as
    mt-metrics-eval requires.  mt-metrics-eval holds one human score per system and unit:
    where the store has several judges' scores (and no averaged one), their mean is written.

    Example: ulcdb export mtme mtme/wmt21.news -t ende
    Example: ulcdb export mtme mtme/sample --lp es-en
    """
    from ulcdb.ops import export

    _done(export.mtme(store_file, folder, scores.scores(level), testbed, texts, lp,
                      WRITING), folder)


@app.command("wmt")
@grouped
def export_wmt(
    folder: FolderArg,
    testbed: Annotated[list[str], typer.Option("--testbed", "-t", help=(
        "Test bed; repeat (default: all)."))] = [],  # noqa: B006
    refset_name: Annotated[list[str], typer.Option("--refset-name", help=(
        "STORED=WRITTEN refset name, e.g. ref-A=newstest2020; default: the stored name."))] =
    [],  # noqa: B006
    gzip: Annotated[bool, typer.Option("--gzip", help="Write .tsv.gz.")] = False,
    *,
    scores: ScoreOpts,
    level: LevelOpt = [],  # noqa: B006
) -> None:
    """WMT metrics-task files, one per metric and level.

    FOLDER/METRIC.LEVEL.tsv: METRIC LP TESTSET REFSET SYSTEM [DOCID [SEG]] SCORE, SEG the
    position in DOCID.  TESTSET is the test bed's name without its :LP ending, so
    `ulcdb ingest scores FOLDER --format wmt` reads them back.

    Example: ulcdb export wmt wmt-scores/ --refset-name ref-A=newstest2020 --gzip
    """
    from ulcdb.ops import export

    _done(export.wmt(store_file, folder, scores.scores(level), testbed, refset_name, gzip,
                     WRITING),
          folder)


@app.command("nist")
@grouped
def export_nist(
    folder: FolderArg,
    testbed: TestbedOpt = None,
    *,
    scores: ScoreOpts,
    level: LevelOpt = [],  # noqa: B006
) -> None:
    """NIST MetricsMATR .scr files.

    FOLDER/REFSET/METRIC-{seg,doc,sys}.scr: METRIC TESTSET SYSTEM [DOCID [SEGID]] SCORE,
    tab-separated, SEGID the position in DOCID.

    Example: ulcdb export nist scr/ -m BLEU -m NIST
    """
    from ulcdb.ops import export

    _done(export.nist(store_file, folder, scores.scores(level), testbed, WRITING), folder)


@app.command("sacrebleu")
@grouped
def export_sacrebleu(
    folder: FolderArg,
    testbed: TestbedOpt = None,
    *,
    scores: ScoreOpts,
    width: Annotated[int, typer.Option("--width", "-w", help="Decimals of the scores, as "
                                       "sacrebleu's -w (ingest scores reads them back at this "
                                       "precision).")] = 1,
) -> None:
    """sacrebleu's own JSON of BLEU, chrF, chrF++ and TER, to diff with sacrebleu's output.

    FOLDER/TARGET/REFSET.json holds what `sacrebleu REFS -i TARGET -m bleu chrf ter -f json`
    prints: scores on sacrebleu's 0-100 scale, its signatures, BLEU's verbose score, computed
    by sacrebleu from the segment statistics ulcdb stored (ulcdb's BLEU, chrF, chrF++ and TER
    are sacrebleu's).  Other metrics are not sacrebleu's: use `export table` or `export comet`.

    Example: ulcdb export sacrebleu json/ -m BLEU -m chrF
    """
    from ulcdb.ops import export

    _done(export.sacrebleu(store_file, folder, scores.scores(), testbed, width, WRITING), folder)


@app.command("comet")
@grouped
def export_comet(folder: FolderArg, testbed: TestbedOpt = None, *, scores: ScoreOpts) -> None:
    """comet-score's text output.

    FOLDER/METRIC.REFSET.txt: TARGET<TAB>Segment N<TAB>score: X (N from 0), then
    TARGET<TAB>score: X.  `ulcdb ingest scores FOLDER --format comet` reads them back,
    metric and reference set taken from the file names.

    Example: ulcdb export comet comet/ -m COMET
    """
    from ulcdb.ops import export

    _done(export.comet(store_file, folder, scores.scores(), testbed, WRITING), folder)


@app.command("table")
def export_table_cmd(
    source: Annotated[str, typer.Argument(help="Table or view name, or SQL with --query.")],
    output: Annotated[Path, typer.Argument(help="File to write (.csv, .tsv, .parquet, "
                                           ".json).",
                                           callback=file_option)],
    query: Annotated[bool, typer.Option("--query", "-q", help="SOURCE is a SQL query.")] =
    False,
    fmt: Annotated[TableFormat | None, typer.Option(
        "--format", help="Output format (default: from the file name).",
        **one_of("format", get_args(TableFormat)))] = None,
) -> None:
    """Any table, view or query as CSV, TSV, Parquet or JSON (one record a line).

    CSV is quoted as RFC 4180 says; TSV is raw (no quoting), so a value holding a tab or a
    line break is refused: export such tables as CSV or Parquet.  The `scores` view written
    this way reads back with `ulcdb ingest scores FILE`.

    Example: ulcdb export table scores scores.parquet
    Example: ulcdb export table -q "select * from scores where metric = 'COMET'" comet.csv
    """
    from ulcdb.ops import export

    n = export.table(store_file, source, output, fmt, query, WRITING)
    typer.echo(f"wrote {n} rows to {output}")
