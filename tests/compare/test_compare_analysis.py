"""`ulcdb compare --analysis word-freq|category` (issue 14): compare-mt's word accuracy by
frequency bucket, checked against compare-mt's algorithm re-implemented here from its
``bucketers.py`` (WordBucketer._calc_trg_matches, _calc_trg_buckets_and_matches,
calc_statistics; FreqWordBucketer with its default cutoffs) and against a hand computation;
per-category linguistic scores checked with plain SQL and a paired bootstrap in numpy."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from tests.cli_helpers import ingest_ende, ulcdb
from ulcdb.compare.words import bucket_labels, word_accuracy

REPO = Path(__file__).resolve().parents[2]


# -- compare-mt, re-implemented as its code reads ----------------------------------------------


class CompareMtFreq:
    """compare-mt's FreqWordBucketer (freq_data = the reference) and WordBucketer."""

    def __init__(self, ref: list[list[str]], cutoffs: list[int] | None = None) -> None:
        self.freq_counts: defaultdict[str, int] = defaultdict(lambda: 0)
        for words in ref:
            for word in words:
                self.freq_counts[word] += 1
        self.bucket_cutoffs = cutoffs or [1, 2, 3, 4, 5, 10, 100, 1000]
        self.bucket_strs: list[str] = []
        for i, x in enumerate(self.bucket_cutoffs):
            if i == 0:
                self.bucket_strs.append(f"<{x}")
            elif x - 1 == self.bucket_cutoffs[i - 1]:
                self.bucket_strs.append(f"{x - 1}")
            else:
                self.bucket_strs.append(f"[{self.bucket_cutoffs[i - 1]},{x})")
        self.bucket_strs.append(f">={x}")

    def calc_bucket(self, word: str) -> int:
        value = self.freq_counts.get(word, 0)
        for i, v in enumerate(self.bucket_cutoffs):
            if value < v:
                return i
        return len(self.bucket_cutoffs)

    @staticmethod
    def matches(ref_sent: list[str], out_sents: list[list[str]]) -> list[list[int]]:
        ref_pos: defaultdict[str, list[int]] = defaultdict(list)
        out_matches = [[-1 for _ in s] for s in out_sents]
        for ri, ref_word in enumerate(ref_sent):
            ref_pos[ref_word].append(ri)
        for oai, out_sent in enumerate(out_sents):
            out_word_cnts: dict[str, int] = {}
            for oi, out_word in enumerate(out_sent):
                ref_poss = ref_pos.get(out_word, None)
                if ref_poss:
                    out_word_cnt = out_word_cnts.get(out_word, 0)
                    if out_word_cnt < len(ref_poss):
                        out_matches[oai][oi] = ref_poss[out_word_cnt]
                    out_word_cnts[out_word] = out_word_cnt + 1
        return out_matches

    def statistics(self, ref: list[list[str]], outs: list[list[list[str]]]) -> list[list]:
        nb, no = len(self.bucket_strs), len(outs)
        ref_total = np.zeros(nb, dtype=int)
        out_totals = np.zeros((no, nb), dtype=int)
        out_matches = np.zeros((no, nb), dtype=int)
        for rsi, ref_sent in enumerate(ref):
            out_sents = [x[rsi] for x in outs]
            matches = self.matches(ref_sent, out_sents)
            ref_buckets = [self.calc_bucket(w) for w in ref_sent]
            for b in ref_buckets:
                ref_total[b] += 1
            for oi, (out_sent, match) in enumerate(zip(out_sents, matches, strict=True)):
                for w, m in zip(out_sent, match, strict=True):
                    b = self.calc_bucket(w) if m < 0 else ref_buckets[m]
                    out_totals[oi, b] += 1
                    if m >= 0:
                        out_matches[oi, b] += 1
        stats: list[list] = [[] for _ in range(no)]
        for oi in range(no):
            for bi in range(nb):
                mcnt, ocnt, rcnt = out_matches[oi, bi], out_totals[oi, bi], ref_total[bi]
                if mcnt == 0:
                    rec, prec, fmeas = 0.0, 0.0, 0.0
                else:
                    rec = mcnt / float(rcnt)
                    prec = mcnt / float(ocnt)
                    fmeas = 2 * prec * rec / (prec + rec)
                stats[oi].append((mcnt, rcnt, ocnt, rec, prec, fmeas))
        return stats


