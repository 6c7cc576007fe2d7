"""Readers: plain text, NIST SGML, WMT XML, mt-metrics-eval folders and ULC/IQMT configs.

Small inputs are written inline into ``tmp_path``; every bad-input case checks that the error
names the file and, where there is one, the line.  The last tests read ../shared when present.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ulcdb.errors import InputError
from ulcdb.formats.nist.sgml import decode_entities, read_sgml
from ulcdb.formats.plain import read_plain
from ulcdb.formats.ulcconfig import read_ulc_config
from ulcdb.formats.wmt.metrics_task import check_raw_values, read_wmt_raw
from ulcdb.formats.wmt.xml_testbed import read_wmtxml
from ulcdb.ingest.mtme_testbeds import read_mtme
from ulcdb.ingest.textio import read_lines


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))
    return path


@contextmanager
def raises_at(path: Path, line: int | None, *words: str) -> Iterator[None]:
    """Expect an InputError naming ``path`` (and ``line``) whose message has ``words``."""
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    with pytest.raises(InputError) as info:
        yield
    message = str(info.value)
    assert message.startswith(where), message
    for word in words:
        assert word in message, (word, message)


def texts(data, name: str) -> list[str]:
    return next(t.texts for t in data.translators if t.name == name)


# ---------------------------------------------------------------------------- text files


def test_read_lines_keeps_lines_raw(tmp_path):
    path = write(tmp_path, "a.txt", "\ufeff one  \r\ntwo\x0cstill two\u2028same\n\n last")
    assert read_lines(path) == [" one  ", "two\x0cstill two\u2028same", "", " last"]


def test_read_lines_invalid_utf8_names_line_and_column(tmp_path):
    path = write(tmp_path, "bad.txt", b"fine\nalso fine\nbr\xffoken\n")
    with raises_at(path, 3, "invalid UTF-8", "ff", "column 3"):
        read_lines(path)


def test_read_lines_empty_and_missing(tmp_path):
    empty = write(tmp_path, "empty.txt", "")
    with raises_at(empty, None, "empty"):
        read_lines(empty)
    with raises_at(tmp_path / "nope.txt", None, "not found"):
        read_lines(tmp_path / "nope.txt")


# ---------------------------------------------------------------------------- plain


@pytest.fixture
def plain_bed(tmp_path) -> dict[str, Path]:
    return {
        "src": write(tmp_path, "src.txt", "Hello world .\nA  second\tline \nThird\n"),
        "ref": write(tmp_path, "ref.txt", "Hallo Welt .\r\nEine zweite Zeile\r\nDritte\r\n"),
        "sys": write(tmp_path, "sys.txt", "Hallo Welt\n\nDritte \n"),
    }


def test_plain_without_docs(plain_bed):
    data = read_plain("tb", plain_bed["src"], {"ref-A": plain_bed["ref"]},
                      {"S1": plain_bed["sys"]}, src_lang="en", tgt_lang="de")
    assert (data.name, data.src_lang, data.tgt_lang) == ("tb", "en", "de")
    assert [d.doc_id for d in data.documents] == ["tb"]
    assert [(s.seg_id, s.doc_id, s.seg_in_doc) for s in data.segments] == [
        (1, "tb", 1), (2, "tb", 2), (3, "tb", 3)]
    assert data.segments[1].source == "A  second\tline "
    assert texts(data, "ref-A") == ["Hallo Welt .", "Eine zweite Zeile", "Dritte"]
    assert texts(data, "S1") == ["Hallo Welt", "", "Dritte "]
    assert [(t.role, t.origin) for t in data.translators] == [
        ("reference", str(plain_bed["ref"])), ("system", str(plain_bed["sys"]))]


def test_plain_docs_tsv(tmp_path, plain_bed):
    docs = write(tmp_path, "docs.tsv", "seg_id\tdoc_id\tseg_in_doc\torig_lang\tgenre\tx\n"
                 "3\td2\t1\tde\tnews\t9\n1\td1\t1\ten\t\t7\n2\td1\t2\ten\t\t8\n")
    data = read_plain("tb", plain_bed["src"], {}, {}, docs)
    assert [(d.doc_id, d.origlang, d.genre) for d in data.documents] == [
        ("d1", "en", None), ("d2", "de", "news")]
    assert [(s.doc_id, s.seg_in_doc) for s in data.segments] == [("d1", 1), ("d1", 2), ("d2", 1)]


def test_plain_docs_mtme_and_one_per_line(tmp_path, plain_bed):
    mtme = write(tmp_path, "en-de.docs", "news d1\nnews d1\nsocial d2\n")
    data = read_plain("tb", plain_bed["src"], {}, {}, mtme)
    assert [(d.doc_id, d.domain) for d in data.documents] == [("d1", "news"), ("d2", "social")]
    single = write(tmp_path, "docs.txt", "a\nb\nb\n")
    data = read_plain("tb", plain_bed["src"], {}, {}, single)
    assert [(s.doc_id, s.seg_in_doc) for s in data.segments] == [("a", 1), ("b", 1), ("b", 2)]


def test_plain_line_count_mismatch(tmp_path, plain_bed):
    short = write(tmp_path, "short.txt", "one\ntwo\n")
    with raises_at(short, None, "'S2'", "2 lines, expected 3", str(plain_bed["src"])):
        read_plain("tb", plain_bed["src"], {}, {"S2": short})


def test_plain_bad_files(tmp_path, plain_bed):
    empty = write(tmp_path, "empty.txt", b"")
    with raises_at(empty, None, "empty"):
        read_plain("tb", plain_bed["src"], {"r": empty}, {})
    broken = write(tmp_path, "broken.txt", b"ok\n\xc3\x28\nok\n")
    with raises_at(broken, 2, "invalid UTF-8"):
        read_plain("tb", plain_bed["src"], {}, {"S": broken})
    with raises_at(plain_bed["sys"], None, "'same'", "reference", "system"):
        read_plain("tb", plain_bed["src"], {"same": plain_bed["ref"]}, {"same": plain_bed["sys"]})


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        ("seg_id\tdoc_id\n1\ta\n2\tb\n3\ta\n", 4, ["'a'", "not contiguous"]),
        ("seg_id\tdoc_id\n1\ta\n1\ta\n3\ta\n", 3, ["seg_id 1 already given on line 2"]),
        ("seg_id\tdoc_id\n1\ta\n2\ta\n", None, ["first seg_id 3"]),
        ("seg_id\tdoc_id\n1\ta\n2\ta\n9\ta\n", 4, ["outside 1..3"]),
        ("seg_id\tdoc_id\n1\ta\nx\ta\n3\ta\n", 3, ["must be a number"]),
        ("seg_id\tdoc_id\tseg_in_doc\n1\ta\t1\n2\ta\t5\n3\ta\t3\n", 3, ["seg_in_doc is 5"]),
        ("seg_id\tdoc_id\torig_lang\n1\ta\ten\n2\ta\tde\n3\ta\ten\n", 3, ["origlang 'de'"]),
        ("seg_id\tdoc_id\n1\ta\n2\n3\ta\n", 3, ["1 fields, expected 2"]),
        ("news a\nnews a\nb\n", 3, ["'DOMAIN DOCID'"]),
        ("a\nb\n", None, ["2 lines, expected 3"]),
        ("a b c\nx\ny\n", 1, ["seg_id and doc_id"]),
    ],
)
def test_plain_bad_docs(tmp_path, plain_bed, content, line, words):
    docs = write(tmp_path, "docs.tsv", content)
    with raises_at(docs, line, *words):
        read_plain("tb", plain_bed["src"], {}, {}, docs)


# ---------------------------------------------------------------------------- SGML

SRC_SGM = """\
<srcset setid="mt08" srclang="Arabic">
<DOC docid="d1" genre="nw" sysid="src">
<hl><seg id=1>Head &amp; line</seg></hl>
<p>
<seg id="2"> Fish &amp;amp; chips & co &lt;b&gt; </seg>
<seg id="3">no closing tag
</p>
</DOC>
<doc docid="d2" genre="wb">
<seg id="1">second
 doc</seg>
