"""Hostile and malformed inputs against a store that already holds data: each refusal is one
line naming the file (and line), leaves every table exactly as it was, and nothing a user
stored is replaced without --replace."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from cli_helpers import ingest_ende, refused, ulcdb

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample"
PLAIN = SAMPLE / "plain"


@pytest.fixture
def db(sample_db: Path) -> Path:
    """The sample store (tests/conftest.py): a copy for each test."""
    return sample_db


def config_with(tmp_path: Path, old: str, new: str) -> Path:
    """The sample's ULC.config with absolute file names and ``old`` written as ``new``."""
    text = (SAMPLE / "ULC.config").read_text(encoding="utf-8").replace("./", f"{SAMPLE}/")
    assert old in text
    path = tmp_path / "ULC.config"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def set_members(db: Path, name: str) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [r[0] for r in con.execute(
            "select member from named_set_member join named_set using (set_id) "
            "where name = ? order by position", [name]).fetchall()]
    finally:
        con.close()


@pytest.mark.parametrize(("old", "new", "line"), [
    ("2_first_systems= sysA sysB", "2_first_systems= sysC sysD", 28),
    ("2_metrics_LEX= BLEU RG-L", "2_metrics_LEX= BLEU NIST", 26),
])
def test_config_does_not_redefine_stored_sets(db: Path, tmp_path: Path, old: str, new: str,
                                              line: int) -> None:
    config = config_with(tmp_path, old, new)
    message = refused(db, "ingest", "testbed", config, "--name", "sample")
    name = old.split("=")[0]
    assert f"{config}:{line}: set {name!r} is stored with other members" in message
    assert "--replace" in message
    result = ulcdb(db, "ingest", "testbed", config, "--name", "sample", "--replace")
    assert result.exit_code == 0, result.output
    assert f"sets: {name}" in result.output
    assert set_members(db, name) == new.split("= ")[1].split()


def comet_file(tmp_path: Path, name: str, scores: list[float]) -> Path:
    """comet-score output for sysA, one line per segment."""
    path = tmp_path / name
    path.write_text("".join(f"sysA\tSegment {i}\tscore: {s}\n" for i, s in enumerate(scores)),
                    encoding="utf-8")
    return path


def test_score_conflict_names_the_file_line_and_values(db: Path, tmp_path: Path) -> None:
    scores = [0.5] * 12
    first = comet_file(tmp_path, "first.txt", scores)
    result = ulcdb(db, "ingest", "scores", first, "--format", "comet", "--metric", "IMP",
                   "--ref", "ref-A")
    assert result.exit_code == 0, result.output
    scores[6] = 0.25  # segment 7, line 7
    second = comet_file(tmp_path, "second.txt", scores)
    message = refused(db, "ingest", "scores", second, "--format", "comet", "--metric", "IMP",
                      "--ref", "ref-A")
    assert message.startswith(f"Error: {second}:7: seg-level scores of 1 metric/target/"), message
    assert "IMP of sysA against ref-A" in message and "stored 0.5, here 0.25" in message


def test_xml_parser_message_with_a_line_break_is_one_line(db: Path, tmp_path: Path) -> None:
    """libxml2 ends some messages with a line break and ', line N, column M'."""
    scores = tmp_path / "IMP.xml"
    scores.write_text('<?xml version="1.0"?>\n<IQ metric="IMP" ref="ref-A" score="0.5" '
                      'target="sysA">\n<S\x00 n="1">0.5</S>\n</IQ>\n', encoding="utf-8")
    message = refused(db, "ingest", "scores", scores, "--format", "iqxml")
    assert message.startswith(f"Error: {scores}:3: not well-formed XML: Invalid character: "
                              "Char 0x0 out of allowed range"), message


