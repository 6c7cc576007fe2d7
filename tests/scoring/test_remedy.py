"""What a message about missing scores tells the user to do (``ulcdb.scoring.remedy``): run
`ulcdb score` for a metric ulcdb computes, and for an imported one (or any metric of a
scores-only test bed, which has no texts) the file it was imported from, that it holds none
against the reference set asked, and the reference sets it has; never `ulcdb score -m` a
metric scoring refuses.  Every path that says it: compare (metric variant, category analysis),
meta (selection, evaluation, its notes), meta protocol's notes, QARLA's check.

The stores: the sample's demo store with BLEU computed and Ximp imported at system level
against the whole reference set and against ref-A; the tiny WMT20-layout release of
``tests/wmt20_release.py`` (scores only: MetricX and MetricY against ref-A, ref-B, ref-P)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import copy_store
from cli_helpers import ulcdb as cli
from typer.testing import Result
from wmt20_release import release

from ulcdb.compare.data import CompareError, metric_variant
from ulcdb.errors import MetaError
from ulcdb.formats.wmt import wmt20
from ulcdb.meta import evaluate
from ulcdb.meta.task import MetaTask
from ulcdb.scoring.remedy import remedy
from ulcdb.store.database import Store

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
FULL = "ref-A+ref-B+ref-C"
BED = "newstest2020:en-de"  # the release's test bed


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(store, the file Ximp was imported from)."""
    db = tmp_path_factory.mktemp("remedy-sample") / "sample.duckdb"
    assert cli(db, "demo", SAMPLE, "-m", "BLEU").exit_code == 0
    table = db.parent / "ximp.csv"
    table.write_text("metric,target,refset,level,value\n" + "".join(
        f"Ximp,{s},{r},sys,0.{i}\n" for i, s in enumerate(("sysA", "sysB", "sysC", "sysD"), 1)
        for r in (FULL, "ref-A")))
    done = cli(db, "ingest", "scores", table, "--format", "table")
    assert done.exit_code == 0, done.output
    return db, table