def _check(ref: list[list[str]], outs: dict[str, list[list[str]]],
           cutoffs: list[int] | None = None) -> None:
    want = CompareMtFreq(ref, cutoffs).statistics(ref, list(outs.values()))
    got = word_accuracy(ref, outs, cutoffs=tuple(cutoffs or (1, 2, 3, 4, 5, 10, 100, 1000)))
    labels = CompareMtFreq(ref, cutoffs).bucket_strs
    assert list(dict.fromkeys(r.bucket for r in got)) == labels
    for oi, system in enumerate(outs):
        mine = [r for r in got if r.system == system]
        for b, r in enumerate(mine):
            assert (r.n_match, r.n_ref, r.n_out) == tuple(int(v) for v in want[oi][b][:3])
            assert (r.recall, r.precision, r.fmeas) == pytest.approx(want[oi][b][3:], abs=0)


def test_labels_are_compare_mts_defaults() -> None:
    assert bucket_labels((1, 2, 3, 4, 5, 10, 100, 1000)) == [
        "<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]


def test_worked_by_hand() -> None:
    """ref 'a b a c', output 'a a a d': reference counts a=2, b=1, c=1.  The first two a's
    match reference positions 0 and 2 (bucket 2), the third a matches nothing but is still
    in bucket 2 by its own count, d (count 0) is in <1.  Bucket 2: 2 matches of 2 reference
    and 3 output words: R 1, P 2/3, F 0.8; bucket 1: b, c unmatched; bucket <1: d."""
    got = {r.bucket: r for r in word_accuracy([["a", "b", "a", "c"]],
                                              {"S": [["a", "a", "a", "d"]]})}
    two, one, none = got["2"], got["1"], got["<1"]
    assert (two.n_match, two.n_ref, two.n_out) == (2, 2, 3)
    assert (two.recall, two.precision, two.fmeas) == pytest.approx((1.0, 2 / 3, 0.8))
    assert (one.n_match, one.n_ref, one.n_out, one.fmeas) == (0, 2, 0, 0.0)
    assert (none.n_match, none.n_ref, none.n_out, none.fmeas) == (0, 0, 1, 0.0)


@pytest.mark.parametrize("seed", range(5))
def test_equals_compare_mt_on_random_corpora(seed: int) -> None:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(25)]

    def sent() -> list[str]:
        return [rng.choice(vocab[: rng.randint(3, 25)]) for _ in range(rng.randint(0, 12))]

    ref = [sent() for _ in range(30)]
    outs = {"A": [sent() for _ in ref], "B": [sent() for _ in ref]}
    _check(ref, outs)
    _check(ref, outs, [1, 2, 4, 8])


def test_intervals_equal_compare_mts_bucket_details() -> None:
    """compare-mt's calc_bucket_details (np.random.choice of ceil(n/2) segments, 1000
    samples, entries 25 and 975 of the sorted F values) after np.random.seed(7)."""
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(15)]
    ref = [[rng.choice(vocab) for _ in range(rng.randint(1, 9))] for _ in range(21)]
    outs = {"A": [[rng.choice(vocab) for _ in range(rng.randint(1, 9))] for _ in ref],
            "B": [[rng.choice(vocab) for _ in range(rng.randint(1, 9))] for _ in ref]}
    cmt = CompareMtFreq(ref)
    per_seg = [cmt.statistics([r], [[outs["A"][i]], [outs["B"][i]]])
               for i, r in enumerate(ref)]  # per segment: [system][bucket] counts
    np.random.seed(7)
    samples: list[list[list[float]]] = [[[] for _ in cmt.bucket_strs] for _ in outs]
    for _ in range(1000):
        ids = np.random.choice(list(range(21)), size=11, replace=True)
        for oi in range(2):
            for bi in range(len(cmt.bucket_strs)):
                m = sum(per_seg[i][oi][bi][0] for i in ids)
                r = sum(per_seg[i][oi][bi][1] for i in ids)
                o = sum(per_seg[i][oi][bi][2] for i in ids)
                f = 0.0 if m == 0 else 2 * (m / o) * (m / r) / (m / o + m / r)
                samples[oi][bi].append(f)
    got = word_accuracy(ref, outs, resamples=1000, seed=7)
    for r in got:
        oi, bi = "AB".index(r.system), cmt.bucket_strs.index(r.bucket)
        x = sorted(samples[oi][bi])
        assert (r.f_low, r.f_high) == pytest.approx((x[25], x[975]), abs=1e-12)