</doc>
</srcset>
"""

REF_SGM = """\
<refset setid="mt08" srclang="Arabic" trglang="English">
<doc docid="d2" sysid="ref1"><seg id="1">R two</seg></doc>
<doc docid="d1" sysid="ref1">
<seg id=3>R three</seg><seg id=1>R one</seg><seg id=2>R &quot;two&quot;</seg>
</doc>
</refset>
"""

TST_SGM = """\
<tstset setid="mt08" srclang="Arabic" trglang="English">
<doc docid="d1" sysid="sysA"><seg id=1>A1</seg><seg id=2>A2</seg><seg id=3>A3</seg></doc>
<doc docid="d2" sysid="sysA"><seg id=1>A4</seg></doc>
<doc docid="d1" sysid='sysB'><seg id=1>B1</seg><seg id=2>B2 <i>x</i></seg><seg id=3>B3</seg></doc>
<doc docid="d2" sysid=sysB><seg id=1>B4</seg></doc>
</tstset>
"""


@pytest.fixture
def sgml_bed(tmp_path) -> dict[str, Path]:
    return {"src": write(tmp_path, "src.sgm", SRC_SGM), "ref": write(tmp_path, "ref.sgm", REF_SGM),
            "tst": write(tmp_path, "tst.sgm", TST_SGM)}


def test_sgml_reads_lenient_files(sgml_bed):
    data = read_sgml("mt08", sgml_bed["src"], [sgml_bed["ref"]], [sgml_bed["tst"]])
    assert (data.src_lang, data.tgt_lang) == ("ar", "en")  # NIST names, as ISO 639-1 codes
    assert [(d.doc_id, d.genre) for d in data.documents] == [("d1", "nw"), ("d2", "wb")]
    assert [(s.seg_id, s.doc_id, s.seg_in_doc, s.source) for s in data.segments] == [
        (1, "d1", 1, "Head & line"),
        (2, "d1", 2, "Fish &amp; chips & co <b>"),
        (3, "d1", 3, "no closing tag"),
        (4, "d2", 1, "second doc"),
    ]
    assert [(t.name, t.role) for t in data.translators] == [
        ("ref1", "reference"), ("sysA", "system"), ("sysB", "system")]
    assert texts(data, "ref1") == ["R one", 'R "two"', "R three", "R two"]
    assert texts(data, "sysB") == ["B1", "B2 <i>x</i>", "B3", "B4"]


def test_decode_entities_is_one_pass():
    assert decode_entities("&amp;lt; &apos;x&apos; &nbsp; AT&T") == "&lt; 'x' &nbsp; AT&T"


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        ('<doc docid="d9" sysid="s"><seg id=1>x</seg></doc>\n', 1, ["unknown docid 'd9'"]),
        ('<doc docid="d2" sysid="s">\n<seg id=7>x</seg></doc>\n', 2, ["unknown seg id 7"]),
        ('<doc docid="d2" sysid="s"><seg id=1>x</seg></doc>\n', None,
         ["'s' has no document 'd1'", "line 2"]),
        ('<doc docid="d2" sysid="s"><seg id=1>x</seg></doc>\n'
         '<doc docid="d1" sysid="s">\n<seg id=1>a</seg><seg id=3>c</seg></doc>\n', 2,
         ["'d1' of 's' lacks seg id(s) 2"]),
        ('<doc docid="d2" sysid="s"><seg id=1>x</seg></doc>\n'
         '<doc docid="d2" sysid="s"><seg id=1>y</seg></doc>\n', 2,
         ["duplicate docid 'd2'", "first on line 1"]),
        ('<doc docid="d2" sysid="s">\n<seg id=1>x</seg>\n<seg id=1>y</seg></doc>\n', 3,
         ["duplicate seg id 1", "first on line 2"]),
        ('<tstset>\n<seg id=1>x</seg>\n', 2, ["<seg> outside a <doc>"]),
        ('<tstset>\n\n<doc sysid="s"><seg id=1>x</seg></doc>\n', 3, ["without a docid"]),
        ('<doc docid="d2"><seg id=1>x</seg></doc>\n', 1, ["without a sysid"]),
        ('<doc docid="d2" sysid="s"><seg>x</seg></doc>\n', 1, ["without an id"]),
        ('<doc docid="d2" sysid="s"><seg id=1>x</seg>\n</seg></doc>\n', 2, ["</seg> without"]),
        ('<doc docid="d2" sysid="s">\n</doc>\n', 1, ["has no <seg>"]),
        ('<tstset trglang="en">\n</tstset>\n', None, ["no <doc> found"]),
        ('<tstset trglang="French">\n<doc docid="d2" sysid="s"><seg id=1>x</seg></doc>\n', 1,
         ["trglang 'French' differs from 'English'"]),
        (b'<doc docid="d1" sysid="s">\n<seg id=1>\xe9</seg></doc>\n', 2, ["invalid UTF-8"]),
    ],
)
def test_sgml_bad_inputs(tmp_path, sgml_bed, content, line, words):
    bad = write(tmp_path, "bad.sgm", content)
    with raises_at(bad, line, *words):
        read_sgml("mt08", sgml_bed["src"], [sgml_bed["ref"]], [bad])


def test_sgml_sysid_used_twice(sgml_bed):
    with raises_at(sgml_bed["tst"], None, "sysid 'sysA' is already used"):
        read_sgml("mt08", sgml_bed["src"], [sgml_bed["tst"]], [sgml_bed["tst"]])


def test_sgml_duplicate_source_doc(tmp_path):
    src = write(tmp_path, "src.sgm", '<doc docid="a"><seg id=1>x</seg></doc>\n'
                '<doc docid="a"><seg id=1>y</seg></doc>\n')
    with raises_at(src, 2, "duplicate docid 'a'"):
        read_sgml("t", src, [], [])


# ---------------------------------------------------------------------------- WMT XML

WMT_XML = """\
<?xml version='1.0' encoding='utf-8'?>
<dataset id="newstest2099">
 <collection id="general">
  <doc id="d1" origlang="en" domain="news">
   <src lang="en"><p><seg id="1">One &amp; one</seg><seg id="2"> Two </seg></p></src>
   <ref lang="de" translator="A"><p><seg id="1">Eins</seg><seg id="2">Zwei</seg></p></ref>
   <ref lang="de" translator="B"><p><seg id="2">ZweiB</seg><seg id="1">EinsB</seg></p></ref>
   <hyp lang="de" system="sys1"><p><seg id="1">E</seg></p><p><seg id="2"></seg></p></hyp>
  </doc>
  <doc id="d2" origlang="de">
   <src lang="en"><p><seg id="1">Three</seg></p></src>
   <ref lang="de" translator="A"><p><seg id="1">Drei</seg></p></ref>
   <ref lang="de" translator="B"><p><seg id="1">DreiB</seg></p></ref>
   <hyp lang="de" system="sys1"><p><seg id="1">D</seg></p></hyp>
  </doc>
  <doc id="ts1" origlang="en" testsuite="ts">
   <src lang="en"><p><seg id="1">Suite</seg></p></src>
   <ref lang="de" translator="A"><p><seg id="1">Suite</seg></p></ref>
   <hyp lang="de" system="sys1"><p><seg id="1">S</seg></p></hyp>
  </doc>
 </collection>
