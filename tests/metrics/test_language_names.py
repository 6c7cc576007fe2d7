"""Languages are ISO 639-1 codes wherever they come in (issue 25 section 3).

``--tgt-lang german`` was stored as given and METEOR then fell back to its language-independent
parameters (0.3547 where ``de`` gives 0.3463) and dropped MTR-stem.  Every ingest path now
goes through ``ulcdb.metrics.languages.normalise``: codes are kept, English names and ISO 639-2
codes
become codes with a note, anything else is refused naming the file or option.  Expected METEOR
values: Meteor 1.5 run with ``-l de`` (tests/metrics/test_meteor_languages.py's JAR table).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from tests.metrics.test_meteor_languages import JAR
from ulcdb.api import Database
from ulcdb.errors import InputError
from ulcdb.metrics.languages import normalise
from ulcdb.store.database import Store

XML = Path(__file__).resolve().parents[2] / "sample" / "xml" / "sample.es-en.xml"


@pytest.fixture(scope="module")
def sample(shared: Path) -> Path:
    path = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not path.is_dir():
        pytest.skip("en-de sample not in shared data")
    return path


def _languages(db: Path) -> list[tuple[str | None, str | None]]:
    with Store(db, read_only=True) as store:
        return store.query("select src_lang, tgt_lang from testbed")


def _no_testbed(db: Path) -> bool:
    if not db.exists():
        return True
    with Store(db, read_only=True) as store:
        return store.scalar("select count(*) from testbed") == 0


def test_german_is_de_and_meteor_uses_its_german_parameters(sample: Path, tmp_path: Path
                                                            ) -> None:
    db = tmp_path / "de.duckdb"
    done = ulcdb(db, "ingest", "testbed", "--name", "ende", "--source",
                 sample / "source.en.txt", "--ref", f"ref-A={sample / 'refs' / 'ref-A.de.txt'}",
                 "--sys", f"UEdin={sample / 'systems' / 'UEdin.de.txt'}", "--tgt-lang", "german",
                 "--src-lang", "English")
    assert done.exit_code == 0, done.output
    said = " ".join(done.output.split())
    assert "--tgt-lang german read as de (ISO 639-1 code of German)" in said
    assert "--src-lang English read as en" in said
    assert _languages(db) == [("en", "de")]
    assert ulcdb(db, "score", "-m", "METEOR", "-j", "1").exit_code == 0
    with Store(db, read_only=True) as store:
        got = dict(store.query("select metric, value from scores where level = 'sys'"))
    assert got == {"MTR-exact": JAR[("UEdin", "MTR-exact")][2],
                   "MTR-stem": JAR[("UEdin", "MTR-stem")][2]}


@pytest.mark.parametrize("given", ["klingon", "xx", "de-", "english2"])
def test_anything_else_is_refused_naming_the_option(tmp_path: Path, given: str) -> None:
    db = tmp_path / "x.duckdb"
    source = tmp_path / "src.txt"
    source.write_text("a b\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "testbed", "--name", "tb", "--source", source, "--sys",
                   f"S1={source}", "--tgt-lang", given)
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert f"--tgt-lang {given}: not a language ulcdb knows" in result.output
    assert _no_testbed(db)


def test_the_code_table() -> None:
    assert [normalise(v, "f").code for v in ("de", "DE", "pt_BR", "zh-Hant", "deu", "GER",
                                             "Spanish", "castilian", "liv")] == \
        ["de", "de", "pt-BR", "zh-Hant", "de", "de", "es", "es", "liv"]
    assert normalise("de", "f").note is None
    with pytest.raises(InputError, match=r"^f:7: LANG=ENGL: not a language"):
        normalise("ENGL", "f", "LANG=", 7)


def test_wmt_xml_lang_attributes(tmp_path: Path) -> None:
    text = XML.read_text(encoding="utf-8")
    named = tmp_path / "named.xml"
    named.write_text(text.replace('lang="en"', 'lang="English"'), encoding="utf-8")
    db = tmp_path / "xml.duckdb"
    done = ulcdb(db, "ingest", "testbed", named, "--name", "sample")
    assert done.exit_code == 0, done.output
    assert "<ref lang=English read as en" in " ".join(done.output.split())
    assert _languages(db) == [("es", "en")]
    bad = tmp_path / "bad.xml"
    bad.write_text(text.replace('<src lang="es">', '<src lang="castellano">'), encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if '<src lang="es">' in t)
    result = ulcdb(tmp_path / "bad.duckdb", "ingest", "testbed", bad, "--name", "sample")
    assert result.exit_code == 1
    assert f"bad.xml:{line}: <src lang=castellano: not a language" in result.output


def test_ulc_config_and_sgml(tmp_path: Path) -> None:
    sample = XML.parents[1]
    text = (sample / "ULC.config").read_text(encoding="utf-8").replace("./", f"{sample}/")
    config = tmp_path / "ULC.config"
    config.write_text(text.replace("LANG=ENG", "LANG=Inglés"), encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("LANG="))
    result = ulcdb(tmp_path / "c.duckdb", "ingest", "testbed", config, "--name", "sample")
    assert result.exit_code == 1
    assert f"ULC.config:{line}: LANG=Inglés: not a language" in result.output
    src = tmp_path / "src.sgm"
    src.write_text('<srcset setid="s" srclang="Spanish">\n<doc docid="d1">\n'
                   '<seg id="1">hola</seg>\n</doc>\n</srcset>\n', encoding="utf-8")
    tst = tmp_path / "tst.sgm"
    tst.write_text('<tstset setid="s" srclang="Spanish" trglang="English">\n'
                   '<doc docid="d1" sysid="S1">\n<seg id="1">hello</seg>\n</doc>\n</tstset>\n',
                   encoding="utf-8")
    db = tmp_path / "sgml.duckdb"
    done = ulcdb(db, "ingest", "testbed", src, "--sys", f"S1={tst}", "--name", "sg")
    assert done.exit_code == 0, done.output
    assert _languages(db) == [("es", "en")]


def test_api_and_long_tsv(sample: Path, tmp_path: Path) -> None:
    with Database(tmp_path / "api.duckdb") as db:
        report = db.ingest_testbed(sample / "segments_long.tsv", name="ende",
                                   src_lang="EN", tgt_lang="German")
        assert "--tgt-lang German read as de" in report.summary()
        with pytest.raises(InputError, match="--src-lang englisch: not a language"):
            db.ingest_testbed(sample / "segments_long.tsv", name="other", src_lang="englisch")
    assert _languages(tmp_path / "api.duckdb") == [("en", "de")]


def test_a_store_holding_a_name_reads_it_as_its_code(sample: Path, tmp_path: Path) -> None:
    """A store written before languages were normalised keeps 'german': scoring reads it as
    de (METEOR's German parameters) and says so."""
    db = tmp_path / "old.duckdb"
    assert ulcdb(db, "ingest", "testbed", "--name", "ende", "--source", sample / "source.en.txt",
                 "--ref", f"ref-A={sample / 'refs' / 'ref-A.de.txt'}", "--sys",
                 f"UEdin={sample / 'systems' / 'UEdin.de.txt'}").exit_code == 0
    with Store(db) as store:
        store.con.execute("update testbed set tgt_lang = 'german'")
    result = ulcdb(db, "score", "-m", "MTR-exact", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "test bed 'ende' has target language 'german': read as de" in result.stderr
    with Store(db, read_only=True) as store:
        assert store.scalar("select value from scores where level = 'sys'") == \
            JAR[("UEdin", "MTR-exact")][2]


def test_the_loader_catches_any_other_caller(tmp_path: Path) -> None:
    """TestbedData built in Python (or a WMT --details layout, mt-metrics-eval's language
    pair) goes through the same normalisation when it is stored."""
    from ulcdb.ingest.load import load_testbed
    from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText

    def data(tgt: str) -> TestbedData:
        return TestbedData("py", "en", tgt, origin="built.py", documents=[Document("d")],
                           segments=[SourceSegment(1, "d", 1, "a")],
                           translators=[TranslatorText("S1", "system", ["b"])])

    with Store(tmp_path / "py.duckdb") as store:
        with pytest.raises(InputError, match=r"^built.py: language 'Deutsch': not a language"):
            load_testbed(store, data("Deutsch"))
        report = load_testbed(store, data("German"))
        assert "language 'German' read as de" in report.summary()
        assert store.query("select tgt_lang from testbed") == [("de",)]