def test_paired_p_value_of_the_f_difference() -> None:
    """B against A per bucket: sacrebleu's draws (default_rng(12345).choice(n, (1000, n))),
    compare-mt's F on each resample (its statistics on the resampled segments, frequencies
    from the whole reference), p = (#(|dF*| - mean > |dF|) + 1) / 1001."""
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(12)]
    ref = [[rng.choice(vocab) for _ in range(rng.randint(1, 8))] for _ in range(15)]
    outs = {"A": [[rng.choice(vocab) for _ in range(rng.randint(1, 8))] for _ in ref],
            "B": [[rng.choice(vocab) for _ in range(rng.randint(1, 8))] for _ in ref]}
    cmt = CompareMtFreq(ref)
    whole = cmt.statistics(ref, [outs["A"], outs["B"]])
    idxs = np.random.default_rng(12345).choice(15, size=(1000, 15), replace=True)
    diffs = []
    for row in idxs:
        st = cmt.statistics([ref[i] for i in row], [[outs["A"][i] for i in row],
                                                     [outs["B"][i] for i in row]])
        diffs.append([abs(st[1][b][5] - st[0][b][5]) for b in range(len(cmt.bucket_strs))])
    d = np.array(diffs)
    got = {r.bucket: r for r in word_accuracy(ref, outs, resamples=1000) if r.system == "B"}
    for b, label in enumerate(cmt.bucket_strs):
        real = abs(whole[1][b][5] - whole[0][b][5])
        want = 1.0 if not d[:, b].any() else (
            (np.sum(d[:, b] - d[:, b].mean() > real) + 1) / 1001)
        assert got[label].p_value == pytest.approx(want), label
    assert all(r.p_value is None for r in word_accuracy(ref, outs, resamples=10)
               if r.system == "A")


# -- on the store -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_ende(tmp_path_factory.mktemp("words") / "w.duckdb", ende_sample)


def _tokens(path: Path) -> list[list[str]]:
    tok = Tokenizer13a()
    return [tok(line.strip()).split()
            for line in path.read_text(encoding="utf-8").split("\n")[:-1]]


def test_word_freq_cli_equals_compare_mt_on_the_files(ende: Path, ende_sample: Path) -> None:
    result = ulcdb(ende, "compare", "--analysis", "word-freq", "-s", "Facebook-AI,ICL",
                   "-r", "ref-A", "-f", "json")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    ref = _tokens(ende_sample / "refs" / "ref-A.de.txt")
    outs = [_tokens(ende_sample / "systems" / f"{s}.de.txt") for s in ("Facebook-AI", "ICL")]
    cmt = CompareMtFreq(ref)
    want = cmt.statistics(ref, outs)
    assert len(got) == 2 * len(cmt.bucket_strs)
    # no word of the reference or of either output: nothing to test (issue 25)
    empty = {b for i, b in enumerate(cmt.bucket_strs)
             if not any(int(w[i][1]) or int(w[i][2]) for w in want)}
    for r in got:
        oi = ("Facebook-AI", "ICL").index(r["system"])
        w = want[oi][cmt.bucket_strs.index(r["bucket"])]
        assert (r["n_match"], r["n_ref"], r["n_out"]) == tuple(int(v) for v in w[:3])
        assert r["fmeas"] == pytest.approx(w[5], abs=1e-15)
        assert r["f_low"] <= r["fmeas"] <= r["f_high"] or r["n_match"] == 0
        assert (r["p_value"] is None) == (r["system"] == "Facebook-AI"
                                          or r["bucket"] in empty)
    assert sum(r["n_ref"] for r in got if r["system"] == "ICL") == sum(map(len, ref))
    table = ulcdb(ende, "compare", "--analysis", "word-freq", "-s", "Facebook-AI,ICL",
                  "-r", "ref-A")
    assert "ICL - Facebook-AI" in table.stdout and "[10,100)" in table.stdout