</dataset>
"""


def test_wmtxml_reads_and_skips_testsuites(tmp_path):
    path = write(tmp_path, "test.xml", WMT_XML)
    data = read_wmtxml("nt", path)
    assert (data.src_lang, data.tgt_lang, data.origin) == ("en", "de", str(path))
    assert [(d.doc_id, d.origlang, d.domain) for d in data.documents] == [
        ("d1", "en", "news"), ("d2", "de", None)]
    assert [(s.seg_id, s.doc_id, s.seg_in_doc, s.source) for s in data.segments] == [
        (1, "d1", 1, "One & one"), (2, "d1", 2, " Two "), (3, "d2", 1, "Three")]
    assert [(t.name, t.role) for t in data.translators] == [
        ("ref-A", "reference"), ("ref-B", "reference"), ("sys1", "system")]
    assert texts(data, "ref-B") == ["EinsB", "ZweiB", "DreiB"]
    assert texts(data, "sys1") == ["E", "", "D"]


def test_wmtxml_incomplete_translator(tmp_path):
    path = write(tmp_path, "test.xml", WMT_XML)
    with raises_at(path, 16, "'ref-B' is missing from 1 of 3 documents", "'ts1'"):
        read_wmtxml("nt", path, include_testsuites=True)
    data = read_wmtxml("nt", path, include_testsuites=True, drop_incomplete=True)
    assert [t.name for t in data.translators] == ["ref-A", "sys1"]
    assert len(data.segments) == 4


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ('<seg id="2">Zwei</seg>', '<seg id="2">Zwei</sag>', 6, ["malformed XML", "sag"]),
        ('<seg id="2">Zwei</seg>', '<seg id="9">Zwei</seg>', 6, ["unknown seg id 9", "'ref-A'"]),
        ('<seg id="2">Zwei</seg>', "", 6, ["'ref-A' lacks seg id(s) 2"]),
        ('<seg id="2">Zwei</seg>', '<seg id="1">Zwei</seg>', 6, ["duplicate seg id 1"]),
        ('<doc id="d2"', '<doc id="d1"', 10, ["duplicate doc id 'd1'", "first on line 4"]),
        ('<hyp lang="de" system="sys1"><p><seg id="1">D', '<hyp lang="de"><p><seg id="1">D', 14,
         ["<hyp> without a system"]),
        ('<ref lang="de" translator="B"><p><seg id="1">DreiB</seg></p></ref>', "", 10,
         ["'ref-B' is missing from 1 of 2 documents", "'d2'"]),
        ('<src lang="en"><p><seg id="1">Three', '<src lang="fr"><p><seg id="1">Three', 11,
         ["src lang 'fr' differs from 'en'"]),
        ('Eins</seg>', 'Eins\udcff</seg>', 6, ["invalid UTF-8"]),
    ],
)
def test_wmtxml_bad_inputs(tmp_path, old, new, line, words):
    assert old in WMT_XML
    content = WMT_XML.replace(old, new, 1).encode("utf-8", "surrogateescape")
    path = write(tmp_path, "bad.xml", content)
    with raises_at(path, line, *words):
        read_wmtxml("nt", path)


def test_wmtxml_without_documents(tmp_path):
    path = write(tmp_path, "none.xml", '<dataset id="x">\n</dataset>\n')
    with raises_at(path, 1, "no <doc>"):
        read_wmtxml("nt", path)


# ---------------------------------------------------------------------------- mt-metrics-eval


@pytest.fixture
def mtme_root(tmp_path) -> Path:
    root = tmp_path / "wmt99.news"
    write(root, "sources/en-de.txt", "a\nb\nc\n")
    write(root, "sources/zh-en.txt", "x\n")
    write(root, "documents/en-de.docs", "news d1\nnews d1\nbio d2\n")
    write(root, "references/en-de.refA.txt", "A1\nA2\nA3\n")
    write(root, "references/en-de.refB.txt", "B1\nB2\nB3\n")
    write(root, "system-outputs/en-de/refA.txt", "A1 \nA2\nA3\n")
    write(root, "system-outputs/en-de/Online-B.txt", "O1\nO2\nO3\n")
    return root


def test_mtme_reads_layout(mtme_root):
    data = read_mtme(mtme_root, "en-de")
    assert (data.name, data.src_lang, data.tgt_lang) == ("wmt99.news:en-de", "en", "de")
    assert [(d.doc_id, d.domain) for d in data.documents] == [("d1", "news"), ("d2", "bio")]
    assert [(t.name, t.role) for t in data.translators] == [
        ("refA", "reference"), ("refB", "reference"), ("Online-B", "system")]
    assert texts(data, "refA") == ["A1", "A2", "A3"]
    assert read_mtme(mtme_root, "en-de", name="nt").name == "nt"


def test_mtme_errors(mtme_root):
    copy = write(mtme_root, "system-outputs/en-de/refB.txt", "B1\nBX\nB3\n")
    with raises_at(copy, 2, "'refB' has the name of a reference but differs"):
        read_mtme(mtme_root, "en-de")
    copy.unlink()
    short = write(mtme_root, "system-outputs/en-de/Short.txt", "S1\n")
    with raises_at(short, None, "1 lines, expected 3"):
        read_mtme(mtme_root, "en-de")
    with raises_at(mtme_root / "sources" / "de-en.txt", None, "en-de, zh-en"):
        read_mtme(mtme_root, "de-en")
    with raises_at(mtme_root, None, "language pair"):
        read_mtme(mtme_root, "ende")


# ---------------------------------------------------------------------------- ULC config

ULC_CONFIG = """\
#-- path to ULC
PATH=/home/me/ulc-0.4.2
LANG=ENG
CASE=lc
INPUT=raw
src=data/source.txt
ref=data/ref0.txt
ref=data/ref1.txt
sys=data/system01.txt
system=data/system02.txt
metrics_LEX= RG-W-1.2 MTR-wnsyn
2_metrics_SR= SR-Or-* SR-Mr-*-b
2_first_systems=S0 S1
ref_0=R0
refs_by_name= ref1 ref0
some_segs= 1-2, 3
others= BLEU-4 NIST-5
metrics_all= BLEU
    GTM-2