def test_nul_bytes_in_text_are_refused(db: Path, tmp_path: Path) -> None:
    """A NUL byte inside a segment was stored as it was (the line count was right)."""
    text = (PLAIN / "systems" / "sysB.en.txt").read_text(encoding="utf-8").split("\n")
    text[1] = "ab\x00" + text[1]
    system = tmp_path / "sysN.en.txt"
    system.write_text("\n".join(text), encoding="utf-8")
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source",
                      PLAIN / "source.es.txt", "--sys", f"sysN={system}")
    assert message == f"Error: {system}:2: NUL byte at column 3: not a text file"
    xml = tmp_path / "nul.xml"
    xml.write_text((SAMPLE / "xml" / "sample.es-en.xml").read_text(encoding="utf-8").replace(
        "Metro de Madrid", "Metro\x00 de Madrid", 1), encoding="utf-8")
    message = refused(db, "ingest", "testbed", xml, "--name", "sample")
    assert message == f"Error: {xml}:6: NUL byte at column 29: not a text file"
    scores = tmp_path / "scores.txt"
    scores.write_text("0.5\n" * 5 + "0.\x005\n" + "0.5\n" * 6, encoding="utf-8")
    message = refused(db, "ingest", "scores", scores, "--format", "lines", "--metric", "IMP",
                      "--target", "sysA", "--ref", "ref-A")
    assert message == f"Error: {scores}:6: NUL byte at column 3: not a text file"


def test_assessment_conflict_names_the_line_and_values(db: Path, tmp_path: Path) -> None:
    da = (SAMPLE / "human" / "da.tsv").read_text(encoding="utf-8").split("\n")
    args = ["--map", "system=system", "--map", "seg_id=seg_id", "--map", "score=da_raw",
            "--map", "judge=judge", "-c", "DA-raw"]
    result = ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "da.tsv", *args)
    assert result.exit_code == 0, result.output
    assert da[3] == "sysA\t2\tJ1\t90"  # line 4
    da[3] = "sysA\t2\tJ1\t19"
    changed = tmp_path / "da.tsv"
    changed.write_text("\n".join(da), encoding="utf-8")
    message = refused(db, "ingest", "assessments", changed, *args)
    assert message == (f"Error: {changed}:4: 1 assessments are already stored with other "
                       "values (the first: stored 90, the file says 19); use --replace to replace "
                       "them")


def test_testbed_conflicts_name_the_file(db: Path, tmp_path: Path) -> None:
    """With several --sys files (or a WMT XML file) the conflict must say which file."""
    other = PLAIN / "systems" / "sysB.en.txt"
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source",
                      PLAIN / "source.es.txt", "--sys", f"sysN={PLAIN / 'systems' / 'sysC.en.txt'}",
                      "--sys", f"sysA={other}")
    assert message.startswith(f"Error: {other}: system 'sysA' already exists in test bed "
                              "'sample' with another text (first difference at segment 1)")
    source = tmp_path / "source.es.txt"
    source.write_text((PLAIN / "source.es.txt").read_text(encoding="utf-8").replace(
        "Metro", "Metropolitano", 1), encoding="utf-8")
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source", source,
                      "--sys", f"sysN={other}")
    assert message.startswith(f"Error: {source}: test bed 'sample' already exists with "
                              "another source text of segment 1;")


@pytest.mark.parametrize("dtd", [
    '<!DOCTYPE dataset [<!ENTITY x SYSTEM "file:///etc/hostname">]>',
    '<!DOCTYPE dataset [<!ENTITY x "Metro de Madrid">]>',
])
def test_wmt_xml_entity_of_a_dtd_is_refused(db: Path, tmp_path: Path, dtd: str) -> None:
    """Left unexpanded (ulcdb reads no DTD), '&x;' was stored as the source text."""
    text = (SAMPLE / "xml" / "sample.es-en.xml").read_text(encoding="utf-8")
    head, body = text.split("?>", 1)
    xml = tmp_path / "entity.xml"
    xml.write_text(f"{head}?>{dtd}{body.replace('Metro de Madrid', '&x;', 1)}",
                   encoding="utf-8")
    message = refused(db, "ingest", "testbed", xml, "--name", "x")
    assert message.startswith(f"Error: {xml}:6: entity &x; is declared in a DTD, which ulcdb "
                              "does not read"), message


