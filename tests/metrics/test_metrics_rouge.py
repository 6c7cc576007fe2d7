"""ROUGE (RG-*) against ROUGE-1.5.5's golden outputs, Asiya's ROUGE rows and small examples."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from golden import GoldenRow, Sample, golden_value, load_golden, load_sample

from ulcdb.metrics import rouge_kernel
from ulcdb.metrics.base import Documents, Params
from ulcdb.metrics.registry import BUILTIN_SETS
from ulcdb.metrics.rouge import (
    METRIC_NAMES,
    ROUGE_OPTIONS,
    RougeFamily,
    bootstrap_totals,
    lcs_length,
    pair_counts,
    pair_hits,
    perl_bootstrap_draws,
    python_hits,
    resample_indices,
    rouge_averages,
    segment_rpf,
    skip_bigram_hits,
    stem,
    tokenize,
    wlcs_hit,
)

FAMILY = RougeFamily()
# ROUGE-1.5.5's and Asiya's metric names -> ours.
ROUGE_NAMES = {f"ROUGE-{n}": f"RG-{n}" for n in range(1, 5)} | {
    "ROUGE-L": "RG-L", "ROUGE-S*": "RG-S*", "ROUGE-SU*": "RG-SU*", "ROUGE-W-1.2": "RG-W-1.2"}
ASIYA_NAMES = ROUGE_NAMES | {"ROUGE-W": "RG-W-1.2"}


# --- golden data ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ruen(shared: Path) -> tuple[Sample, list[GoldenRow]]:
    sample = load_sample(shared, "ruen")
    return sample, load_golden(shared / "golden" / "ruen_sample" / "rouge.tsv")


def _per_segment_rpf(sample: Sample, system: str, refset: str) -> np.ndarray:
    """(segments x metrics*3) array of rounded R, P, F, metric-major."""
    refs = [[tokenize(text) for text in ref] for ref in sample.refset(refset)]
    rows = [
        segment_rpf(tokenize(hyp), [ref[i] for ref in refs])
        for i, hyp in enumerate(sample.translator(system))
    ]
    return np.array(rows, dtype=np.float64).reshape(len(rows), -1)


def test_rouge_golden_every_f_row(ruen: tuple[Sample, list[GoldenRow]]) -> None:
    """Every ROUGE-1.5.5 F value (seg, doc, sys; one and two references), as printed."""
    sample, rows = ruen
    f_rows = [r for r in rows if r.metric.endswith(" F")]
    scores = {
        key: FAMILY.compute(sample.translator(key[0]), sample.refset(key[1]), sample.docs, Params())
        for key in sorted({(r.system, r.refset) for r in f_rows})
    }
    mismatched = []
    for row in f_rows:
        metric = ROUGE_NAMES[row.metric[:-2]]
        value = golden_value(row, sample.docs, scores[row.system, row.refset][metric])
        if f"{value:.5f}" != row.value:
            mismatched.append((row, value))
    assert mismatched == []
    assert len(f_rows) == 8 * 10 * 3 * (64 + 8 + 1)
    assert {r.refset for r in f_rows} == {"ref-A", "ref-B", "ref-A+ref-B"}


def test_rouge_golden_recall_and_precision(ruen: tuple[Sample, list[GoldenRow]]) -> None:
    """R and P too: each Eval line, and ROUGE's bootstrap Average_R/_P of every run."""
    sample, rows = ruen
    column = {f"{m} {x}": 3 * k + "RPF".index(x) for k, m in enumerate(METRIC_NAMES) for x in "RPF"}
    spans = dict.fromkeys([""], (0, len(sample.docs.doc_ids)))
    spans |= {doc_id: (start, end) for doc_id, start, end in sample.docs.spans()}
    values, averages = {}, {}
    for key in {(r.system, r.refset) for r in rows}:
        values[key] = _per_segment_rpf(sample, *key)
        for doc_id, (start, end) in spans.items():
            averages[(*key, doc_id)] = rouge_averages(values[key][start:end])
    mismatched = 0
    for row in rows:
        col = column[f"{ROUGE_NAMES[row.metric[:-2]]} {row.metric[-1]}"]
        if row.level == "seg":
            value = values[row.system, row.refset][int(row.seg_id) - 1, col]
        else:
            value = averages[row.system, row.refset, row.doc_id][col]
        mismatched += f"{value:.5f}" != row.value
    assert mismatched == 0
    assert len(rows) == 3 * 8 * 10 * 3 * (64 + 8 + 1)


