"""Annotation layer: spaCy and Stanza adapters, derived layers, storage, importers."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ulcdb.annotation import storage
from ulcdb.annotation.annotate import analyses_for, annotate_testbed, run_for
from ulcdb.annotation.derive import iob_labels
from ulcdb.annotation.importers import import_annotations
from ulcdb.annotation.model import CHUNK, CONSTITUENT, ENTITY, PREDICATE, ROLE, Analysis
from ulcdb.annotation.spacy_adapter import analyse_serial, doc_to_analysis, load
from ulcdb.errors import InputError
from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.store.database import Store

S1 = ("Several Qassam rockets and mortar shells were fired on Tuesday in southern Israel "
      "without causing any casualties.")
S2 = "John did not give the book to Mary yesterday because he could not find it."
S3 = "He wants to leave London quickly."


@pytest.fixture(scope="module")
def analyses() -> list[Analysis]:
    return analyse_serial([S1, S2, S3, "   "])


def words(a: Analysis, span) -> str:
    return " ".join(t.form for t in a.tokens[span.start:span.end])


def roles(a: Analysis) -> dict[str, list[tuple[str, str]]]:
    preds = {p.span_id: p.label for p in a.layer(PREDICATE)}
    out: dict[str, list[tuple[str, str]]] = {v: [] for v in preds.values()}
    for r in a.layer(ROLE):
        out[preds[r.parent]].append((r.label, words(a, r)))
    return out


def test_spacy_tokens_tags_heads_entities(analyses) -> None:
    a = analyses[1]
    forms = [t.form for t in a.tokens]
    assert forms[:4] == ["John", "did", "not", "give"]
    give = a.tokens[3]
    assert (give.lemma, give.tag, give.pos, give.head, give.deprel) == ("give", "VB", "VERB",
                                                                      -1, "ROOT")
    assert a.tokens[0].head == 3 and a.tokens[0].deprel == "nsubj"
    assert a.tokens[5].tag == "NN" and a.tokens[5].deprel == "dobj"
    ents = {words(a, e): e.label for e in a.layer(ENTITY)}
    assert ents["John"] == "PERSON"
    assert {words(e_a, e): e.label for e_a in [analyses[0]] for e in e_a.layer(ENTITY)}[
        "Israel"] == "GPE"
    assert a.layers >= {CHUNK, ENTITY, CONSTITUENT, PREDICATE, ROLE}


def test_sentences_and_empty(analyses) -> None:
    two = analyse_serial(["It rains. We stay home."])[0]
    assert [t.sent for t in two.tokens] == [0, 0, 0, 1, 1, 1, 1]
    assert two.tokens[4].head == -1 and two.tokens[3].head == 4  # heads index the whole text
    assert analyses[3].status == "empty" and not analyses[3].tokens


def test_chunks_and_iob(analyses) -> None:
    a = analyses[1]
    assert iob_labels(a) == ["B-NP", "B-VP", "I-VP", "I-VP", "B-NP", "I-NP", "B-PP", "B-NP",
                             "B-NP", "B-SBAR", "B-NP", "B-VP", "I-VP", "I-VP", "B-NP", "O"]
    chunks = [(words(analyses[0], c), c.label) for c in analyses[0].layer(CHUNK)]
    assert ("were fired", "VP") in chunks and ("southern Israel", "NP") in chunks


def test_constituents_projected(analyses) -> None:
    a = analyses[1]
    cons = a.layer(CONSTITUENT)
    top = [c for c in cons if c.parent is None]
    assert len(top) == 1 and top[0].label == "S" and (top[0].start, top[0].end) == (0, 16)
    vp = [c for c in cons if c.label == "VP" and c.parent == top[0].span_id]
    assert vp and words(a, vp[0]).startswith("did not give")
    assert sum(c.end - c.start == 1 and c.label == t.tag for c in cons
               for t in [a.tokens[c.start]]) >= len(a.tokens)
    ids = {c.span_id for c in cons}
    assert all(c.parent is None or c.parent in ids for c in cons)


def test_srl_rules(analyses) -> None:
    r = roles(analyses[0])
    assert r["fire"] == [("A1", "Several Qassam rockets and mortar shells"),
                         ("AM-TMP", "on Tuesday"), ("AM-LOC", "in southern Israel"),
                         ("AM-ADV", "without causing any casualties")]
    r = roles(analyses[1])
    assert r["give"] == [("A0", "John"), ("AM-NEG", "not"), ("A1", "the book"),
                         ("A2", "to Mary"), ("AM-TMP", "yesterday"),
                         ("AM-CAU", "because he could not find it")]
    assert ("AM-MOD", "could") in r["find"] and ("A0", "he") in r["find"]
    r = roles(analyses[2])
    assert r["leave"] == [("A0", "He"), ("A1", "London"), ("AM-MNR", "quickly")]


# -- store ---------------------------------------------------------------------------------
@pytest.fixture
def store(tmp_path: Path):
    src = tmp_path / "src.txt"
    src.write_text("a\nb\nc\n")
    (tmp_path / "ref.txt").write_text(f"{S2}\n{S3}\nIt rains.\n")
    (tmp_path / "s1.txt").write_text(f"{S2}\nHe wants to go.\n\n")
    # What the annotation files of the import tests spell (CONLLU below).
    (tmp_path / "imp.txt").write_text("John sleeps\nMary runs She wins\nOK\n")
    data = read_plain("tb", src, {"ref-A": tmp_path / "ref.txt"},
                      {"S1": tmp_path / "s1.txt", "imp": tmp_path / "imp.txt"})
    st = Store(tmp_path / "t.duckdb")
    load_testbed(st, data)
    yield st
    st.close()


def test_storage_round_trip(store, analyses) -> None:
    rid = storage.ensure_run(store, "spacy", "m", "v")
    pairs = [(storage.text_hash(t), a) for t, a in zip([S1, S2, S3, ""], analyses, strict=True)]
    storage.save(store, rid, pairs)
    back = storage.load(store, rid, [h for h, _ in pairs])
    for h, a in pairs:
        assert back[h] == a


def test_annotate_resumable_and_statuses(store) -> None:
    first = annotate_testbed(store, "tb", jobs=1)
    assert first.total == 8 and first.annotated == 8 and first.empty == 1
    again = annotate_testbed(store, "tb", jobs=1)
    assert again.annotated == 0 and again.done_before == 8
    assert store.scalar("select count(*) from annotation_run") == 1
    got = analyses_for(store, ["", S3, "Brand new text."])
    assert [a.status for a in got] == ["empty", "ok", "ok"]
    assert [t.form for t in got[1].tokens][:2] == ["He", "wants"]


def test_failed_analysis_is_recorded(store, monkeypatch) -> None:
    from ulcdb.annotation import spacy_adapter

    monkeypatch.setattr(spacy_adapter, "doc_to_analysis",
                        lambda doc: (_ for _ in ()).throw(RuntimeError("boom")))
    got = analyses_for(store, ["Something odd."])[0]
    assert got.status == "failed" and "boom" in got.message
    rid = run_for(store)
    assert store.scalar("select status from annotated_text where run_id = ?", [rid]) == "failed"


def test_failed_batch_redone_one_by_one(monkeypatch) -> None:
    """A text that breaks nlp.pipe fails alone; the others keep their place and analysis."""
    from ulcdb.annotation import spacy_adapter

    real = load()

    class Breaks:
        def pipe(self, texts, batch_size):
            for t in texts:
                if t == "BAD":
                    raise RuntimeError("pipe broke")
                yield real(t)

        def __call__(self, text):
            if text == "BAD":
                raise RuntimeError("bad text")
            return real(text)

    monkeypatch.setattr(spacy_adapter, "load", lambda model=None: Breaks())
    got = analyse_serial([S3, " ", "BAD", "Brand new text."])
    assert [a.status for a in got] == ["ok", "empty", "failed", "ok"]
    assert got[2].message == "RuntimeError: bad text"
    assert [t.form for t in got[0].tokens][:2] == ["He", "wants"]
    assert [t.form for t in got[3].tokens] == ["Brand", "new", "text", "."]


# -- importers -----------------------------------------------------------------------------
CONLLU = """# seg_id = 1
1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\t_
2\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_