def conllu_of(texts: list[str], tag: str = "X") -> str:
    """CoNLL-U of ``texts``, one sentence per segment, every word tagged ``tag``."""
    blocks = []
    for i, text in enumerate(texts, 1):
        words = [f"{j}\t{w}\t{w}\t{tag}\t_\t_\t0\troot\t_\t_"
                 for j, w in enumerate(text.split(), 1)]
        blocks.append("\n".join([f"# seg_id = {i}", *words]) + "\n")
    return "\n".join(blocks) + "\n"


def test_annotations_are_not_replaced_silently(db: Path, tmp_path: Path) -> None:
    """A second import into the same run replaced the stored annotations without a word."""
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    first = tmp_path / "first.conllu"
    first.write_text(conllu_of(texts), encoding="utf-8")
    args = ["--translator", "sysA", "--format", "conllu", "--tool", "udpipe"]
    assert ulcdb(db, "ingest", "annotations", first, *args).exit_code == 0
    again = ulcdb(db, "ingest", "annotations", first, *args)  # the same: a no-op
    assert again.exit_code == 0, again.output
    second = tmp_path / "second.conllu"
    second.write_text(conllu_of(texts, "NOUN"), encoding="utf-8")
    message = refused(db, "ingest", "annotations", second, *args)
    assert message == (f"Error: {second}:1: segment 1 already has other annotations in the "
                       "run 'udpipe'; use --replace to replace them, or --tool NAME for a run "
                       "of its own")
    result = ulcdb(db, "ingest", "annotations", second, *args, "--replace")
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    try:
        tags = con.execute("select distinct pos from ann_token").fetchall()
    finally:
        con.close()
    assert tags == [("NOUN",)]
    ptb = tmp_path / "trees.ptb"  # a new layer onto the run's tokens: added, nothing lost
    ptb.write_text("".join("(S " + " ".join(f"(X {w})" for w in t.split()) + ")\n"
                           for t in texts), encoding="utf-8")
    args[3] = "ptb"
    assert ulcdb(db, "ingest", "annotations", ptb, *args).exit_code == 0
    other = tmp_path / "other.ptb"  # another tree of segment 2 (line 2) for the same layer
    lines = ptb.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace("(X ", "(Y ", 1)
    other.write_text("".join(lines), encoding="utf-8")
    message = refused(db, "ingest", "annotations", other, *args)
    assert message.startswith(f"Error: {other}:2: segment 2 already has other annotations")


def test_conllu_word_ids_out_of_order_are_refused(db: Path, tmp_path: Path) -> None:
    """Heads point at word ids: ids 1, 3, 2 attached words to the wrong heads."""
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    text = conllu_of(texts).replace("\n2\t", "\n9\t", 1)  # line 3: the second word
    path = tmp_path / "ids.conllu"
    path.write_text(text, encoding="utf-8")
    message = refused(db, "ingest", "annotations", path, "--translator", "sysA", "--format",
                      "conllu")
    assert message == f"Error: {path}:3: word id 9 out of order (expected 2)"



@pytest.mark.parametrize(("tool", "problem"), [
    ("ud\npipe", "holds a tab, line break or other control character"),
    ("", "is empty"),
])
def test_annotation_run_name_is_checked(db: Path, tmp_path: Path, tool: str,
                                        problem: str) -> None:
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "a.conllu"
    path.write_text(conllu_of(texts), encoding="utf-8")
    message = refused(db, "ingest", "annotations", path, "--translator", "sysA", "--format",
                      "conllu", "--tool", tool)
    assert message == f"Error: {path}: the annotation run name {tool!r} {problem}"