\tNIST-5
doBLEU BLEU-4
doGTM
"""


@pytest.fixture
def ulc_dir(tmp_path) -> Path:
    for name in ("source", "ref0", "ref1", "system01", "system02"):
        write(tmp_path, f"data/{name}.txt", f"{name} 1\n{name} 2\n{name} 3\n")
    return tmp_path


def test_ulc_config_raw(ulc_dir):
    config = write(ulc_dir, "ULC.config", ULC_CONFIG)
    data = read_ulc_config(config)
    assert data.name == ulc_dir.name and data.origin == str(config)
    assert data.tgt_lang == "en"
    assert data.options == {"CASE": "lc", "LANG": "ENG", "INPUT": "raw"}
    assert [(t.name, t.role) for t in data.translators] == [
        ("ref0", "reference"), ("ref1", "reference"),
        ("system01", "system"), ("system02", "system")]
    assert texts(data, "system02") == ["system02 1", "system02 2", "system02 3"]
    assert [(s.kind, s.name, s.members) for s in data.sets] == [
        ("metric", "metrics_LEX", ["RG-W-1.2", "MTR-wnsyn"]),
        ("metric", "2_metrics_SR", ["SR-Or-*", "SR-Mr-*-b"]),
        ("system", "2_first_systems", ["system01", "system02"]),
        ("reference", "ref_0", ["ref0"]),
        ("reference", "refs_by_name", ["ref1", "ref0"]),
        ("segment", "some_segs", ["1", "2", "3"]),
        ("metric", "others", ["BLEU-4", "NIST-5"]),
        ("metric", "metrics_all", ["BLEU", "GTM-2", "NIST-5"]),
        ("metric", "metrics", ["BLEU-4", "GTM-1", "GTM-2", "GTM-3"]),
    ]


def test_iqsetup_config_names_from_stems(tmp_path):
    for name in ("src.txt", "out.txt.1", "out.txt.2", "r.txt"):
        write(tmp_path, f"files/{name}", "x\ny\n")
    config = write(tmp_path, "IQsetup.config", "NAME=MT_DUMMY\nIQMT=/opt/IQMT/\n"
                   "source=files/src.txt\nref=files/r.txt\n"
                   f"system=files/out.txt.1\nsystem={tmp_path}/files/out.txt.2\ndoBLEU\n")
    data = read_ulc_config(config)
    assert data.name == "MT_DUMMY" and data.options == {"CASE": "all", "INPUT": "raw"}
    assert [t.name for t in data.translators] == ["r", "out.txt.1", "out.txt.2"]
    assert data.sets[0].members[:2] == ["BLEU-1", "BLEU-2"] and len(data.sets[0].members) == 7


def test_ulc_config_sgml(tmp_path, sgml_bed):
    config = write(tmp_path, "ULC.config", "src=src.sgm\nref=ref.sgm\nsys=tst.sgm\n"
                   "2_first_systems=S0 S1\nbest= sysB\n")
    data = read_ulc_config(config)
    assert data.options == {"CASE": "all", "INPUT": "xml"}
    assert (data.src_lang, data.tgt_lang) == ("ar", "en")
    assert [t.name for t in data.translators] == ["ref1", "sysA", "sysB"]
    assert [(s.kind, s.members) for s in data.sets] == [
        ("system", ["sysA", "sysB"]), ("system", ["sysB"])]
    explicit = write(tmp_path, "raw.config", "INPUT=xml\nsrc=src.sgm\nref=ref.sgm\n")
    assert read_ulc_config(explicit).options["INPUT"] == "xml"


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        ("src=data/source.txt\nCASE=upper\n", 2, ["CASE must be all or lc"]),
        ("src=data/source.txt\nINPUT=sgml\n", 2, ["INPUT must be xml or raw"]),
        ("# c\nsrc=data/missing.txt\n", 2, ["file not found", "missing.txt"]),
        ("src=data/source.txt\nsrc=data/ref0.txt\n", 2, ["second src file"]),
        ("src=data/source.txt\nCASE=lc\nCASE=all\n", 3, ["CASE given twice"]),
        ("src=data/source.txt\njust words\n", 2, ["expected KEY=value"]),
        ("src=data/source.txt\ndoBLEU BLEU-9\n", 2, ["doBLEU has no variant 'BLEU-9'"]),
        ("src=data/source.txt\nbad name= x\n", 2, ["invalid set name"]),
        ("src=data/source.txt\ns= a\ns= b\n", 3, ["set 's' defined twice"]),
        ("src=data/source.txt\nsys=data/system01.txt\nref=data/ref0.txt\nmix= S0 ref0 foo\n", 4,
         ["mixes systems (S0) and references (ref0) and unknown names (foo)"]),
        ("src=data/source.txt\nsegs= 2-9\n", 2, ["must lie within 1..3"]),
        ("src=data/source.txt\nempty=\n", 2, ["no members"]),
        ("ref=data/ref0.txt\n", None, ["no source file"]),
        ("src=data/source.txt\nref=data/ref0.txt\nref=data/ref0.txt\n", 3,
         ["'ref0.txt' is also on line 2"]),
    ],
)
def test_ulc_config_errors(ulc_dir, content, line, words):
    config = write(ulc_dir, "ULC.config", content)
    with raises_at(config, line, *words):
        read_ulc_config(config)


def test_ulc_config_reports_errors_of_data_files(ulc_dir):
    short = write(ulc_dir, "data/short.txt", "only one\n")
    config = write(ulc_dir, "ULC.config", "src=data/source.txt\nsys=data/short.txt\n")
    with raises_at(short, None, "1 lines, expected 3"):
        read_ulc_config(config)


# ---------------------------------------------------------------------------- shared data


def test_shared_ende_plain(shared):
    bed = shared / "testbeds" / "wmt21_newstest2021_ende"
    refs = {f"ref-{x}": bed / "refs" / f"ref-{x}.de.txt" for x in "ACD"}
    systems = {p.name.removesuffix(".de.txt"): p for p in sorted((bed / "systems").glob("*.txt"))}
    start = time.perf_counter()
    data = read_plain("newstest2021:en-de", bed / "source.en.txt", refs, systems,
                      bed / "docs.tsv", "en", "de")
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5, f"reading the en-de test bed took {elapsed:.3f} s"
    assert len(data.segments) == 1002 and len(data.documents) == 68
    assert sum(t.role == "system" for t in data.translators) == 20
    assert [t.name for t in data.translators if t.role == "reference"] == [
        "ref-A", "ref-C", "ref-D"]
    assert data.documents[0] == data.documents[0].__class__("rt.com.131279", origlang="en")
    assert all(len(t.texts) == 1002 for t in data.translators)


def test_shared_ruen_wmtxml(shared):
    bed = shared / "testbeds" / "wmt21_newstest2021_ruen"
    start = time.perf_counter()
    data = read_wmtxml("newstest2021:ru-en", bed / "raw" / "newstest2021.ru-en.all.xml")
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"reading the ru-en XML took {elapsed:.3f} s"
    assert (data.src_lang, data.tgt_lang) == ("ru", "en")
    assert len(data.segments) == 1000 and len(data.documents) == 107
    refs = sorted(t.name for t in data.translators if t.role == "reference")
    systems = sorted(t.name for t in data.translators if t.role == "system")
    assert refs == ["ref-A", "ref-B"]
    assert systems == sorted(p.name.removesuffix(".en.txt") for p in (bed / "systems").iterdir())
    assert [s.source for s in data.segments] == read_lines(bed / "source.ru.txt")
    for name in ("ref-A", "ref-B"):
        assert texts(data, name) == read_lines(bed / "refs" / f"{name}.en.txt")
    for name in systems:
        assert texts(data, name) == read_lines(bed / "systems" / f"{name}.en.txt")


@pytest.mark.parametrize(("rows", "message"), [
    ([(1, "0.5"), (2, "0.25")], None),
    ([(1, "0.5"), (2, "nan")], "2: score nan is NaN or infinite"),
    ([(1, "inf"), (0, "0.3")], "1: score inf is NaN or infinite"),
    ([(1, "0.5"), (0, "0.3")], "2: segment number 0 is not a whole number >= 1"),
])
def test_wmt_numbers_the_store_refuses(tmp_path, rows, message):
    """The first WMT row (file order) whose score or segment number the store refuses."""
    path = tmp_path / "x.seg.score"
    path.write_text("".join(f"BLEU\ten-de\tnt\tnt\tsysA\td1\t{seg}\t{value}\n"
                            for seg, value in rows))
    if message is None:
        check_raw_values(read_wmt_raw([path]))
        return
    with pytest.raises(InputError) as caught:
        check_raw_values(read_wmt_raw([path]))
    assert str(caught.value) == f"{path}:{message}"


def test_wmtxml_malformed_names_its_line_once(tmp_path):
    """lxml's message ends with ", line N, column M": the error names the line already."""
    content = WMT_XML.replace('<seg id="2">Zwei</seg>', '<seg id="2">Zwei</sag>', 1)
    path = write(tmp_path, "bad.xml", content)
    with pytest.raises(InputError) as err:
        read_wmtxml("nt", path)
    assert str(err.value).startswith(f"{path}:6: malformed XML: ")
    column = content.splitlines()[5].index("</sag>") + len("</sag>") + 1  # past the tag
    assert str(err.value).endswith(f"seg line 6 and sag (column {column})")