# seg_id = 2
1\tMary\tMary\tPROPN\tNNP\t_\t2\tnsubj\t_\t_
2\truns\trun\tVERB\tVBZ\t_\t0\troot\t_\t_

1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\twins\twin\tVERB\tVBZ\t_\t0\troot\t_\t_

# seg_id = 3
1\tOK\tok\tINTJ\tUH\t_\t0\troot\t_\t_
"""


def _dump(store) -> tuple:
    return tuple(store.scalar(f"select count(*) from {t}")
                 for t in ("annotation_run", "annotated_text", "ann_token", "ann_span"))


def _texts(store, name):
    tid = store.testbed_id("tb")
    return [r[0] for r in store.query("select text from translation where translator_id = ? "
                                      "order by seg_id", [store.translators(tid)[name]])]


def test_import_conllu_then_layers(store, tmp_path: Path) -> None:
    f = tmp_path / "s1.conllu"
    f.write_text(CONLLU)
    import_annotations(store, f, "tb", "imp", "conllu", tool="udpipe")
    rid = storage.find_run(store, "udpipe")
    got = analyses_for(store, _texts(store, "imp"), annotator="udpipe")
    assert [t.form for t in got[1].tokens] == ["Mary", "runs", "She", "wins"]
    assert [t.sent for t in got[1].tokens] == [0, 0, 1, 1]
    assert got[1].tokens[2].head == 3 and roles(got[1])["win"] == [("A0", "She")]

    ptb = tmp_path / "s1.ptb"
    ptb.write_text("(ROOT (S (NP (NNP John)) (VP (VBZ sleeps))))\n"
                   "(S (S (NP (NNP Mary)) (VP (VBZ runs))) (S (NP (PRP She)) (VP (VBZ wins))))\n"
                   "(INTJ (UH OK))\n")
    import_annotations(store, ptb, "tb", "imp", "ptb", tool="udpipe")
    a = analyses_for(store, _texts(store, "imp"), annotator="udpipe")[0]
    tree = [(s.label, s.start, s.end, s.parent) for s in a.layer(CONSTITUENT)]
    assert tree == [("S", 0, 2, None), ("NP", 0, 1, 0), ("NNP", 0, 1, 1), ("VP", 1, 2, 0),
                    ("VBZ", 1, 2, 3)]
    assert a.tokens[1].lemma == "sleep"  # tokens kept

    iob = tmp_path / "s1.iob"
    iob.write_text("John B-PER\nsleeps O\n\nMary B-PER\nruns O\nShe O\nwins O\n\nOK O\n")
    import_annotations(store, iob, "tb", "imp", "iob", tool="udpipe")
    a = analyses_for(store, _texts(store, "imp"), annotator="udpipe")[1]
    assert [(e.label, words(a, e)) for e in a.layer(ENTITY)] == [("PER", "Mary")]

    srl = tmp_path / "s1.props"
    srl.write_text("John - (A0*)\nsleeps sleep (V*)\n\nMary - (A0*) *\nruns run (V*) *\n"
                   "She - * (A0*)\nwins win * (V*)\n\nOK - \n")
    srl.write_text("John - (A0*)\nsleeps sleep (V*)\n\nMary - (A0*) *\nruns run (V*) *\n"
                   "She - * (A0*)\nwins win * (V*)\n\nOK -\n")
    import_annotations(store, srl, "tb", "imp", "conll05", tool="udpipe")
    a = analyses_for(store, _texts(store, "imp"), annotator="udpipe")[1]
    assert roles(a) == {"run": [("A0", "Mary")], "win": [("A0", "She")]}
    assert storage.find_run(store, "udpipe") == rid


@pytest.mark.parametrize("fmt,text,line", [
    ("conllu", CONLLU.replace("# seg_id = 3\n1\tOK\tok\tINTJ\tUH\t_\t0\troot\t_\t_\n", ""), 5),
    ("ptb", "(S (NP (NNP John)))\n(S (NNP Mary) (VBZ runs) (PRP She) (VBZ wins))\n(UH OK)\n",
     1),
    ("iob", "John B-PER\nsleeps O\n\nMary B-PER\nruns O\nShe O\nwins O\n\nOK O\nmore O\n", 9),
    ("conllu", CONLLU.replace("\t2\tnsubj", "\t9\tnsubj"), 2),
])
def test_misaligned_import_refused(store, tmp_path: Path, fmt, text, line) -> None:
    good = tmp_path / "good.conllu"
    good.write_text(CONLLU)
    import_annotations(store, good, "tb", "imp", "conllu", tool="t")
    before = _dump(store)
    bad = tmp_path / f"bad.{fmt}"
    bad.write_text(text)
    with pytest.raises(InputError) as exc:
        import_annotations(store, bad, "tb", "imp", fmt, tool="t")
    assert exc.value.path == str(bad) and exc.value.line == line
    assert f"{bad}:{line}" in str(exc.value)
    assert _dump(store) == before


def test_cli_annotate_and_ingest(tmp_path: Path, store) -> None:
    from ulcdb.cli.main import app

    db = store.path
    store.close()
    f = tmp_path / "s1.conllu"
    f.write_text(CONLLU)
    runner = CliRunner()
    res = runner.invoke(app, ["--db", str(db), "ingest", "annotations", str(f), "--translator",
                              "imp", "--format", "conllu"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["--db", str(db), "ingest", "annotations", str(f), "--translator",
                              "ref-A", "--format", "ptb"])
    assert res.exit_code == 1 and "Error:" in res.output
    res = runner.invoke(app, ["--db", str(db), "annotate", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "8 texts annotated" in res.output
    store.con = Store(db).con  # let the fixture close something


# -- stanza --------------------------------------------------------------------------------
def test_stanza_adapter_from_conllu() -> None:
    from stanza.utils.conll import CoNLL  # the `stanza` extra, in `dev`: runs in CI

    from ulcdb.annotation.stanza_adapter import document_to_analysis

    text = ("1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\tNER=S-PERSON\n"
            "2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\t_\n"
            "3\tMary\tMary\tPROPN\tNNP\t_\t2\tiobj\t_\t_\n"
            "4\ta\ta\tDET\tDT\t_\t5\tdet\t_\t_\n"
            "5\tbook\tbook\tNOUN\tNN\t_\t2\tobj\t_\t_\n"
            "6\tyesterday\tyesterday\tNOUN\tNN\t_\t2\tobl:tmod\t_\t_\n\n"
            "1\tIt\tit\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
            "2\trains\train\tVERB\tVBZ\t_\t0\troot\t_\t_\n\n")
    a = document_to_analysis(CoNLL.conll2doc(input_str=text))
    assert [t.form for t in a.tokens] == ["John", "gave", "Mary", "a", "book", "yesterday",
                                          "It", "rains"]
    assert a.tokens[6].head == 7 and a.tokens[6].sent == 1 and a.tokens[1].head == -1
    assert roles(a) == {"give": [("A0", "John"), ("A2", "Mary"), ("A1", "a book"),
                                 ("AM-TMP", "yesterday")], "rain": [("A0", "It")]}
    assert iob_labels(a)[:5] == ["B-NP", "B-VP", "B-NP", "B-NP", "I-NP"]


def test_spacy_doc_conversion_direct() -> None:
    a = doc_to_analysis(load()("Paris is nice."))
    assert a.status == "ok" and a.tokens[0].pos == "PROPN"


def test_scorer_inputs_hook(store) -> None:
    from ulcdb.scoring.scorer import Scorer

    class Plain:
        needs_analysis = False  # capabilities are declared by every family
        needs_documents = False

    class Ling:
        needs_analysis = True
        needs_documents = False

    scorer = Scorer(store, "tb", jobs=1)
    assert scorer.inputs("S1", Plain()) == [S2, "He wants to go.", ""]
    got = scorer.inputs("S1", Ling())
    assert [a.status for a in got] == ["ok", "ok", "empty"]
    assert scorer.inputs("S1", Ling()) is got  # cached per translator


def test_import_refuses_words_of_another_text_and_reads_multiword_tokens(
        store, tmp_path: Path) -> None:
    before = _dump(store)
    wrong = tmp_path / "wrong.conllu"
    wrong.write_text(CONLLU)
    with pytest.raises(InputError) as exc:  # imp's annotation given for S1
        import_annotations(store, wrong, "tb", "S1", "conllu", tool="t")
    assert exc.value.line == 1 and "do not spell S1's segment 1" in str(exc.value)
    assert _dump(store) == before
    # "Sleeps" written as one surface word over two syntactic words (a CoNLL-U range line).
    mwt = CONLLU.replace("2\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_",
                         "2-3\tsleeps\t_\t_\t_\t_\t_\t_\t_\t_\n"
                         "2\tsleep\tsleep\tVERB\tVB\t_\t0\troot\t_\t_\n"
                         "3\ts\ts\tPART\tPOS\t_\t2\tdep\t_\t_")
    ok = tmp_path / "mwt.conllu"
    ok.write_text(mwt)
    import_annotations(store, ok, "tb", "imp", "conllu", tool="t")
    a = analyses_for(store, _texts(store, "imp"), annotator="t")[0]
    assert [t.form for t in a.tokens] == ["John", "sleep", "s"]