@pytest.fixture(scope="module")
def scores_only(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(store, release folder) of the WMT20-layout release, a scores-only test bed."""
    root = tmp_path_factory.mktemp("remedy-release")
    release(root / "release")
    with Store(root / "r.duckdb") as store:
        wmt20.ingest_wmt20(store, root / "release")
    return root / "r.duckdb", root / "release"


@pytest.fixture(scope="module")
def two_beds(sample: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
             ) -> tuple[Path, Path]:
    """(store, Ximp's file): the sample store and the plain sample's texts as test bed
    'other' (three references, two systems), where nothing of Ximp was imported."""
    db = copy_store(sample[0], tmp_path_factory.mktemp("remedy-two"))
    plain = SAMPLE / "plain"
    made = cli(db, "ingest", "testbed", "--name", "other", "--source", plain / "source.es.txt",
               "--docs", plain / "docs.tsv",
               *[a for r in "ABC" for a in ("--ref", f"ref-{r}={plain}/refs/ref-{r}.en.txt")],
               *[a for s in "AB" for a in ("--sys", f"sys{s}={plain}/systems/sys{s}.en.txt")])
    assert made.exit_code == 0, made.output
    return db, sample[1]


def _ximp(table: Path, scores: str, against: str, have: str = "") -> str:
    """The clause on Ximp: no ``scores`` (e.g. 'seg-level scores') against ``against``."""
    return (f"Ximp is imported only, not computed by ulcdb: its import ({table}) holds no "
            f"{scores} against {against} in test bed 'sample'; import a file that "
            "has them" + (f", or name a reference set it has with -r ({have})" if have else ""))


def _error(result: Result) -> str:
    """The one line of a refused command's message."""
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_computed_metric_keeps_run_score_an_imported_one_names_its_file(sample) -> None:
    db, table = sample
    with Store(db, read_only=True) as store:
        assert remedy(store, "sample", ["BLEU", "-WER"], ["ref-B"], "sys") == (
            "run `ulcdb score -t sample -m BLEU,-WER` first")
        assert remedy(store, "sample", [], ["ref-B"]) == "run `ulcdb score -t sample` first"
        assert remedy(store, "sample", ["-WER", "Ximp"], ["ref-B"], "sys") == (
            "run `ulcdb score -t sample -m -WER` first; "
            + _ximp(table, "sys-level scores", "'ref-B'", f"ref-A, {FULL}"))
        # scores at another level than the one asked are no reference set to offer
        assert remedy(store, "sample", ["Ximp"], ["ref-A"], "seg") == _ximp(
            table, "seg-level scores", "'ref-A'")


def test_compare_variant(sample) -> None:
    db, table = sample
    with Store(db, read_only=True) as store:
        for metric, hint in (("-WER", "run `ulcdb score -t sample -m -WER` first"),
                             ("Ximp", "Ximp is imported only, not computed by ulcdb: its "
                                      f"import ({table}) holds no scores against 'ref-B' in "
                                      "test bed 'sample'; import a file that has them, or "
                                      f"name a reference set it has with -r (ref-A, {FULL})")):
            with pytest.raises(CompareError) as caught:
                metric_variant(store, "sample", metric, "ref-B", None, "case:mixed")
            assert str(caught.value) == (f"{metric} has no scores against 'ref-B' in 'sample': "
                                         + hint)
    said = _error(cli(db, "compare", "-m", "Ximp", "-r", "ref-B"))
    assert f"its import ({table}) holds no scores against 'ref-B'" in said
    assert "ulcdb score" not in said


def test_compare_category(sample) -> None:
    db, _ = sample
    said = _error(cli(db, "compare", "--analysis", "category", "-b", "sysA"))
    assert said.endswith("run `ulcdb score -t sample -m SP-Op-*` first")
    said = _error(cli(db, "compare", "--analysis", "category", "-b", "sysA", "-m", "Ximp"))
    assert said.endswith("those of Ximp can only be imported, as metrics named Ximp-<category>")
    assert "ulcdb score" not in said


def test_meta_selection_refused(sample) -> None:
    db, table = sample
    said = _error(cli(db, "meta", "-c", "DA-raw", "-G", "seg", "-m", "Ximp,-WER"))
    assert said == (f"Error: none of Ximp, -WER has seg-level scores against '{FULL}': run "
                    "`ulcdb score -t sample -m -WER` first; "
                    + _ximp(table, "seg-level scores", f"'{FULL}'"))


def test_meta_notes(sample) -> None:
    db, table = sample
    done = cli(db, "meta", "-c", "DA-raw", "-G", "sys", "-r", "ref-B", "-m", "BLEU,Ximp,-WER",
               "--coef", "pearson", "-B", "10", "-f", "json")
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines()[0] == (
        "not scored at sys level, left out: Ximp, -WER; run `ulcdb score -t sample -m -WER` "
        "first; " + _ximp(table, "sys-level scores", "'ref-B'", f"ref-A, {FULL}"))


def test_meta_protocol_notes(sample) -> None:
    db, table = sample
    done = cli(db, "meta", "protocol", "wmt24", "-c", "DA-raw", "-m", "BLEU,Ximp", "-B", "5",
               "-f", "json")
    assert done.exit_code == 0, done.output
    assert [n for n in done.stderr.splitlines() if "Ximp" in n] == [
        "sample: not scored at seg level, left out: Ximp; "
        + _ximp(table, "seg-level scores", f"'{FULL}'")]


def test_meta_evaluation_with_no_scores(sample) -> None:
    """A task made in Python, past the selection's checks: evaluate says why it is empty."""
    db, table = sample
    with Store(db, read_only=True) as store, pytest.raises(MetaError) as caught:
        evaluate(store, MetaTask("sample", "seg", "DA-raw", FULL, metrics=("Ximp",),
                                 n_resamples=0))
    assert str(caught.value) == (f"no stored seg-level scores of Ximp against '{FULL}' in test "
                                 "bed 'sample': " + _ximp(table, "seg-level scores", f"'{FULL}'"))


def test_meta_evaluation_offers_only_reference_sets_of_the_variant_asked(tmp_path) -> None:
    """An import holding Ximp under another variant only (against ref-C) is no reference set
    to offer for the variant the evaluation asks."""
    db = tmp_path / "variant.duckdb"
    assert cli(db, "demo", SAMPLE, "-m", "BLEU").exit_code == 0
    table = tmp_path / "ximp.csv"
    table.write_text("metric,target,refset,level,value\n" + "".join(
        f"Ximp,{s},ref-C,sys,0.{i}\n" for i, s in enumerate(("sysA", "sysB", "sysC", "sysD"), 1)))
    done = cli(db, "ingest", "scores", table, "--format", "table", "--variant", "v-other")
    assert done.exit_code == 0, done.output
    with Store(db, read_only=True) as store, pytest.raises(MetaError) as caught:
        evaluate(store, MetaTask("sample", "sys", "DA-raw", "ref-B", metrics=("Ximp",),
                                 variant="case:mixed", n_resamples=0))
    assert str(caught.value) == (
        "no stored sys-level scores of Ximp against 'ref-B' in test bed 'sample': "
        + _ximp(table, "sys-level scores (case:mixed)", "'ref-B'"))


def test_qarla_check(sample) -> None:
    """QUEEN computes BLEU first; Ximp, imported at system level only, has no segment scores."""
    db, table = sample
    said = _error(cli(db, "queen", "-m", "Ximp,BLEU", "-G", "seg"))
    assert said == ("Error: no segment scores of Ximp against single references in test bed "
                    "'sample' (case:mixed): "
                    + _ximp(table, "seg-level scores (case:mixed)",
                            "any of 'ref-A', 'ref-B', 'ref-C'"))


def test_scores_only_test_bed(scores_only) -> None:
    """No metric can be computed without texts, BLEU neither: nothing says `ulcdb score`."""
    db, root = scores_only
    files = ", ".join(str(root / "metrics" / lv / f"MetricX.{lv}.tsv") for lv in ("seg", "sys"))
    metricx = (f"MetricX is imported only, not computed by ulcdb: its imports ({files}) hold no "
               f"scores against 'ref-A+ref-B' in test bed '{BED}'; import a file that has "
               "them, or name a reference set they have with -r (ref-A, ref-B, ref-P)")
    with Store(db, read_only=True) as store:
        assert remedy(store, BED, ["BLEU", "MetricX"], ["ref-A+ref-B"]) == (
            f"{metricx}; BLEU is not computable here (the test bed has no texts) and no import "
            f"holds scores of it in test bed '{BED}': import a file that has them")
        assert remedy(store, BED, [], ["ref-A+ref-B"], "seg") == (
            f"test bed '{BED}' has no texts (scores only), so ulcdb computes no metric there: "
            "import scores against 'ref-A+ref-B'")
    said = _error(cli(db, "compare", "-m", "MetricX", "-r", "ref-A,ref-B"))
    assert said == f"Error: MetricX has no scores against 'ref-A+ref-B' in '{BED}': {metricx}"


def _elsewhere(table: Path, scores: str) -> str:
    """The clause on Ximp asked in test bed 'other', imported for 'sample' only."""
    return (f"Ximp is imported only, not computed by ulcdb and no import holds {scores} of it "
            f"in test bed 'other': it was imported for test bed 'sample' only (from {table}); "
            "import a file that has them for 'other' (`ulcdb ingest scores FILE -t other`)")


def test_a_metric_imported_for_another_test_bed_names_it_and_its_file(two_beds) -> None:
    """Ximp's scores are in test bed 'sample' only: asked in 'other', every command says so
    and names the file (it said only "no import holds scores of it in test bed 'other'")."""
    db, table = two_beds
    with Store(db, read_only=True) as store:
        assert remedy(store, "other", ["Ximp", "BLEU"], ["ref-A"], "sys") == (
            "run `ulcdb score -t other -m BLEU` first; "
            + _elsewhere(table, "sys-level scores"))
        # asked in 'sample', the import there is named as before
        assert remedy(store, "sample", ["Ximp"], ["ref-B"], "sys") == _ximp(
            table, "sys-level scores", "'ref-B'", f"ref-A, {FULL}")
    said = _error(cli(db, "compare", "-t", "other", "-m", "Ximp", "-r", "ref-A"))
    assert said == ("Error: Ximp has no scores against 'ref-A' in 'other': "
                    + _elsewhere(table, "scores"))
    said = _error(cli(db, "meta", "-t", "other", "-c", "DA-raw", "-G", "sys", "-m", "Ximp"))
    assert said == (f"Error: none of Ximp has sys-level scores against '{FULL}': "
                    + _elsewhere(table, "sys-level scores"))
    said = _error(cli(db, "queen", "-t", "other", "-m", "Ximp", "-G", "seg"))
    assert said == ("Error: no segment scores of Ximp against single references in test bed "
                    "'other' (case:mixed): " + _elsewhere(table, "seg-level scores (case:mixed)"))


def test_a_metric_imported_for_two_other_test_beds_names_both(two_beds, tmp_path) -> None:
    db, table = two_beds
    db = copy_store(db, tmp_path)
    plain = SAMPLE / "plain"
    made = cli(db, "ingest", "testbed", "--name", "third", "--source", plain / "source.es.txt",
               "--ref", f"ref-A={plain}/refs/ref-A.en.txt",
               "--sys", f"sysA={plain}/systems/sysA.en.txt")
    assert made.exit_code == 0, made.output
    other = tmp_path / "ximp-other.csv"
    other.write_text("metric,target,refset,level,value\nXimp,sysA,ref-A,sys,0.5\n"
                     "Ximp,sysB,ref-A,sys,0.25\n")
    done = cli(db, "ingest", "scores", other, "--format", "table", "-t", "other")
    assert done.exit_code == 0, done.output
    with Store(db, read_only=True) as store:
        assert remedy(store, "third", ["Ximp"], ["ref-A"], "sys") == (
            "Ximp is imported only, not computed by ulcdb and no import holds sys-level scores "
            f"of it in test bed 'third': it was imported for test beds 'other' (from {other}), "
            f"'sample' (from {table}) only; import a file that has them for 'third' (`ulcdb "
            "ingest scores FILE -t third`)")


def test_another_variant_is_no_reference_set_to_offer(sample) -> None:
    """Ximp's scores are case:mixed ones: asked for case:lc, the import has none anywhere."""
    db, table = sample
    with Store(db, read_only=True) as store:
        assert remedy(store, "sample", ["Ximp"], ["ref-B"], "sys", variant="case:lc") == _ximp(
            table, "sys-level scores (case:lc)", "'ref-B'")
        assert remedy(store, "sample", ["Ximp"], ["ref-B"], "sys", variant="case:mixed") == (
            _ximp(table, "sys-level scores (case:mixed)", "'ref-B'", f"ref-A, {FULL}"))


def test_jack_without_system_vs_system_scores(scores_only) -> None:
    """The release has MetricX and MetricY against references only: `ulcdb jack` computes
    nothing, and says where the metrics' scores come from (three files named, one counted)."""
    db, root = scores_only
    said = _error(cli(db, "jack", "-m", "MetricX,MetricY", "-G", "sys"))
    files = [str(root / "metrics" / lv / f"{m}.{lv}.tsv")
             for lv in ("seg", "sys") for m in ("MetricX", "MetricY")]
    assert said == (
        "Error: JACK needs system-vs-system scores of every metric, and MetricX, MetricY have "
        "none: MetricX, MetricY are imported only, not computed by ulcdb: their imports "
        f"({', '.join(files[:3])} and 1 more) hold no sys-level scores (case:mixed) against "
        f"any of 'sysA', 'sysB', 'sysC' in test bed '{BED}'; import a file that has them")
    with Store(db, read_only=True) as store:  # no texts: BLEU cannot be computed either
        assert "ulcdb score" not in remedy(store, BED, ["BLEU"], ["sysA"], "sys", jack=True)


def test_jack_of_a_computed_metric_says_score_jack(sample) -> None:
    db, _ = sample
    with Store(db, read_only=True) as store:
        assert remedy(store, "sample", ["BLEU"], ["sysA", "sysB"], "seg", jack=True) == (
            "run `ulcdb score --jack -t sample -m BLEU` first")


ROUGE_WHY = ("ROUGE-1.5.5 is English-only: it keeps only [A-Za-z0-9] tokens and stems with "
             "Porter's English stemmer")


def test_a_metric_scoring_refuses_for_the_target_language_is_not_offered(tmp_path) -> None:
    """A German test bed: `ulcdb score -m RG-1` is refused there (ROUGE is English-only) and
    SP-Op-* reads an English annotation by default, so the hint gives their reasons instead
    of a command that fails; NIST, which scoring computes, keeps its command."""
    db, plain = tmp_path / "de.duckdb", SAMPLE / "plain"
    made = cli(db, "ingest", "testbed", "--name", "de", "--source", plain / "source.es.txt",
               "--docs", plain / "docs.tsv", "--ref", f"ref-A={plain / 'refs/ref-A.en.txt'}",
               "--sys", f"sysA={plain / 'systems/sysA.en.txt'}",
               "--sys", f"sysB={plain / 'systems/sysB.en.txt'}",
               "--src-lang", "es", "--tgt-lang", "de")
    assert made.exit_code == 0, made.output
    with Store(db, read_only=True) as store:
        hint = remedy(store, "de", ["NIST", "RG-1", "RG-2", "SP-Op-*"], ["ref-A"], "sys")
    assert hint == (
        "run `ulcdb score -t de -m NIST` first; "
        f"RG-1, RG-2 cannot score target language 'de' ({ROUGE_WHY}); "
        "SP-Op-* cannot score target language 'de' (reads an annotation in 'en'; give "
        "--annotator-model with a de model (e.g. spaCy's de_core_news_sm) or import de "
        "annotations)")
    # what the hint says of each holds: scoring refuses RG-1 and computes NIST
    assert _error(cli(db, "score", "-t", "de", "-m", "RG-1")).endswith(ROUGE_WHY)
    assert cli(db, "score", "-t", "de", "-m", "NIST").exit_code == 0
