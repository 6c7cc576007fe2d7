"""Stanza in CI (issue 26): stanza is a declared extra (pulled in by ``dev``), so these run
rather than skip.  Stanza builds Documents from CoNLL-U without a downloaded model: a stanza
run made of such Documents is scored through the CLI and its signatures name stanza; without
a model, ``--annotator stanza`` stops with one line saying how to get one, the store as it
was."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ulcdb
from stanza.models.common.doc import Document
from stanza.utils.conll import CoNLL

from ulcdb.annotation import stanza_adapter, storage
from ulcdb.annotation.stanza_adapter import document_to_analysis
from ulcdb.store.database import Store

# What Stanza's English pipeline gives for the two texts: hand-written CoNLL-U, and the
# NER tags its ner processor would set (NER=, which Stanza's CoNLL-U reader leaves in MISC).
CONLLU = {
    "John gave Mary a book .": (
        "1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\tNER=S-PERSON\n"
        "2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\tNER=O\n"
        "3\tMary\tMary\tPROPN\tNNP\t_\t2\tiobj\t_\tNER=S-PERSON\n"
        "4\ta\ta\tDET\tDT\t_\t5\tdet\t_\tNER=O\n"
        "5\tbook\tbook\tNOUN\tNN\t_\t2\tobj\t_\tNER=O\n"
        "6\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\tNER=O\n\n"),
    "John gave a book .": (
        "1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\tNER=S-PERSON\n"
        "2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\tNER=O\n"
        "3\ta\ta\tDET\tDT\t_\t4\tdet\t_\tNER=O\n"
        "4\tbook\tbook\tNOUN\tNN\t_\t2\tobj\t_\tNER=O\n"
        "5\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\tNER=O\n\n"),
}


def stanza_document(conllu: str) -> Document:
    """A Stanza Document from CoNLL-U, with the NER= tags set on its tokens."""
    doc = CoNLL.conll2doc(input_str=conllu)
    tags = [row.split("\t")[9].removeprefix("NER=") for row in conllu.strip().split("\n")]
    for token, tag in zip(doc.iter_tokens(), tags, strict=True):
        token.ner = tag
    doc.build_ents()
    return doc


@pytest.fixture
def db(tmp_path: Path) -> Path:
    files = {}
    for name, text in (("src", "x"), ("ref", "John gave Mary a book ."),
                       ("hyp", "John gave a book .")):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(text + "\n", encoding="utf-8")
    path = tmp_path / "st.duckdb"
    result = ulcdb(path, "ingest", "testbed", "--name", "tb", "--source", files["src"],
                   "--ref", f"ref-A={files['ref']}", "--sys", f"S1={files['hyp']}",
                   "--tgt-lang", "en")
    assert result.exit_code == 0, result.output
    return path


def test_signatures_under_stanza_name_stanza(db: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    monkeypatch.setattr(stanza_adapter, "check_model", lambda lang: None)  # no model here
    with Store(db) as store:
        rid = storage.ensure_run(store, "stanza", "en", stanza_adapter.version("en"), "en")
        storage.save(store, rid, [
            (storage.text_hash(text), document_to_analysis(stanza_document(conllu)))
            for text, conllu in CONLLU.items()])
    result = ulcdb(db, "score", "-m", "NE-Oe-*,SR-Or", "--annotator", "stanza", "-j", "1",
                   "-f", "json")
    assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        signatures = dict(store.query("select family, signature from score_batch"))
        # PERSON words: {John} against {John, Mary}: overlap 1 / 2
        ne = store.scalar("select value from scores where metric = 'NE-Oe-*' and "
                          "level = 'seg' and translator = 'S1'")
    assert signatures["NE"] == (
        "NE|nrefs:1|case:mixed|ann:stanza/en|multiref:max|num:min|0/0:0|failed:null"
        "|doc:mean-seg|sys:mean-seg|ner:stanza|version:1|lang:en")
    assert "|ann:stanza/en|" in signatures["SR"] and "|srl:stanza-dep-rules|" in signatures["SR"]
    assert not any("spacy" in s for s in signatures.values())
    assert ne == pytest.approx(0.5)


def test_stanza_without_a_model_stops_with_one_line(db: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "no-models"
    empty.mkdir()
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(empty))
    for args in (["score", "-m", "NE-Oe-*", "--annotator", "stanza", "-j", "1"],
                 ["annotate", "--annotator", "stanza"]):
        result = ulcdb(db, *args)
        assert result.exit_code == 1
        assert result.output.strip() == (
            f"Error: stanza has no model for 'en' in {empty}: get it with python -c "
            "'import stanza; stanza.download(\"en\")' (STANZA_RESOURCES_DIR says where to "
            "keep it)")
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from annotation_run") == 0
        assert store.scalar("select count(*) from score_batch") == 0
