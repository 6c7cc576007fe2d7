"""Names the command line could not give back, or that look like a stored name: refused with
one line naming the file, the store left as it was (second hostile-input audit, s8)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from cli_helpers import refused, ulcdb

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
SOURCE = PLAIN / "source.es.txt"
SYS_B = PLAIN / "systems" / "sysB.en.txt"


@pytest.fixture
def db(sample_db: Path) -> Path:
    """The sample store (tests/conftest.py): a copy for each test."""
    return sample_db


@pytest.mark.parametrize(("option", "name", "problem"), [
    # `-s a,b` asks for systems a and b: a system named 'a,b' was stored and never selectable
    ("--sys", "a,b", "holds a comma, which separates names on the command line (-s a,b)"),
    ("--ref", "ref-A,x", "holds a comma, which separates names on the command line (-s a,b)"),
    # a reference set is stored under its members joined by '+': 'ref-A+ref-B' was both
    ("--ref", "ref-A+ref-B", "holds '+', which joins references into a reference set "
                             "(-r ref-A+ref-B)"),
])
def test_separator_in_a_translator_name_is_refused(db: Path, option: str, name: str,
                                                   problem: str) -> None:
    role = "system" if option == "--sys" else "reference"
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source", SOURCE,
                      option, f"{name}={SYS_B}")
    assert message == f"Error: {SYS_B}: the {role} name {name!r} {problem}"


def test_an_equals_sign_in_a_translator_name_is_refused(db: Path, tmp_path: Path) -> None:
    """'a=b' from a file could never be given again: --sys a=b=FILE reads system 'a'."""
    path = tmp_path / "long.tsv"
    path.write_text("seg_id\tdoc_id\tsource\ttranslator\tkind\ttranslation\n"
                    "1\td\tuno\ta=b\tsystem\tone\n", encoding="utf-8")
    message = refused(db, "ingest", "testbed", path, "--name", "new")
    assert message == (f"Error: {path}: the system name 'a=b' holds '=', which ends the name "
                       "in --sys NAME=FILE and --rename OLD=NAME")


def test_a_system_may_hold_a_plus(db: Path) -> None:
    """'+' only joins references: a system 'a+b' is stored and scored by its name."""
    made = ulcdb(db, "ingest", "testbed", "--name", "sample", "--source", SOURCE,
                 "--sys", f"a+b={SYS_B}")
    assert made.exit_code == 0, made.output
    scored = ulcdb(db, "score", "-m", "BLEU", "-s", "a+b", "-r", "ref-A")
    assert scored.exit_code == 0, scored.output
    assert "a+b" in scored.output


@pytest.mark.parametrize(("name", "shown", "stored"), [
    ("SYSA", "'SYSA'", "'sysA'"),  # was added beside sysA: two rows no table tells apart
    (unicodedata.normalize("NFD", "sysÁ"), r"'sysA\u0301'", r"'sys\xc1'"),
])
def test_a_name_like_a_stored_one_is_refused(db: Path, tmp_path: Path, name: str, shown: str,
                                             stored: str) -> None:
    if "\u0301" in name:  # store the NFC spelling first
        first = ulcdb(db, "ingest", "testbed", "--name", "sample", "--source", SOURCE,
                      "--sys", f"{unicodedata.normalize('NFC', name)}={SYS_B}")
        assert first.exit_code == 0, first.output
    other = tmp_path / "other.txt"
    other.write_text(SYS_B.read_text(encoding="utf-8").replace("a", "e", 1), encoding="utf-8")
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source", SOURCE,
                      "--sys", f"{name}={other}")
    assert message == (f"Error: {other}: the system name {shown} differs from {stored} in "
                       "test bed 'sample' only by case or Unicode normalisation: use one "
                       "spelling")


def test_names_alike_in_one_input_and_test_beds_alike_are_refused(db: Path) -> None:
    sys_c = PLAIN / "systems" / "sysC.en.txt"
    message = refused(db, "ingest", "testbed", "--name", "new", "--source", SOURCE,
                      "--sys", f"MT={SYS_B}", "--sys", f"mt={sys_c}")
    assert message == (f"Error: {sys_c}: the system name 'mt' differs from 'MT' only by case "
                       "or Unicode normalisation: use one spelling")
    message = refused(db, "ingest", "testbed", "--name", "Sample", "--source", SOURCE,
                      "--sys", f"MT={SYS_B}")
    assert message == (f"Error: {SOURCE}: the test bed name 'Sample' differs from 'sample' in "
                       "the store only by case or Unicode normalisation: use one spelling")


DA = Path(__file__).resolve().parents[2] / "sample" / "human" / "da.tsv"
DA_MAP = ["--map", "system=system", "--map", "seg_id=seg_id", "--map", "score=da_raw",
          "--map", "judge=judge"]


@pytest.mark.parametrize(("criterion", "problem"), [
    ("DA\traw", "holds a tab, line break or other control character"),
    (" DA", "starts or ends with white space"),  # stored as ' DA': `meta -c DA` found none
])
def test_criterion_names_are_checked(db: Path, criterion: str, problem: str) -> None:
    message = refused(db, "ingest", "assessments", DA, *DA_MAP, "-c", criterion)
    assert message == f"Error: {DA}:2: the criterion name {criterion!r} {problem}"


def _criterion_column(tmp_path: Path, line: int, name: str) -> Path:
    """The DA file with a criterion column: DA on every row but ``line``, which has ``name``."""
    lines = DA.read_text(encoding="utf-8").splitlines()
    rows = [lines[0] + "\tcrit"] + [f"{row}\tDA" for row in lines[1:]]
    rows[line - 1] = rows[line - 1].replace("\tDA", f"\t{name}")
    path = tmp_path / "crit.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_criterion_column_names_the_line_of_a_bad_name(db: Path, tmp_path: Path) -> None:
    path = _criterion_column(tmp_path, 6, "D\u0007A")
    message = refused(db, "ingest", "assessments", path, *DA_MAP, "--map", "criterion=crit")
    assert message == (f"Error: {path}:6: the criterion name 'D\\x07A' holds a tab, line "
                       "break or other control character")


def test_a_criterion_may_hold_a_comma(db: Path) -> None:
    """No option lists criteria: the comma rule of system and metric names is not theirs."""
    result = ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", "DA,raw")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", ["da-raw", "DA-RAW", unicodedata.normalize("NFD", "DA-raw\u00e9")])
def test_a_criterion_named_like_a_stored_one_is_refused(db: Path, name: str) -> None:
    """`-c DA-raw` then `-c da-raw` stored two criteria, which `meta -c DA-raw` told apart
    silently; as every other name, a look-alike of a stored criterion is refused."""
    stored = "DA-raw\u00e9" if name.startswith("DA-raw") else "DA-raw"
    assert ulcdb(db, "ingest", "assessments", DA, *DA_MAP, "-c", stored).exit_code == 0
    message = refused(db, "ingest", "assessments", DA, *DA_MAP, "-c", name)
    show = ascii if stored.startswith("DA-raw\u00e9") else repr
    assert message == (f"Error: {DA}:2: the criterion name {show(name)} differs from "
                       f"{show(stored)} in test bed 'sample' only by case or Unicode "
                       "normalisation: "
                       "use one spelling")


def test_a_criterion_column_with_look_alike_names_is_refused(db: Path, tmp_path: Path) -> None:
    path = _criterion_column(tmp_path, 7, "da")
    message = refused(db, "ingest", "assessments", path, *DA_MAP, "--map", "criterion=crit")
    assert message == (f"Error: {path}:7: the criterion name 'da' differs from 'DA' of this "
                       "file only by case or Unicode normalisation: use one spelling")


LINES = ["--format", "lines", "--target", "sysA", "--ref", "ref-A"]


@pytest.mark.parametrize(("first", "name", "other", "whose"), [
    (None, "bleu", "BLEU", "a metric ulcdb computes"),  # was a metric 'bleu' beside BLEU
    ("Imp", "IMP", "Imp", "a stored metric"),
])
def test_a_new_metric_named_like_another_is_refused(db: Path, tmp_path: Path, first: str | None,
                                                    name: str, other: str, whose: str) -> None:
    scores = tmp_path / "scores.txt"
    scores.write_text("0.5\n" * 12, encoding="utf-8")
    if first is not None:
        made = ulcdb(db, "ingest", "scores", scores, *LINES, "--metric", first)
        assert made.exit_code == 0, made.output
    message = refused(db, "ingest", "scores", scores, *LINES, "--metric", name)
    assert message == (f"Error: {scores}: the metric name {name!r} differs from {other!r} "
                       f"({whose}) only by case or Unicode normalisation: name it {other!r} "
                       f"(--rename {name}={other} or --metric) or otherwise")


@pytest.mark.parametrize(("name", "how"), [
    # the sample's ULC.config stores the set 2_metrics_LEX (BLEU, RG-L): -m 2_metrics_LEX
    # chose an imported metric of that name and the set was no longer reachable
    ("2_metrics_LEX", "is the name of a metric set: -m 2_metrics_LEX would choose this "
                      "metric, no longer the set's members"),
    ("GTM", "is the name of a metric set: -m GTM would choose this metric, no longer the "
            "set's members"),  # a built-in set (GTM-1, GTM-2, GTM-3)
    ("Metrics_lex", "differs from the metric set 'metrics_LEX' only by case or Unicode "
                    "normalisation: -m Metrics_lex and -m metrics_LEX would differ by that "
                    "alone"),
])
def test_a_new_metric_named_like_a_metric_set_is_refused(db: Path, tmp_path: Path, name: str,
                                                         how: str) -> None:
    scores = tmp_path / "scores.txt"
    scores.write_text("0.5\n" * 12, encoding="utf-8")
    message = refused(db, "ingest", "scores", scores, *LINES, "--metric", name)
    assert message == (f"Error: {scores}: the metric name {name!r} {how}; name it otherwise "
                       f"(--rename {name}=NEW or --metric)")


@pytest.mark.parametrize(("line", "how"), [
    ("GTM-2= BLEU NIST", "the metric set name 'GTM-2' is a metric's name: -m GTM-2 would choose "
                         "the metric, never the set"),
    ("bleu= BLEU NIST", "the metric set name 'bleu' differs from the metric 'BLEU' only by case "
                        "or Unicode normalisation: -m bleu and -m BLEU would differ by that "
                        "alone"),
])
def test_a_metric_set_named_like_a_metric_is_refused(db: Path, tmp_path: Path, line: str,
                                                     how: str) -> None:
    """A ULC.config set named like a metric: -m chose the metric, the set was never used."""
    config = (PLAIN.parent / "ULC.config").read_text(encoding="utf-8")
    config = config.replace("./plain/", f"{PLAIN}/").replace("2_metrics_LEX= BLEU RG-L", line)
    path = tmp_path / "ULC.config"
    path.write_text(config, encoding="utf-8")
    number = config.splitlines().index(line) + 1
    message = refused(db, "ingest", "testbed", path, "--name", "other")
    assert message == f"Error: {path}:{number}: {how}; name the set otherwise"


def test_a_defined_set_named_like_a_metric_is_refused(db: Path) -> None:
    message = refused(db, "set", "define", "metric", "bleu", "BLEU", "NIST")
    assert message == ("Error: 'bleu' differs from the metric or built-in metric set 'BLEU' "
                       "only by case or Unicode normalisation: -m bleu and -m BLEU would differ "
                       "by that alone; choose another set name")


@pytest.mark.parametrize(("kind", "first", "second", "members"), [
    ("metric", "Mine", "mine", ("BLEU", "NIST")),
    ("system", "pair", "PAIR", ("sysA", "sysB")),
    ("segment", "start", "START", ("1-3",))])
def test_a_set_named_like_a_stored_set_is_refused(db: Path, kind: str, first: str, second: str,
                                                  members: tuple[str, ...]) -> None:
    """set define metric Mine, then mine: two sets -m Mine and -m mine told apart by case
    alone.  Redefining the set under its own name still works."""
    assert ulcdb(db, "set", "define", kind, first, *members).exit_code == 0
    message = refused(db, "set", "define", kind, second, *members)
    assert message == (f"Error: {second!r} differs from the stored {kind} set {first!r} only "
                       f"by case or Unicode normalisation; redefine {first!r} or choose another "
                       "set name")
    again = ulcdb(db, "set", "define", kind, first, *members[:1])
    assert again.exit_code == 0, again.output


def test_document_ids_are_checked(db: Path, tmp_path: Path) -> None:
    """'madrid-metro ' was stored: an assessment file's 'madrid-metro' then named no
    document, and a docs file with the blank on one line only was refused with a seg_in_doc
    message about two documents that look the same."""
    docs = tmp_path / "docs.tsv"
    docs.write_text((PLAIN / "docs.tsv").read_text(encoding="utf-8").replace(
        "madrid-metro", "madrid-metro "), encoding="utf-8")
    message = refused(db, "ingest", "testbed", "--name", "new", "--source", SOURCE,
                      "--sys", f"MT={SYS_B}", "--docs", docs)
    assert message == (f"Error: {docs}:2: the document name 'madrid-metro ' starts or ends "
                       "with white space")
    xml = tmp_path / "sample.xml"
    xml.write_text((PLAIN.parent / "xml" / "sample.es-en.xml").read_text(
        encoding="utf-8").replace('id="prado-goya"', 'id="prado\u0085goya"'), encoding="utf-8")
    message = refused(db, "ingest", "testbed", xml, "--name", "new")
    assert message == (f"Error: {xml}: the document name 'prado\\x85goya' holds a tab, line "
                       "break or other control character")
    long_id = "news." + "x" * 300  # a document id may be long (the data's own ids)
    docs.write_text("".join(f"{long_id if i < 5 else 'other'}\n" for i in range(1, 13)),
                    encoding="utf-8")
    made = ulcdb(db, "ingest", "testbed", "--name", "new", "--source", SOURCE,
                 "--sys", f"MT={SYS_B}", "--docs", docs)
    assert made.exit_code == 0, made.output


def test_a_set_named_like_a_translator_is_refused(db: Path) -> None:
    """A system set 'SYSA' of sysB was defined: -s SYSA then scored sysB."""
    message = refused(db, "set", "define", "system", "SYSA", "sysB")
    assert message == ("Error: 'SYSA' differs from the system or reference 'sysA' only by case "
                       "or Unicode normalisation; choose another set name")


@pytest.mark.parametrize(("systems", "line", "problem"), [
    (["Online-A", "online-A"], 2, "the system name 'online-A' differs from 'Online-A' only by "
                                  "case or Unicode normalisation: use one spelling"),
    (["a=b", "B"], 1, "the system name 'a=b' holds '=', which ends the name in --sys "
                      "NAME=FILE and --rename OLD=NAME"),
])
def test_wmt_created_translators_are_checked(tmp_path: Path, systems: list[str], line: int,
                                             problem: str) -> None:
    """--create-testbed made a translator of every WMT system as written: both spellings."""
    details = tmp_path / "de-en.txt"
    details.write_text("".join(f"{i}\tt\tde-en\td\t{i}\n" for i in range(1, 3)),
                       encoding="utf-8")
    scores = tmp_path / "M.sys.tsv"
    scores.write_text("".join(f"M\tde-en\tt\tref\t{s}\t0.5\n" for s in systems),
                      encoding="utf-8")
    db = tmp_path / "wmt.duckdb"  # a store holding something, to compare before and after
    assert ulcdb(db, "ingest", "testbed", "--name", "other", "--source", SOURCE,
                 "--sys", f"MT={SYS_B}").exit_code == 0
    message = refused(db, "ingest", "scores", scores, "--format", "wmt", "--create-testbed",
                      "--details", details)
    assert message == f"Error: {scores}:{line}: {problem}"


@pytest.mark.parametrize("option", ["--src-lang", "--tgt-lang"])
def test_an_empty_language_option_is_refused(db: Path, option: str) -> None:
    """--tgt-lang '' was read as no option (as --metric '' was), the language guessed."""
    message = refused(db, "ingest", "testbed", "--name", "new", "--source", SOURCE,
                      "--sys", f"MT={SYS_B}", option, "")
    assert message == f"Error: {SOURCE}: {option} '' is empty"
