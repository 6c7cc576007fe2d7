"""Files in another encoding, compressed or with old line ends, through every kind of
reader (plain texts, ULC.config, score lines, score tables, assessments): one line saying
what the file is and what to do, the store left as it was (second hostile-input audit, s8).
Read as UTF-8 they met a NUL byte ('not a text file') or made one endless line."""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import refused, ulcdb

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
PLAIN = SAMPLE / "plain"
SYS_A = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8")
DA_ARGS = ["--map", "system=system", "--map", "seg_id=seg_id", "--map", "score=da_raw",
           "--map", "judge=judge", "-c", "DA-raw"]
TABLE_ARGS = ["--format", "table", "--metric", "IMP", "--ref", "ref-A", "--map",
              "target=system", "--map", "seg_id=seg_id", "--map", "value=score"]
LINES_ARGS = ["--format", "lines", "--metric", "IMP", "--target", "sysA", "--ref", "ref-A"]


@pytest.fixture
def db(sample_db: Path) -> Path:
    """The sample store (tests/conftest.py): a copy for each test."""
    return sample_db


def config_text() -> str:
    return (SAMPLE / "ULC.config").read_text(encoding="utf-8").replace("./", f"{SAMPLE}/")


def score_table() -> str:
    return "system\tseg_id\tscore\n" + "".join(f"sysA\t{i}\t0.5\n" for i in range(1, 13))


# each entry point: (file name, its text, the command's arguments after the file)
ENTRY = {
    "system": ("sysN.txt", SYS_A, None),
    "config": ("ULC.config", config_text(), ["ingest", "testbed", "--name", "c"]),
    "lines": ("scores.txt", "0.5\n" * 12, ["ingest", "scores", *LINES_ARGS]),
    "table": ("scores.tsv", score_table(), ["ingest", "scores", *TABLE_ARGS]),
    "assessments": ("da.tsv", (SAMPLE / "human" / "da.tsv").read_text(encoding="utf-8"),
                    ["ingest", "assessments", *DA_ARGS]),
}


def run_refused(db: Path, tmp_path: Path, entry: str, data: bytes) -> tuple[Path, str]:
    name, _, args = ENTRY[entry]
    path = tmp_path / name
    path.write_bytes(data)
    if args is None:
        args = ["ingest", "testbed", "--name", "sample", "--source", PLAIN / "source.es.txt",
                "--sys", f"sysN={path}"]
        return path, refused(db, *args)
    return path, refused(db, args[0], args[1], path, *args[2:])