def test_empty_metric_name_is_refused(db: Path, tmp_path: Path) -> None:
    """--metric '' was read as no option: the scores were stored as COMET."""
    path = comet_file(tmp_path, "scores.txt", [0.5] * 12)
    message = refused(db, "ingest", "scores", path, "--format", "comet", "--metric", "",
                      "--ref", "ref-A")
    assert message == f"Error: {path}: the metric name '' is empty"


def score_table(tmp_path: Path, rows: list[str], name: str = "scores.tsv") -> Path:
    """A TSV of sysA's scores (system, seg_id, score) with ``rows`` after the header."""
    path = tmp_path / name
    path.write_text("\n".join(["system\tseg_id\tscore", *rows]) + "\n", encoding="utf-8")
    return path


TABLE_ARGS = ["--format", "table", "--metric", "IMP", "--ref", "ref-A", "--map",
              "target=system", "--map", "seg_id=seg_id", "--map", "value=score"]


@pytest.mark.parametrize(("row", "problem"), [
    ("sysA\t3", "2 fields, the header has 3"),
    ("sysA 3\t0.3", "2 fields, the header has 3"),
    ("sysA\t3.5\t0.3", "seg_id '3.5' is not a whole number >= 1"),  # was read as segment 4
])
def test_score_table_row_problems_name_the_line(db: Path, tmp_path: Path, row: str,
                                                problem: str) -> None:
    rows = [f"sysA\t{i}\t0.5" for i in range(1, 13)]
    rows[2] = row  # line 4
    path = score_table(tmp_path, rows)
    assert refused(db, "ingest", "scores", path, *TABLE_ARGS) == f"Error: {path}:4: {problem}"