def test_rouge_asiya_rows(shared: Path) -> None:
    """Asiya's seg and sys ROUGE equal ours; its doc value is the mean of the segment scores."""
    sample = load_sample(shared, "ruen")
    rows = [
        r for r in load_golden(shared / "golden" / "ruen_sample" / "asiya_lex.tsv")
        if r.metric in ASIYA_NAMES
    ]
    scores = {
        key: FAMILY.compute(sample.translator(key[0]), sample.refset(key[1]), sample.docs, Params())
        for key in sorted({(r.system, r.refset) for r in rows})
    }
    spans = {doc_id: (start, end) for doc_id, start, end in sample.docs.spans()}
    for row in rows:
        level = scores[row.system, row.refset][ASIYA_NAMES[row.metric]]
        if row.level == "doc":
            start, end = spans[row.doc_id]
            value = sum(level.seg[start:end]) / (end - start)
            assert value == pytest.approx(float(row.value), abs=5.1e-9), row
        else:
            assert f"{golden_value(row, sample.docs, level):.8f}" == row.value, row
    assert len(rows) == 8 * 10 * 3 * (64 + 8 + 1)


# --- tokens -----------------------------------------------------------------------------------


def test_rouge_tokens() -> None:
    # ASCII lower-casing; every non-alphanumeric character (non-ASCII ones too) separates.
    assert tokenize("Don't STOP-it, Ünïon 3.5%") == ("don", "t", "stop", "it", "n", "on", "3", "5")
    # Tokens of up to 3 characters are not stemmed; WordNet irregular forms come first.
    assert tokenize("was cats went children") == ("was", "cat", "go", "child")
    assert tokenize("") == ()


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("generalization", "gener"),
        ("possibly", "possibl"),
        ("archaeology", "archaeolog"),  # Porter's own 'logi' -> 'log'
        # C.-Y. Lin's step 4; Porter's own gives fundament, element, profession, government.
        ("fundamental", "fundam"),
        ("element", "elem"),
        ("professional", "profess"),
        ("governmental", "govern"),
        ("adjustment", "adjust"),
    ],
)
def test_rouge_porter_stemmer(word: str, expected: str) -> None:
    assert stem(word) == expected


# --- matching ---------------------------------------------------------------------------------


def _naive_lcs(ref: tuple[str, ...], hyp: tuple[str, ...]) -> int:
    table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i, a in enumerate(ref, 1):
        for j, b in enumerate(hyp, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if a == b else max(
                table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def _naive_wlcs(ref: tuple[str, ...], hyp: tuple[str, ...]) -> float:
    """ROUGE-1.5.5's wlcs_inner, markLCS and run weighting, transcribed cell by cell."""
    m, n = len(ref), len(hyp)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if ref[i - 1] == hyp[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + float(k + 1) ** 1.2 - float(k) ** 1.2
                move[i][j], run[i][j] = "\\", k + 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], move[i][j] = c[i - 1][j], "^"
            else:
                c[i][j], move[i][j] = c[i][j - 1], "<"
    marked = [0] * m
    i, j = m, n
    while i and j:
        if move[i][j] == "\\":
            i, j = i - 1, j - 1
            marked[i] = 1
        elif move[i][j] == "^":
            i -= 1
        else:
            j -= 1
    hit, length = 0.0, 0
    for flag in [*marked, 0]:
        if flag:
            length += 1
        elif length:
            hit, length = hit + float(length) ** 1.2, 0
    return hit


def _naive_skip(hyp: tuple[str, ...], ref: tuple[str, ...]) -> int:
    def pairs(toks: tuple[str, ...]) -> Counter:
        return Counter(combinations(toks, 2))

    return sum((pairs(hyp) & pairs(ref)).values())


def test_rouge_matching_equals_naive_dynamic_programmes() -> None:
    """Fast LCS, weighted LCS (bit for bit, ties included) and skip-bigrams vs the naive ones."""
    rng = random.Random(7)
    for _ in range(400):
        vocab = "abcdef"[: rng.randint(1, 6)]
        ref = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 12)))
        hyp = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 12)))
        assert lcs_length(ref, hyp) == _naive_lcs(ref, hyp)
        assert wlcs_hit(ref, hyp) == _naive_wlcs(ref, hyp)
        assert skip_bigram_hits(hyp, ref) == _naive_skip(hyp, ref)