def test_word_freq_where_keeps_the_test_beds_frequencies(ende: Path, ende_sample: Path) -> None:
    """--where matches the selected segments' words; frequencies stay those of the whole
    reference (compare-mt counts them on the reference file)."""
    result = ulcdb(ende, "compare", "--analysis", "word-freq", "-s", "Facebook-AI,ICL",
                   "-r", "ref-A", "-f", "json", "--where", "seg_in_doc = 1")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    ref = _tokens(ende_sample / "refs" / "ref-A.de.txt")
    firsts = []
    seen: set[str] = set()
    for line in (ende_sample / "segments_long.tsv").read_text(encoding="utf-8").split("\n")[1:]:
        if line and line.split("\t")[0] not in seen:
            seen.add(line.split("\t")[0])
            if line.split("\t")[2] == "1":
                firsts.append(len(seen) - 1)
    assert 0 < len(firsts) < len(seen)
    outs = {s: [_tokens(ende_sample / "systems" / f"{s}.de.txt")[j] for j in firsts]
            for s in ("Facebook-AI", "ICL")}
    mine = CompareMtFreq(ref)  # frequencies from the whole reference
    buckets = [mine.calc_bucket(w) for j in firsts for w in ref[j]]
    for r in (r for r in got if r["system"] == "ICL"):
        assert r["n_ref"] == buckets.count(mine.bucket_strs.index(r["bucket"]))
    expected = word_accuracy([ref[j] for j in firsts], outs,
                             freq={w: c for w, c in mine.freq_counts.items()})
    assert [(r.bucket, r.system, r.fmeas) for r in expected] == \
        [(r["bucket"], r["system"], pytest.approx(r["fmeas"])) for r in got]


def test_word_freq_needs_one_reference(ende: Path) -> None:
    result = ulcdb(ende, "compare", "--analysis", "word-freq", "-s", "Facebook-AI,ICL",
                   "-r", "ref-A,ref-C")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --analysis word-freq matches words against one "
                                    "reference")
    result = ulcdb(ende, "compare", "--analysis", "word-freq", "--by", "length")
    assert result.exit_code == 1
    assert result.stderr == "Error: --analysis and --by are separate views: give one of them\n"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("categories") / "s.duckdb"
    for args in (("ingest", "testbed", REPO / "sample" / "ULC.config", "--name", "sample"),
                 ("score", "-m", "SP-Op-NN,NE-Oe-PERSON", "-s", "sysA,sysB", "-r", "ref-A",
                  "-j", "1", "-f", "csv")):
        result = ulcdb(path, *args)
        assert result.exit_code == 0, result.output
    return path


def test_categories_side_by_side(sample: Path) -> None:
    from ulcdb.store.database import Store

    result = ulcdb(sample, "compare", "--analysis", "category", "-s", "sysA,sysB", "-r",
                   "ref-A", "-f", "json")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    with Store(sample, read_only=True) as store:
        seg = store.query(
            "select metric, translator, seg_id, value from scores where level = 'seg' and "
            "refset = 'ref-A' and (metric like 'SP-Op-%' or metric like 'NE-Oe-%') and "
            "metric not like '%*%' order by metric, translator, seg_id")
    lists: dict[tuple[str, str], list[float]] = {}
    for metric, system, _, value in seg:
        lists.setdefault((metric, system), []).append(value)
    values = {k: np.array(v) for k, v in lists.items()}
    present = {m for (m, _), v in values.items() if v.any()}
    assert {f"{r['family']}-{r['category']}" for r in got} == present  # zero ones left out
    assert {r["family"] for r in got} == {"SP-Op", "NE-Oe"}
    idxs = np.random.default_rng(12345).choice(12, size=(1000, 12), replace=True)
    for r in got:
        metric = f"{r['family']}-{r['category']}"
        a, b = values[(metric, "sysA")], values[(metric, r["system"])]
        assert r["score"] == pytest.approx(b.mean(), rel=1e-12)
        if r["system"] == "sysA":
            assert r["p_value"] is None
        elif np.array_equal(a, b):
            assert r["p_value"] == 1.0  # nothing to tell apart
        else:
            bl = np.array([a[i].astype("float32").sum() / 12 for i in idxs])
            sy = np.array([b[i].astype("float32").sum() / 12 for i in idxs])
            diffs = np.abs(sy - bl)
            p = (np.sum(diffs - diffs.mean() > abs(b.mean() - a.mean())) + 1) / 1001
            assert r["p_value"] == pytest.approx(p), metric
    table = ulcdb(sample, "compare", "--analysis", "category", "-s", "sysA,sysB", "-r",
                  "ref-A", "-m", "NE-Oe")
    assert table.exit_code == 0 and "sysB - sysA" in table.stdout
    assert "SP-Op" not in table.stdout


def test_category_family_not_scored(sample: Path) -> None:
    result = ulcdb(sample, "compare", "--analysis", "category", "-s", "sysA,sysB", "-r",
                   "ref-A", "-m", "SR-Or")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no stored per-category scores SR-Or-<category>")
