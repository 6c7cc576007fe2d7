"""Metrics know which target languages they handle (issue 11 section 2).

German and Russian targets: ROUGE (English-only in ROUGE-1.5.5), ulcdb's METEOR (Meteor 1.5
-l en) and the linguistic families over an English annotation are refused by name and left
out of sets with a note; language-independent metrics run, with the language in their
signature.  A French target with the French spaCy model gets its SP/DP/NE scores.
"""

from __future__ import annotations

import csv
import importlib.util
import io
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

GERMAN = ("Das ist ein kleines Haus mit einem Garten .", "Er hat mit ihr gesprochen .")
GERMAN_HYP = ("Das ist ein kleines Haus mit Garten .", "Er sprach mit ihr .")


def _testbed(tmp_path: Path, ref: tuple[str, ...], hyp: tuple[str, ...], *lang: str) -> Path:
    files = {}
    for name, lines in (("src", ("a b", "c d")), ("ref", ref), ("hyp", hyp)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "lang.duckdb"
    result = ulcdb(db, "ingest", "testbed", "--name", "tb", "--source", files["src"], "--ref",
                   f"ref-A={files['ref']}", "--sys", f"S1={files['hyp']}", *lang)
    assert result.exit_code == 0, result.output
    return db


def _metrics(db: Path) -> set[str]:
    with Store(db, read_only=True) as store:
        return {r[0] for r in store.query("select distinct metric from scores")}


@pytest.mark.parametrize("metric, tool", [("RG-L", "ROUGE-1.5.5 is English-only"),
                                          ("MTR-wnsyn", "English only"),
                                          ("DP-Or-*", "annotation in 'en'"),
                                          ("SR-Or-*-b", "English rules")])
def test_a_metric_named_for_german_is_refused(tmp_path: Path, metric: str, tool: str) -> None:
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP, "--tgt-lang", "de")
    result = ulcdb(db, "score", "-m", metric, "-j", "1")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert f"{metric} cannot score target language 'de'" in result.output and tool in \
        result.output
    assert _metrics(db) == set()