def _compiled_matching() -> rouge_kernel.PairHits:
    pytest.importorskip("numba")
    kernel = rouge_kernel.pair_hits()
    assert kernel is not None
    return kernel


def test_rouge_compiled_matching_equals_python() -> None:
    """numba's hits of every metric (token ids) equal the Python matching, bit for bit."""
    _compiled_matching()
    rng = random.Random(11)
    for _ in range(600):
        vocab = [f"w{k}" for k in range(rng.randint(1, 40))]
        ref = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 60)))
        hyp = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 60)))
        assert pair_hits(hyp, ref) == python_hits(hyp, ref)


def test_rouge_compiled_matching_on_the_sample(ruen: tuple[Sample, list[GoldenRow]]) -> None:
    """The same on every (system, reference) segment pair of the ru-en sample."""
    _compiled_matching()
    sample = ruen[0]
    compared = 0
    for system in sample.systems:
        for ref_lines in sample.refs.values():
            for hyp_text, ref_text in zip(sample.systems[system], ref_lines, strict=True):
                hyp, ref = tokenize(hyp_text), tokenize(ref_text)
                assert pair_hits(hyp, ref) == python_hits(hyp, ref)
                compared += 1
    assert compared == len(sample.systems) * len(sample.refs) * len(sample.docs.doc_ids)


def test_rouge_counts_of_one_pair() -> None:
    hyp, ref = ("a", "b", "c", "d"), ("a", "c", "b", "d", "e")
    counts = dict(zip(METRIC_NAMES, pair_counts(hyp, ref), strict=True))
    assert counts["RG-1"] == (4, 5, 4)
    assert counts["RG-2"] == (0, 4, 3)
    assert counts["RG-L"] == (3, 5, 4)
    assert counts["RG-S*"] == (5, 10, 6)  # all hypothesis pairs but (b, c)
    # -U: unigrams of every token but the last one (ROUGE-1.5.5's loop): a b c vs a c b d.
    assert counts["RG-SU*"] == (5 + 3, 10 + 4, 6 + 3)
    # ROUGE-W: the trace-back marks reference tokens a, c and d; "a c" is a run of 2 in the
    # reference although b lies between them in the hypothesis (ROUGE-1.5.5 counts so).
    hit, ref_total, hyp_total = counts["RG-W-1.2"]
    assert hit == 2**1.2 + 1
    assert ref_total == pytest.approx((5**1.2) ** 1.2)  # ROUGE weights |ref| twice
    assert hyp_total == pytest.approx(4**1.2)


def test_rouge_segment_rounding_and_pooling() -> None:
    hyp = tokenize("the cat sat on the mat")
    ref_a, ref_b = tokenize("the cat is on the mat"), tokenize("a cat sat on a mat")
    rg1_a = segment_rpf(hyp, [ref_a])[0]
    assert rg1_a == (0.83333, 0.83333, 0.83333)
    # -f A: hits and counts are summed over the references: (5 + 4) / (6 + 6).
    assert segment_rpf(hyp, [ref_a, ref_b])[0] == (0.75, 0.75, 0.75)
    # ROUGE-W of an exact copy: P = 1, R = f^-1(f(6) / f(f(6))) = 6 ** -0.2, F from rounded.
    recall, precision, f = segment_rpf(hyp, [hyp])[METRIC_NAMES.index("RG-W-1.2")]
    assert (recall, precision) == (round(6**-0.2, 5), 1.0)
    assert f == round(2 * recall / (1 + recall), 5)


# --- averages and the family ------------------------------------------------------------------


def test_rouge_perl_bootstrap_draws() -> None:
    # perl -e 'srand(0); print rand()' prints 0.170828036106627 (Perl 5.20 and later).
    assert perl_bootstrap_draws(1000)[0, 0] == 170
    assert perl_bootstrap_draws(1).max() == 0


def test_rouge_averages_are_bootstrap_means() -> None:
    values = np.array([[0.5], [0.25], [1.0], [0.0]])
    (average,) = rouge_averages(values)
    assert average == pytest.approx(values.mean(), abs=0.02)
    assert rouge_averages(np.array([[0.12345, 0.5]])) == [0.12345, 0.5]