def zipped(text: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("a.txt", text)
    return out.getvalue()


@pytest.mark.parametrize("entry", list(ENTRY))
@pytest.mark.parametrize(("encode", "said"), [
    (lambda t: t.encode("utf-16"), "is UTF-16 text (it starts with a byte order mark): the file "
                                   "must be UTF-8 (convert it, e.g. iconv -f UTF-16 -t UTF-8)"),
    (lambda t: t.encode("utf-32"), "is UTF-32 text (it starts with a byte order mark): the file "
                                   "must be UTF-8 (convert it, e.g. iconv -f UTF-32 -t UTF-8)"),
    (lambda t: t.encode("utf-16-le"), "is UTF-16LE text without a byte order mark: the file "
                                      "must be UTF-8 (convert it, e.g. iconv -f UTF-16LE -t "
                                      "UTF-8)"),
    (zipped, "is a ZIP archive (a .zip, .xlsx, .docx or .ods file?), not a text file"),
])
def test_other_encodings_and_archives_are_named(db: Path, tmp_path: Path, entry: str,
                                                encode: Callable[[str], bytes],
                                                said: str) -> None:
    path, message = run_refused(db, tmp_path, entry, encode(ENTRY[entry][1]))
    assert message == f"Error: {path}: {said}"


def test_gzip_where_text_is_read_is_named(db: Path, tmp_path: Path) -> None:
    """A plain text file given gzip-compressed: 'NUL byte at column 4: not a text file'."""
    path, message = run_refused(db, tmp_path, "system", gzip.compress(SYS_A.encode()))
    assert message == (f"Error: {path}: is gzip-compressed: this input is read as text; "
                       "decompress it first (gunzip)")


@pytest.mark.parametrize("entry", [e for e in ENTRY if e != "table"])  # pyarrow reads CR
def test_classic_mac_line_ends_are_refused(db: Path, tmp_path: Path, entry: str) -> None:
    """CR alone: a system was 'one line, expected 12', a score file one unreadable number,
    assessments Python's csv error ('do you need to open the file in universal-newline
    mode?')."""
    text = ENTRY[entry][1].replace("\n", "\r").encode()
    path, message = run_refused(db, tmp_path, entry, text)
    assert message == (f"Error: {path}:1: lines end with a carriage return (CR) alone, as "
                       "classic Mac OS wrote them: give the file LF line ends (e.g. mac2unix "
                       "FILE)")


def test_a_carriage_return_inside_a_line_is_refused(db: Path, tmp_path: Path) -> None:
    """It was stored inside segment 3, where Python and sacrebleu read two lines."""
    lines = SYS_A.split("\n")
    lines[2] = lines[2].replace(" ", "\r", 1)
    column = lines[2].index("\r") + 1
    path, message = run_refused(db, tmp_path, "system", "\n".join(lines).encode())
    assert message == (f"Error: {path}:3: a carriage return (CR) at column {column} ends no "
                       "line (other tools break the line there): remove it, or end lines "
                       "with LF")
    path, message = run_refused(db, tmp_path, "lines", b"0.5\n0.5\n0.5\r0.5\n" + b"0.5\n" * 9)
    assert message.startswith(f"Error: {path}:3: a carriage return (CR) at column 4 ends")


def test_crlf_and_a_missing_last_line_break_are_read(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "sysN.txt"
    path.write_bytes(SYS_A.replace("\n", "\r\n").rstrip("\n").encode())  # ends with a CR
    result = ulcdb(db, "ingest", "testbed", "--name", "sample", "--source",
                   PLAIN / "source.es.txt", "--sys", f"sysN={path}")
    assert result.exit_code == 0, result.output
    same = ulcdb(db, "ingest", "testbed", "--name", "sample", "--source",
                 PLAIN / "source.es.txt", "--sys", f"sysN={PLAIN / 'systems' / 'sysA.en.txt'}")
    assert "unchanged: sysN" in same.output  # the same text as the LF file: no CR kept


@pytest.mark.parametrize("written", ["Metro de\nMadrid", "Metro de&#10;Madrid",
                                     "Metro de&#13;Madrid"])
def test_a_segment_with_a_line_break_is_refused(db: Path, tmp_path: Path, written: str) -> None:
    """An XML segment over two lines (or with &#10;) was stored with its line break: every
    export and sacrebleu's input, one segment a line, then had a line too many."""
    xml = tmp_path / "broken.xml"
    text = (SAMPLE / "xml" / "sample.es-en.xml").read_text(encoding="utf-8")
    xml.write_text(text.replace("Metro de Madrid", written, 1), encoding="utf-8")
    message = refused(db, "ingest", "testbed", xml, "--name", "new")
    assert message == (f"Error: {xml}: segment 1 of the source holds a line break: a segment "
                       "is one line (of plain files, sacrebleu's input and every export)")
    sys_a = "The Madrid Metro will extend its hours"
    xml.write_text(text.replace(sys_a, sys_a.replace(" will", "\nwill"), 1), encoding="utf-8")
    message = refused(db, "ingest", "testbed", xml, "--name", "new")
    assert message == (f"Error: {xml}: segment 1 of sysA holds a line break: a segment is one "
                       "line (of plain files, sacrebleu's input and every export)")


def test_annotations_with_classic_mac_line_ends_are_refused(db: Path, tmp_path: Path) -> None:
    """The CoNLL-U and bracketed-tree readers read their lines as segment files do: one
    endless line ('not a CoNLL-U word line') became the CR message."""
    blocks = ["\n".join([f"# seg_id = {i}", *(f"{j}\t{w}\t{w}\tX\t_\t_\t0\troot\t_\t_"
                                             for j, w in enumerate(text.split(), 1))])
              for i, text in enumerate(SYS_A.splitlines(), 1)]
    path = tmp_path / "mac.conllu"
    path.write_bytes(("\n\n".join(blocks) + "\n\n").replace("\n", "\r").encode())
    message = refused(db, "ingest", "annotations", path, "--translator", "sysA", "--format",
                      "conllu")
    assert message == (f"Error: {path}:1: lines end with a carriage return (CR) alone, as "
                       "classic Mac OS wrote them: give the file LF line ends (e.g. mac2unix "
                       "FILE)")


@pytest.mark.parametrize(("entry", "stored"), [("table", "stored scores seg 12"),
                                               ("assessments", "120 stored")])
def test_a_field_longer_than_128_kib_is_read(db: Path, tmp_path: Path, entry: str,
                                             stored: str) -> None:
    """A long note column was refused as 'bad TSV quoting: field larger than field limit
    (131072)' (Python's csv module) or pyarrow's 'straddling object' past 1 MiB; a line may
    be as long as MAX_LINE (16 MiB) everywhere else."""
    name, text, args = ENTRY[entry]
    lines = text.splitlines()
    note = "x" * (3 << 20)
    lines = [lines[0] + "\tnote"] + [f"{row}\t{note if i == 5 else 'n'}"
                                     for i, row in enumerate(lines[1:], 2)]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert args is not None
    result = ulcdb(db, args[0], args[1], path, *args[2:])
    assert result.exit_code == 0, result.output
    assert stored in result.output


@pytest.mark.parametrize("entry", ["system", "lines", "assessments"])
def test_a_byte_order_mark_inside_a_file_is_refused(db: Path, tmp_path: Path,
                                                     entry: str) -> None:
    """Files joined with cat keep each one's BOM: a system's segment 5 was stored with an
    invisible U+FEFF at its head (a score or a system name then did not read); the file's
    own first BOM is still dropped."""
    lines = ENTRY[entry][1].split("\n")
    lines[4] = "\ufeff" + lines[4]
    path, message = run_refused(db, tmp_path, entry, "\n".join(lines).encode())
    assert message == (f"Error: {path}:5: a byte order mark (U+FEFF) at column 1, inside the "
                       "file: files joined with their marks? remove it")
    bom = tmp_path / "bom.txt"
    bom.write_text("\ufeff" + SYS_A, encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", "--name", "sample", "--source",
                   PLAIN / "source.es.txt", "--sys", f"sysA={bom}")
    assert "unchanged: sysA" in result.output, result.output


LATIN1 = '<?xml version="1.0" encoding="ISO-8859-1"?>\n'


def _sgml(tag: str, sysid: str, segments: list[str], declared: bool = True) -> bytes:
    """A NIST SGML file of one document, in latin-1 (with its XML declaration, or none)."""
    body = "".join(f'<seg id="{i}">{s}</seg>\n' for i, s in enumerate(segments, 1))
    text = (f'<{tag} setid="t" srclang="es" trglang="en">\n<doc docid="d1" sysid="{sysid}">\n'
            f"{body}</doc>\n</{tag}>\n")
    return ((LATIN1 if declared else "") + text).encode("latin-1")


def _sgml_set(tmp_path: Path, declared: bool) -> list[object]:
    files = {"src": _sgml("srcset", "src", ["Café con leche", "Mañana"], declared),
             "ref": _sgml("refset", "A", ["Coffee with milk", "Tomorrow"], declared),
             "sys": _sgml("tstset", "S1", ["Café au lait", "Morning"], declared)}
    for name, data in files.items():
        (tmp_path / f"{name}.sgm").write_bytes(data)
    return ["--source", tmp_path / "src.sgm", "--ref", tmp_path / "ref.sgm",
            "--sys", tmp_path / "sys.sgm"]


def test_a_file_is_read_in_the_encoding_its_declaration_names(db: Path, tmp_path: Path) -> None:
    """An SGML file whose XML declaration says ISO-8859-1 was refused as 'invalid UTF-8';
    it is read in latin-1, as the WMT XML reader (lxml) already read such a file."""
    result = ulcdb(db, "ingest", "testbed", "--name", "latin", *_sgml_set(tmp_path, True))
    assert result.exit_code == 0, result.output
    xml = tmp_path / "latin.xml"
    text = (SAMPLE / "xml" / "sample.es-en.xml").read_text(encoding="utf-8")
    xml.write_bytes(text.replace("<?xml version='1.0' encoding='utf-8'?>\n", LATIN1)
                    .encode("latin-1"))
    result = ulcdb(db, "ingest", "testbed", xml, "--name", "latin-xml")
    assert result.exit_code == 0, result.output
    from ulcdb.store.database import Store
    with Store(db, read_only=True) as store:
        sources = store.query("select t.name, s.source from segment s join testbed t "
                              "using (testbed_id) where t.name = 'latin' order by seg_id")
        texts = store.query("select x.text from translation x join translator t "
                            "using (translator_id) join testbed b using (testbed_id) "
                            "where b.name = 'latin' and t.name = 'S1' order by x.seg_id")
        same = store.query("select count(*) from segment a join segment b using (seg_id) "
                           "where a.testbed_id = (select testbed_id from testbed where name = "
                           "'sample') and b.testbed_id = (select testbed_id from testbed "
                           "where name = 'latin-xml') and a.source = b.source")
    assert sources == [("latin", "Café con leche"), ("latin", "Mañana")]
    assert texts == [("Café au lait",), ("Morning",)]
    assert same == [(12,)]  # the sample's Spanish (á, é, ñ ...) read back as written


def test_an_undeclared_latin1_file_is_still_refused(db: Path, tmp_path: Path) -> None:
    message = refused(db, "ingest", "testbed", "--name", "latin", *_sgml_set(tmp_path, False))
    assert message == (f"Error: {tmp_path / 'src.sgm'}:3: invalid UTF-8 (byte e9 at column 16): "
                       "the file must be UTF-8")


def test_malformed_xml_in_a_declared_encoding_is_named_as_malformed(db: Path,
                                                                    tmp_path: Path) -> None:
    """A latin-1 file with a tag left open was refused as 'invalid UTF-8' at its first é."""
    xml = tmp_path / "latin.xml"
    text = (SAMPLE / "xml" / "sample.es-en.xml").read_text(encoding="utf-8")
    text = text.replace("<?xml version='1.0' encoding='utf-8'?>\n", LATIN1)
    xml.write_bytes(text.replace("</dataset>", "</datasets>").encode("latin-1"))
    message = refused(db, "ingest", "testbed", xml, "--name", "new")
    assert message.startswith(f"Error: {xml}:") and ": malformed XML: " in message