def test_a_set_leaves_them_out_and_says_so(tmp_path: Path) -> None:
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP, "--tgt-lang", "de")
    result = ulcdb(db, "score", "-m", "LEX", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "left out for target language de: MTR-wnstm, MTR-wnsyn" in result.stderr
    assert "left out for target language de: RG-1, RG-2" in result.stderr
    got = _metrics(db)
    assert "BLEU-4" in got and "chrF" in got and "1-TER" in got
    assert not {m for m in got if m.startswith("RG-")}
    assert {m for m in got if m.startswith("MTR-")} == {"MTR-exact", "MTR-stem"}
    with Store(db, read_only=True) as store:
        signatures = [r[0] for r in store.query("select signature from score_batch")]
    assert signatures and all(s.endswith("|lang:de") for s in signatures)


def test_cyrillic_rouge_no_longer_scores_one(tmp_path: Path) -> None:
    """The issue's case: ROUGE keeps only [A-Za-z0-9], so a Russian segment where only '14'
    survives scored RG-L = 1.0."""
    db = _testbed(tmp_path, ("Это было 14 лет назад", "Да"), ("Совсем другое 14", "Нет"),
                  "--tgt-lang", "ru")
    result = ulcdb(db, "score", "-m", "RG-L", "-j", "1")
    assert result.exit_code == 1 and "RG-L cannot score target language 'ru'" in result.output


def test_no_target_language_warns(tmp_path: Path) -> None:
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP)
    result = ulcdb(db, "score", "-m", "RG-L,BLEU", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "test bed 'tb' has no target language: RG-L assume English" in result.stderr


def test_list_metrics_shows_languages(tmp_path: Path) -> None:
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP, "--tgt-lang", "de")
    result = ulcdb(db, "list", "metrics", "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r["languages"] for r in csv.DictReader(io.StringIO(result.stdout))}
    assert (rows["BLEU-4"], rows["RG-L"], rows["MTR-exact"], rows["MTR-stem"],
            rows["MTR-wnsyn"], rows["DP-Or-*"], rows["CP-STM-4"], rows["SR-Or-*-b"]) == (
        "any", "en", "any", "da, de, en, es, fi, fr, hu, it, nl, no, pt, ro, ru, sv, tr", "en",
        "annotation", "en, annotation", "en, annotation")
    result = ulcdb(db, "list", "metrics")  # the table's title states the scale
    assert "metrics (scores on a 0-1 scale unless their range says otherwise)" in \
        " ".join(result.stdout.split())


@pytest.mark.skipif(importlib.util.find_spec("fr_core_news_sm") is None,
                    reason="French spaCy model not installed (pip install '.[fr]')")
def test_french_with_the_french_model(tmp_path: Path) -> None:
    db = _testbed(tmp_path, ("Le chat dort sur le canapé .", "Marie habite à Paris ."),
                  ("Le chat dort sur le sofa .", "Marie vit à Paris ."), "--tgt-lang", "fr")
    refused = ulcdb(db, "score", "-m", "DP-Or-*", "-j", "1")
    assert refused.exit_code == 1 and "reads an annotation in 'en'" in refused.output
    result = ulcdb(db, "score", "-m", "DP-Or-*,NE-Oe-*,SP-Op-*,CP", "-j", "1",
                   "--annotator-model", "fr_core_news_sm")
    assert result.exit_code == 0, result.output
    assert "left out for target language fr: CP" in result.stderr
    with Store(db, read_only=True) as store:
        assert store.query("select distinct annotator, model, lang from annotation_run") == \
            [("spacy", "fr_core_news_sm", "fr")]
        scored = dict(store.query("select metric, value from scores where level = 'sys' and "
                                  "translator = 'S1' and refset = 'ref-A'"))
    assert {"DP-Or-*", "NE-Oe-*", "SP-Op-*"} <= set(scored)
    assert not {m for m in scored if m.startswith(("CP-", "SR-"))}
    assert 0 < scored["DP-Or-*"] < 1


@pytest.mark.parametrize("lang, hint", [
    ("ru", "give --annotator-model with a ru model (e.g. spaCy's ru_core_news_sm) or import "
           "ru annotations"),
    ("zh", "give --annotator-model with a zh model (e.g. spaCy's zh_core_web_sm) or import "
           "zh annotations"),
    ("cs", "spaCy has no cs model: import cs annotations (`ulcdb ingest annotations`), or give "
           "--annotator stanza --annotator-model with a Stanza cs model")])
def test_the_model_a_linguistic_metric_is_told_to_use_exists(tmp_path: Path, lang: str,
                                                             hint: str) -> None:
    """spaCy names its Chinese (and English) pipelines xx_core_web_sm, the others
    xx_core_news_sm, and has none for Czech: the hint said zh_core_news_sm and
    cs_core_news_sm, which do not exist (spacy.io/models)."""
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP, "--tgt-lang", lang)
    result = ulcdb(db, "score", "-m", "DP-Or-*", "-j", "1")
    assert result.exit_code == 1
    assert result.output.strip().endswith(f"reads an annotation in 'en'; {hint}")


def test_an_annotator_with_no_run_is_refused(tmp_path: Path) -> None:
    """--annotator names spaCy, Stanza or an imported run: BLEU with --annotator foo was
    stored under the variant case:mixed|ann:foo, an annotation that does not exist."""
    db = _testbed(tmp_path, GERMAN, GERMAN_HYP, "--tgt-lang", "de")
    result = ulcdb(db, "score", "-m", "BLEU", "--annotator", "foo", "-j", "1")
    assert result.exit_code == 1
    assert result.output == (
        "Error: --annotator foo: no annotation run 'foo' in the store (--annotator takes "
        "spacy, stanza or a tool imported with `ulcdb ingest annotations --tool foo`)\n")
    assert _metrics(db) == set()
    assert ulcdb(db, "score", "-m", "BLEU", "-j", "1").exit_code == 0