def test_rouge_compiled_bootstrap_equals_numpy() -> None:
    """numba's bootstrap sums equal numpy's bit for bit (so every rounding is the same)."""
    pytest.importorskip("numba")
    compiled = rouge_kernel.bootstrap_totals()
    assert compiled is not None
    rng = np.random.default_rng(5)
    for count in (1, 2, 9, 10, 11, 57, 300):
        scores = np.round(rng.random((count, len(METRIC_NAMES))), 5)
        scores[rng.random(scores.shape) < 0.2] = 0.0
        indices = resample_indices(count)
        expected = bootstrap_totals(scores, indices)
        assert compiled(scores, indices).tolist() == expected.tolist()


def test_rouge_family_levels_and_catalogue() -> None:
    docs = Documents(("d1", "d1", "d2"))
    hyps = ["The cat sat on the mat.", "It rained.", ""]
    refs = [["The cat is on the mat.", "It was raining.", "Nothing."]]
    out = FAMILY.compute(hyps, refs, docs, Params())
    assert set(out) == set(METRIC_NAMES)
    for scores in out.values():
        assert len(scores.seg) == 3 and set(scores.doc) == {"d1", "d2"}
        assert scores.seg[2] == 0.0 and scores.doc["d2"] == 0.0
        assert 0.0 <= scores.sys <= 1.0
    assert out["RG-1"].seg[0] == 0.83333
    assert [s.name for s in FAMILY.specs()] == list(BUILTIN_SETS["ROUGE"])
    assert all(s.range_min == 0.0 and s.range_max == 1.0 for s in FAMILY.specs())
    assert all(s.higher_is_better and "ROUGE-1.5.5" in s.description for s in FAMILY.specs())
    signature = FAMILY.signature(Params(), 2)
    assert "nrefs:2" in signature and ROUGE_OPTIONS in signature
    assert FAMILY.compute([], [[]], Documents(()), Params())["RG-L"].sys is None


def test_rouge_rejects_misaligned_input() -> None:
    with pytest.raises(ValueError):
        FAMILY.compute(["a b"], [["a b", "c"]], Documents(("d",)), Params())


def test_columns_round_as_perl_prints_each_value() -> None:
    """Issue 28: R, P and F are rounded a column at a time; every value equals the printed
    and re-read one, on decimal halves (0.123455 is not one in binary), ratios of small
    counts, ROUGE-W's powers and values beyond the fast path."""
    from ulcdb.metrics.rouge_table import f_values, ratios, round5, round5_all

    rng = np.random.default_rng(28)
    halves = (np.arange(0, 200_001) + 0.5) / 1e5
    counts = rng.integers(0, 60, size=(3, 20_000)).astype(np.float64)
    values = np.concatenate([halves, counts[0] / np.maximum(counts[1], 1), rng.random(50_000),
                             [0.0, 1.0, 1234.567895, 2.5e-6, 7.5e-6]])
    assert round5_all(values).tolist() == [round5(v) for v in values.tolist()]
    hit, ref_total, hyp_total = np.minimum(counts[0], counts[1]), counts[1], counts[2]
    for inverse in (None, 1 / 1.2):
        expected = [rpf_value(h, r, p, inverse) for h, r, p in zip(
            hit.tolist(), ref_total.tolist(), hyp_total.tolist(), strict=True)]
        assert f_values(hit, ref_total, hyp_total, 0.5, inverse).tolist() == expected
    assert ratios(np.array([1.0, 2.0]), np.array([0.0, 4.0])).tolist() == [0.0, 0.5]


def rpf_value(hit: float, ref_total: float, hyp_total: float, inverse: float | None) -> float:
    from ulcdb.metrics.rouge import rpf

    return rpf(hit, ref_total, hyp_total, inverse=inverse is not None)[2]


def test_family_segments_equal_segment_rpf_to_the_bit(ruen: tuple[Sample, list[GoldenRow]]
                                                       ) -> None:
    sample, _ = ruen
    for system, refset in (("Online-W", "ref-A"), ("NVIDIA-NeMo", "ref-A+ref-B")):
        hyps, refs = sample.translator(system), sample.refset(refset)
        scores = FAMILY.compute(hyps, refs, sample.docs, Params())
        expected = _per_segment_rpf(sample, system, refset)
        for k, name in enumerate(METRIC_NAMES):
            assert scores[name].seg == expected[:, 3 * k + 2].tolist(), name