def test_score_table_latin1_names_the_line(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "latin1.tsv"
    rows = ["system\tseg_id\tscore"] + [f"sysA\t{i}\t0.5" for i in range(1, 13)]
    rows[5] = "sysA\xe9\t5\t0.5"
    path.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    assert refused(db, "ingest", "scores", path, *TABLE_ARGS) == (
        f"Error: {path}:6: invalid UTF-8 (byte e9 at column 5): the file must be UTF-8")


@pytest.mark.shared
def test_boxer_drs_is_not_replaced_silently(shared: Path, tmp_path: Path) -> None:
    """A second Boxer file for the same run replaced the stored DRSs without a word."""
    golden = shared / "golden" / "dr_boxer"
    db = tmp_path / "boxer.duckdb"
    ref = golden / "ref2.txt"
    made = ulcdb(db, "ingest", "testbed", "--name", "tb", "--source", ref, "--ref", f"ref={ref}")
    assert made.exit_code == 0, made.output
    args = ["--translator", "ref", "--format", "boxer-xml", "--tool", "boxer"]
    assert ulcdb(db, "ingest", "annotations", golden / "ref2.xml", *args).exit_code == 0
    again = ulcdb(db, "ingest", "annotations", golden / "ref2.xml", *args)  # the same: no-op
    assert again.exit_code == 0, again.output
    other = tmp_path / "other.xml"
    other.write_text((golden / "ref2.xml").read_text(encoding="utf-8").replace(
        'symbol="love"', 'symbol="hate"'), encoding="utf-8")
    message = refused(db, "ingest", "annotations", other, *args)
    assert message == (f"Error: {other}: <xfdrs> d1: ref's segment 1 already has another DRS "
                       "in the run 'boxer'; use --replace to replace it, or --tool NAME for "
                       "a run of its own")
    assert ulcdb(db, "ingest", "annotations", other, *args, "--replace").exit_code == 0


@pytest.mark.shared
def test_mqm_doc_id_must_match_the_test_bed(shared: Path, tmp_path: Path) -> None:
    """The doc_id column was ignored: a file numbering other segments loaded under wrong ones."""
    sample = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    db = ingest_ende(tmp_path / "ende.duckdb", sample)
    lines = (sample / "human" / "mqm_seg.tsv").read_text(encoding="utf-8").split("\n")
    assert lines[0].split("\t") == ["system", "seg_id", "orig_seg_id", "doc_id",
                                    "mqm_avg_score"]
    fields = lines[2].split("\t")  # line 3: segment 2 of the first document
    fields[3] = "another.doc"
    lines[2] = "\t".join(fields)
    path = tmp_path / "mqm.tsv"
    path.write_text("\n".join(lines), encoding="utf-8")
    message = refused(db, "ingest", "assessments", path, "--format", "mqm", "-t", "ende",
                      "--skip-unknown", "-c", "MQM2")
    assert message == (f"Error: {path}:3: segment {fields[1]} is in document "
                       "'news.com.au.796350' of test bed 'ende', the file says 'another.doc': "
                       "does it number another test bed's segments?")


def test_file_name_with_a_line_break_stays_one_line(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad\nname.txt"
    path.write_text("one line\n", encoding="utf-8")
    message = refused(db, "ingest", "testbed", "--name", "sample", "--source",
                      PLAIN / "source.es.txt", "--sys", f"sysN={path}")
    assert message.startswith(f"Error: {str(path)!r}: system 'sysN' has 1 lines, expected 12")


@pytest.mark.parametrize(("heads", "loop"), [
    ({1: 1}, "1 -> 1"),  # a word its own head
    ({1: 2, 2: 3, 3: 2}, "2 -> 3 -> 2"),  # heads that go round, word 1 hanging from them
])
def test_conllu_heads_that_go_round_are_refused(db: Path, tmp_path: Path,
                                                heads: dict[int, int], loop: str) -> None:
    """They were stored, and the tree metrics (DP, DR) read a tree that is none."""
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    lines = conllu_of(texts).split("\n")
    for word, head in heads.items():  # segment 1's words are on lines 2, 3, ...
        cols = lines[word].split("\t")
        cols[6] = str(head)
        lines[word] = "\t".join(cols)
    path = tmp_path / "loop.conllu"
    path.write_text("\n".join(lines), encoding="utf-8")
    message = refused(db, "ingest", "annotations", path, "--translator", "sysA", "--format",
                      "conllu")
    assert message == (f"Error: {path}:2: the heads of word 1 go round ({loop}): a "
                       "dependency tree has none")


def conll05_of(texts: list[str], first: list[list[str]]) -> str:
    """CoNLL-2005 props of ``texts``: segment 1's rows as given, the others predicate-free."""
    blocks = [first] + [[[w, "-"] for w in text.split()] for text in texts[1:]]
    return "\n\n".join("\n".join(" ".join(row) for row in rows) for rows in blocks) + "\n\n"


@pytest.mark.parametrize(("change", "line", "problem"), [
    # a second target word but one argument column: an IndexError's traceback
    ({5: [None, "hours", None]}, 1, "2 predicates (rows with a target word) but 1 argument "
                                    "columns"),
    # A0 opened again before it closed: the first was dropped without a word
    ({1: [None, None, "(A1*"]}, 2, "'(A1*' opens an argument while A0 (line 1) is open"),
    ({0: [None, "the", "(V*)"], 2: [None, None, "(A0*"], 4: [None, "-", "*"]}, 3,
     "argument A0 is never closed with ')'"),  # it was dropped without a word
])
def test_conll05_arguments_must_match_their_predicates(db: Path, tmp_path: Path,
                                                       change: dict[int, list[str | None]],
                                                       line: int, problem: str) -> None:
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    words = texts[0].split()  # The Madrid Metro will extend its hours ...
    rows = [[w, "-", "*"] for w in words]
    rows[0][2], rows[2][2], rows[4][1:] = "(A0*", "*)", ["extend", "(V*)"]
    for k, cells in change.items():
        rows[k] = [old if new is None else new for old, new in zip(rows[k], cells, strict=True)]
    path = tmp_path / "srl.props"
    path.write_text(conll05_of(texts, rows), encoding="utf-8")
    args = ["--translator", "sysA", "--format", "conll05"]
    message = refused(db, "ingest", "annotations", path, *args)
    assert message == f"Error: {path}:{line}: {problem}"
