"""METEOR (Meteor 1.5 re-implementation): golden rows, jar values and the jar's quirks."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from golden import golden_value, load_golden, load_sample

from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.meteor import (
    WN_STEM,
    MeteorFamily,
    _Side,
    align,
    beam,
    java_hash,
    meteor_score,
    module_matches,
    snowball_english,
    synonym_sets,
    tokenize,
    wordnet_base_forms,
)

GOLDEN_NAMES = {
    "METEOR[exact]": "MTR-exact",
    "METEOR[exact stem]": "MTR-stem",
    "METEOR[exact stem synonym]": "MTR-wnsyn",
}

# Hand-made sentences; the expected values were printed by meteor-1.5.jar (plain text,
# -l en, -m "exact" / "exact stem" / "exact stem synonym").
HYPS = ["he was eating an apple", "the cat eats fish", "We said it",
        "the the cat sat on the mat the", "Running dogs", ""]
REFS = ["an apple he eats", "fish the cat is eating", "it we say",
        "the cat the mat sat on the the", "running Dogs", "something"]
JAR = {
    "MTR-exact": ([0.2740707074300389, 0.2882162923296538, 0.08510638297872342,
                   0.45383073909217597, 0.0, 0.0], 0.2607967964107246),
    "MTR-stem": ([0.3617328777812025, 0.3516329898951998, 0.08510638297872342,
                  0.45383073909217597, 0.0, 0.0], 0.29136110333080234),
    "MTR-wnsyn": ([0.2740707074300389, 0.2882162923296538, 0.2666666666666667,
                   0.45383073909217597, 0.0, 0.0], 0.27961547569701484),
}


def _score(hyps: list[str], refs: list[list[str]], lowercase: bool = False):
    docs = Documents(tuple(f"d{n // 2}" for n in range(len(hyps))))
    return MeteorFamily().compute(hyps, refs, docs, Params(lowercase=lowercase))


def test_jar_values_on_hand_made_sentences() -> None:
    out = _score(HYPS, [REFS])
    for metric, (seg, system) in JAR.items():
        assert out[metric].seg == seg, metric
        assert out[metric].sys == system, metric


def test_adding_synonym_can_lower_a_score() -> None:
    # eating/eats is a stem match; with the synonym module it is also a synonym match, is no
    # longer fixed, and Meteor's integer search weights let the beam search drop it.
    out = _score(HYPS[:1], [REFS[:1]])
    assert out["MTR-wnsyn"].seg[0] < out["MTR-stem"].seg[0]


def test_snowball_stems_equal_the_java_stemmer() -> None:
    jar = {"generously": "generous", "Running": "Run", "running": "run",
           "Russians": "Russian", "USA": "USA", "yesterday": "yesterday", "Saying": "Say",
           "community": "communiti", "arsenal": "arsenal", "skies": "sky",
           "proceeding": "proceed", "'tis": "tis", "consistency": "consist", "hopping": "hop",
           "hoping": "hope", "agreed": "agre", "feed": "feed"}
    assert {w: snowball_english(w) for w in jar} == jar


def test_compiled_beam_search_equals_python() -> None:
    """numba's beam search chooses the same matches as the Python one (ties included), also
    past 64 test words, on random candidate lists with fixed matches as ``align`` makes them."""
    pytest.importorskip("numba")
    assert beam.compiled_search() is not None
    rng = random.Random(1)
    searched = 0
    for _ in range(2000):
        n_test, n_ref = rng.randint(1, 90), rng.randint(1, 90)
        cands = [sorted({(rng.randrange(n_test), rng.choice((0, 0, 1, 2, 3)))
                         for _ in range(rng.choice((0, 0, 1, 1, 2, 3, 6)))})
                 for _ in range(n_ref)]
        cover = [0] * n_test
        for c in cands:
            for i, _ in c:
                cover[i] += 1
        fixed = {j: c[0] for j, c in enumerate(cands) if len(c) == 1 and cover[c[0][0]] == 1}
        if len(fixed) == sum(1 for c in cands if c):
            continue  # align() does not search then
        used = sum(1 << i for i, _ in fixed.values())
        assert align._search(cands, fixed, used) == align.python_search(cands, fixed, used)
        searched += 1
    assert searched > 1500


def test_tokens_split_on_ascii_whitespace_only() -> None:
    assert tokenize(" a\u00a0b  c\td,\r\n e. ") == ["a\u00a0b", "c", "d,", "e."]
    assert len(tokenize("x \U0001F600")[1]) == 2  # UTF-16, like Java strings


def test_words_compare_by_java_hash() -> None:
    assert java_hash("hello") == 99162322
    assert java_hash("Aa") == java_hash("BB")


def test_synonyms_use_wordnet_base_forms() -> None:
    assert synonym_sets("said") & synonym_sets("says")  # verb.exc said -> say; says -> say
    assert not synonym_sets("Said")  # case-sensitive, as in Meteor without -lower


def test_wordnet_base_forms_follow_the_wordnet_files() -> None:
    # verb.exc: went -> go, saw -> see; noun.exc: children -> child, mice -> mouse; the
    # detachment rules: houses -> house (noun -s), eating -> eat (verb -ing).
    assert wordnet_base_forms("went") == {"go"}
    assert wordnet_base_forms("children") == {"child"}
    assert wordnet_base_forms("mice") == {"mouse"}
    assert wordnet_base_forms("saw") == {"saw", "see"}
    assert wordnet_base_forms("eating") == {"eat", "eating"}
    assert wordnet_base_forms("Houses") == {"house"}  # looked up lowercased, as QueryData does
    assert wordnet_base_forms("boss") == {"boss"}  # no detachment after "ss" (not "bos")
    assert wordnet_base_forms("the") == frozenset()


def test_wn_stem_matches_what_the_stemmer_misses() -> None:
    # exact: home; wn_stem: children/child, went/go (Snowball stems differ).  One chunk
    # covering both sentences, so no penalty: P = R = (1 + 0.6 + 0.6) / 3.
    out = _score(["children went home"], [["child go home"]])
    assert out["MTR-wnstm"].seg[0] == pytest.approx(2.2 / 3, abs=1e-15)
    # Without wn_stem only "home" matches: P = R = 1/3, one chunk of one match:
    # 1/3 * (1 - 0.6 * 1 ** 0.2).
    assert out["MTR-stem"].seg[0] == pytest.approx(1 / 3 * 0.4, abs=1e-15)
    # A case variant of a WordNet word is a wn_stem match too.
    assert _score(["House"], [["house"]])["MTR-wnstm"].seg[0] == pytest.approx(0.6, abs=1e-15)
    assert _score(["House"], [["house"]])["MTR-stem"].seg[0] == 0.0


def test_wn_stem_leaves_stem_matches_alone() -> None:
    # eating/eats share a Snowball stem, so wn_stem does not list them again: MTR-wnstm is
    # the jar's "exact stem" value here (unlike MTR-wnsyn, which loses the first match).
    out = _score(HYPS[:2], [REFS[:2]])
    assert out["MTR-wnstm"].seg == JAR["MTR-stem"][0][:2]
    assert out["MTR-wnstm"].sys == out["MTR-stem"].sys
    # said/say (verb.exc) is what the stemmer misses: only MTR-wnstm gains it.
    said = _score(HYPS[2:3], [REFS[2:3]])
    assert said["MTR-stem"].seg == JAR["MTR-stem"][0][2:3]
    assert said["MTR-wnstm"].seg[0] > said["MTR-stem"].seg[0]
    stats = out["MTR-wnstm"].seg_stats
    assert meteor_score([sum(col) for col in zip(*stats, strict=True)],
                        [1.0, 0.6, 0.6]) == out["MTR-wnstm"].sys


def test_identical_sentences_and_lowercasing() -> None:
    out = _score(["Running dogs"], [["running dogs"]], lowercase=True)
    assert out["MTR-exact"].seg[0] == pytest.approx(1.0, abs=1e-15)
    assert _score(["Running dogs"], [["running dogs"]])["MTR-exact"].seg[0] < 0.5


def test_best_reference_per_segment_and_summed_statistics() -> None:
    refs_b = ["he eats an apple", "something else", "it we say", "a b", "x", "something"]
    both = _score(HYPS, [REFS, refs_b])
    single = [_score(HYPS, [r]) for r in (REFS, refs_b)]
    for metric in JAR:
        best = [max(a, b) for a, b in zip(single[0][metric].seg, single[1][metric].seg,
                                          strict=True)]
        assert both[metric].seg == best
        stats = both[metric].seg_stats
        total = [sum(col) for col in zip(*stats, strict=True)]
        weights = {"MTR-exact": [1.0], "MTR-stem": [1.0, 0.6]}.get(metric, [1.0, 0.6, 0.8])
        assert meteor_score(total, weights) == both[metric].sys
        assert both[metric].sys != pytest.approx(sum(both[metric].seg) / len(HYPS))
        assert both[metric].doc["d0"] == meteor_score(
            [sum(col) for col in zip(*stats[:2], strict=True)], weights)


def test_specs_signature_and_validation() -> None:
    family = MeteorFamily()
    specs = family.specs()
    assert [s.name for s in specs] == ["MTR-exact", "MTR-stem", "MTR-wnstm", "MTR-wnsyn"]
    assert all(s.range_min == 0.0 and s.range_max == 1.0 and s.higher_is_better for s in specs)
    assert "Meteor 1.5" in specs[3].reference_implementation
    assert "wn_stem" in specs[2].reference_implementation
    assert "No reference tool prints these numbers" in specs[2].description
    assert family.signature(Params(), 2).startswith("METEOR|nrefs:2|case:mixed|")
    with pytest.raises(ValueError):
        family.compute(["a"], [], Documents(("d",)), Params())
    with pytest.raises(ValueError):
        family.compute(["a", "b"], [["a"]], Documents(("d", "d")), Params())
    with pytest.raises(ValueError):
        MeteorFamily({"X": (1,)})
    with pytest.raises(ValueError):
        MeteorFamily({"X": (0, WN_STEM)})  # wn_stem lists what stem missed


@pytest.fixture(scope="module")
def golden_scores(shared: Path):
    """Every (system, refset) of the golden ru-en sample, scored once."""
    sample = load_sample(shared, "ruen")
    rows = [r for r in load_golden(shared / "golden" / "ruen_sample" / "meteor.tsv")
            if r.metric in GOLDEN_NAMES]
    family = MeteorFamily()
    scores = {}
    for key in sorted({(r.system, r.refset) for r in rows}):
        scores[key] = family.compute(sample.translator(key[0]), sample.refset(key[1]),
                                     sample.docs, Params())
    return sample, rows, scores


@pytest.mark.parametrize("golden_metric", sorted(GOLDEN_NAMES))
def test_golden_meteor_rows(golden_scores, golden_metric: str) -> None:
    sample, rows, scores = golden_scores
    rows = [r for r in rows if r.metric == golden_metric]
    assert len(rows) == 10 * 3 * (64 + 8 + 1)
    metric = GOLDEN_NAMES[golden_metric]
    for row in rows:
        value = golden_value(row, sample.docs, scores[(row.system, row.refset)][metric])
        assert math.isclose(value, float(row.value), rel_tol=0.0, abs_tol=1e-12), row


def test_golden_mtr_wnstm_equals_exact_stem_where_wn_stem_finds_nothing(golden_scores) -> None:
    # No tool prints MTR-wnstm; where the wn_stem module lists no candidate against any
    # reference of the set, the alignment is the jar's "exact stem" one, so is its value.
    sample, rows, scores = golden_scores
    silent = differ = 0
    for row in rows:
        if row.metric != "METEOR[exact stem]" or row.level != "seg":
            continue
        n = int(row.seg_id) - 1
        t = _Side(sample.translator(row.system)[n], frozenset({WN_STEM}))
        refs = [_Side(ref[n], frozenset({WN_STEM})) for ref in sample.refset(row.refset)]
        value = scores[(row.system, row.refset)]["MTR-wnstm"].seg[n]
        if any(any(c) for r in refs for c in module_matches(t, r, WN_STEM)):
            differ += value != float(row.value)
        else:
            silent += 1
            assert math.isclose(value, float(row.value), rel_tol=0.0, abs_tol=1e-12), row
    assert (silent, differ) == (996, 574)  # 350 more list a pair the alignment leaves out


def test_compiled_columns_equal_the_python_functions(golden_scores) -> None:
    """The compiled column aligner (meteor.kernel) gives every value and statistic of the
    per-pair Python functions: on the golden ru-en sample (every system and reference set)
    and on random sentences over a small vocabulary of exact, stem, wn_stem and synonym
    variants (many candidates per word, so the beam search runs)."""
    pytest.importorskip("numba")
    sample, _, scores = golden_scores
    python = MeteorFamily(compiled=False)
    for (system, refset), compiled in scores.items():
        assert python.compute(sample.translator(system), sample.refset(refset), sample.docs,
                              Params()) == compiled
    rng = random.Random(7)
    vocab = ("the cat cats eat eats eating ate went go goes children child mice mouse big "
             "large car automobile , . The Cat").split()
    hyps = [" ".join(rng.choices(vocab, k=rng.randint(0, 30))) for _ in range(300)]
    refs = [[" ".join(rng.choices(vocab, k=rng.randint(0, 30))) for _ in range(300)]
            for _ in range(2)]
    hyps[:2] = refs[0][:2]  # identical sentences: the exact module only
    docs = Documents(tuple(f"d{n // 7}" for n in range(300)))
    for lowercase in (False, True):
        params = Params(lowercase=lowercase)
        assert (MeteorFamily().compute_many(hyps, [refs, refs[:1]], docs, params)
                == python.compute_many(hyps, [refs, refs[:1]], docs, params))


def test_word_types_are_described_once_with_the_per_word_functions() -> None:
    """_Side reads each word type from a per-process table; a second sentence with the same
    words (read from the table) holds what the per-word functions give."""
    wordnet = frozenset({WN_STEM, align.SYNONYM})
    text = "The children went home , mice ate cheese"
    first, second = _Side(text, wordnet), _Side(text, wordnet)
    table = align._word_table(snowball_english, align.FUNCTION_WORDS, wordnet)
    assert set(text.split()) <= table.keys()
    for side in (first, second):
        assert side.keys == [java_hash(w) for w in text.split()]
        assert side.stems == [java_hash(snowball_english(w)) for w in text.split()]
        assert side.function == [w.lower() in align.FUNCTION_WORDS for w in text.split()]
        assert side.syns == [synonym_sets(w) for w in text.split()]
        assert side.bases == [wordnet_base_forms(w) for w in text.split()]
        assert side.syn_ids == [tuple(sorted(synonym_sets(w))) for w in text.split()]
    assert _Side(text).syns == [] and _Side(text).bases == []
