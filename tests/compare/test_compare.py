"""`ulcdb compare` (issue 14): paired bootstrap and approximate randomization equal sacrebleu
2.6.0's (run in the test on the WMT21 en-de sample), clusters, documents as units, buckets
and --where against sacrebleu on the selected segments, and clean errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from tests.cli_helpers import ingest_ende, ulcdb
from ulcdb.stats.sacrebleu_significance import clusters, holm
from ulcdb.store.database import Store

SYSTEMS = ["Facebook-AI", "HuaweiTSC", "ICL"]


@pytest.fixture(scope="module")
def db(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingest_ende(tmp_path_factory.mktemp("compare") / "c.duckdb", ende_sample)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _sacrebleu(ende_sample: Path, refs: list[str], kind: str, systems: list[str] = SYSTEMS) -> dict:
    references = [_lines(ende_sample / "refs" / f"{r}.de.txt") for r in refs]
    named = [(s, _lines(ende_sample / "systems" / f"{s}.de.txt")) for s in systems]
    metrics = {"BLEU": BLEU(references=references), "chrF": CHRF(references=references),
               "TER": TER(references=references)}
    _, scores = PairedTest(named, metrics, None, test_type=kind)()
    names = {"BLEU": "BLEU", "chrF2": "chrF", "TER": "1-TER"}
    return {(sys_, names[m]): res for m, col in scores.items() if m != "System"
            for sys_, res in zip(scores["System"], col, strict=True)}


def _records(db: Path, *args: str) -> list[dict]:
    result = ulcdb(db, "compare", *args, "-f", "json", "-j", "1")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("kind", ["bs", "ar"])
def test_equals_sacrebleu_paired_tests(db: Path, ende_sample: Path, kind: str) -> None:
    expected = _sacrebleu(ende_sample, ["ref-A"], kind)
    got = _records(db, "-b", "Facebook-AI", "-s", "HuaweiTSC,ICL", "-r", "ref-A",
                   "--method", kind)
    assert len(got) == 9
    for r in got:
        want = expected[(r["system"], r["metric"])]
        ter = r["metric"] == "1-TER"

        def scale(v: float) -> float:
            return 100 * (1 - v) if ter else 100 * v  # noqa: B023

        assert scale(r["score"]) == pytest.approx(want.score, rel=1e-12)
        assert r["p_value"] == want.p_value  # exactly: same draws, same formulas
        assert (r["baseline"] is None) == (r["system"] == "Facebook-AI")
        assert (r["method"], r["seed"], r["n_units"]) == (kind, 12345, 56)
        if kind == "bs":
            assert scale(r["mean"]) == pytest.approx(want.mean, rel=1e-6)
            assert 100 * r["ci"] == pytest.approx(want.ci, rel=1e-6)
            assert r["ci_low"] <= r["mean"] <= r["ci_high"]
        else:
            assert r["mean"] is None and r["n_samples"] == 10000


def test_two_references_bleu_and_chrf(db: Path, ende_sample: Path) -> None:
    expected = _sacrebleu(ende_sample, ["ref-A", "ref-C"], "bs")
    got = _records(db, "-b", "Facebook-AI", "-s", "HuaweiTSC,ICL", "-r", "ref-A,ref-C",
                   "-m", "BLEU,chrF")
    for r in got:
        want = expected[(r["system"], r["metric"])]
        assert 100 * r["score"] == pytest.approx(want.score, rel=1e-12)
        assert r["p_value"] == want.p_value


def test_all_pairs_ranked_in_clusters(db: Path, ende_sample: Path) -> None:
    systems = ["Facebook-AI", "HuaweiTSC", "ICL", "happypoet"]
    got = _records(db, "-s", ",".join(systems), "-r", "ref-A", "-m", "BLEU")
    pairs = _records(db, "-s", ",".join(systems), "-r", "ref-A", "-m", "BLEU", "--pairs")
    assert [r["rank"] for r in got] == [1, 2, 3, 4]
    assert [r["score"] for r in got] == sorted((r["score"] for r in got), reverse=True)
    # each pair's p-value is sacrebleu's with the first system as baseline
    for p in pairs:
        want = _sacrebleu(ende_sample, ["ref-A"], "bs", [p["system_a"], p["system_b"]])
        assert p["p_value"] == want[(p["system_b"], "BLEU")].p_value
    q = dict(zip([(p["system_a"], p["system_b"]) for p in pairs],
                 holm([p["p_value"] for p in pairs]), strict=True))
    assert [p["p_holm"] for p in pairs] == list(q.values())
    ranked = [r["system"] for r in got]

    def worse(low: str, up: str) -> bool:
        return q.get((low, up), q.get((up, low), 1.0)) < 0.05

    assert [r["cluster"] for r in got] == clusters(ranked, worse)


def test_holm_and_clusters_by_hand() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    better = {("B", "A"), ("C", "A"), ("C", "B")}
    assert clusters(["A", "B", "C"], lambda low, up: (low, up) in better) == [1, 2, 3]
    assert clusters(["A", "B", "C"], lambda low, up: (low, up) == ("C", "A")) == [1, 1, 1]


def _bleu(bed: Path, system: str, ref: str, keep: list[int]) -> float:
    hyp, refs = _lines(bed / "systems" / f"{system}.de.txt"), _lines(bed / "refs" / f"{ref}.de.txt")
    return BLEU().corpus_score([hyp[i] for i in keep], [[refs[i] for i in keep]]).score / 100


def _rows(ende_sample: Path) -> list[list[str]]:
    with open(ende_sample / "segments_long.tsv", encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]
    seen: dict[str, list[str]] = {}
    for r in rows:
        seen.setdefault(r[0], r)
    return list(seen.values())  # one per segment, in file order = line order of the txt files


def test_where_selects_segments(db: Path, ende_sample: Path) -> None:
    segs = _rows(ende_sample)
    doc = segs[0][1]
    keep = [i for i, r in enumerate(segs) if r[1] == doc]
    got = _records(db, "-b", "Facebook-AI", "-s", "ICL", "-r", "ref-A", "-m", "BLEU",
                   "--where", f"doc_id = '{doc}'")
    assert {r["n_units"] for r in got} == {len(keep)}
    for r in got:
        want = _bleu(ende_sample, r["system"], "ref-A", keep)
        assert r["score"] == pytest.approx(want, rel=1e-12)


def test_buckets_by_length_and_document(db: Path, ende_sample: Path) -> None:
    refs = _lines(ende_sample / "refs" / "ref-A.de.txt")
    result = ulcdb(db, "compare", "-s", "Facebook-AI,ICL", "-r", "ref-A", "-m", "BLEU",
                   "--by", "length", "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    short = [i for i, t in enumerate(refs) if len(t.split()) < 10]
    mid = [i for i, t in enumerate(refs) if 20 <= len(t.split()) < 30]
    for r in rows:
        if r["bucket"] in ("<10", "[20,30)"):
            keep = short if r["bucket"] == "<10" else mid
            assert int(r["n_units"]) == len(keep)
            want = _bleu(ende_sample, r["system"], "ref-A", keep)
            assert float(r["score"]) == pytest.approx(want)
    assert {r["bucket"] for r in rows} >= {"<10", "[20,30)"}
    sizes = {r["bucket"]: int(r["n_units"]) for r in rows}
    small = ", ".join(f"{b} ({n})" for b, n in sizes.items() if n < 10)
    assert (f"buckets with fewer than 10 segments, too few for a test (no interval, no "
            f"p-value): {small}") in result.stderr.replace("\n", " ")
    result = ulcdb(db, "compare", "-s", "Facebook-AI,ICL", "-r", "ref-A", "-m", "BLEU",
                   "--by", "doc", "-f", "json")
    docs = json.loads(result.stdout)
    assert sum(r["n_units"] for r in docs) == 2 * 56


def _subset(ende_sample: Path, keep: list[int], kind: str) -> dict:
    """sacrebleu's paired test on the lines ``keep`` only (files written to a temp folder)."""
    refs = [_lines(ende_sample / "refs" / "ref-A.de.txt")[i] for i in keep]
    named = [(s, [_lines(ende_sample / "systems" / f"{s}.de.txt")[i] for i in keep])
             for s in ("Facebook-AI", "HuaweiTSC", "ICL")]
    metrics = {"BLEU": BLEU(references=[refs]), "chrF": CHRF(references=[refs])}
    _, scores = PairedTest(named, metrics, None, test_type=kind)()
    names = {"BLEU": "BLEU", "chrF2": "chrF"}
    return {(sys_, names[m]): res for m, col in scores.items() if m != "System"
            for sys_, res in zip(scores["System"], col, strict=True)}


@pytest.mark.parametrize("kind", ["bs", "ar"])
def test_each_bucket_is_tested_as_sacrebleu_on_its_segments(db: Path, ende_sample: Path,
                                                             kind: str) -> None:
    """--by doc: each document's p-values and intervals equal sacrebleu's paired test run
    on that document's lines alone."""
    got = _records(db, "-b", "Facebook-AI", "-s", "HuaweiTSC,ICL", "-r", "ref-A",
                   "-m", "BLEU,chrF", "--by", "doc", "--method", kind)
    segs = _rows(ende_sample)
    docs = list(dict.fromkeys(r[1] for r in segs))
    assert sorted({r["bucket"] for r in got}) == sorted(docs)
    assert len(got) == len(docs) * 2 * 3
    for doc in docs:
        keep = [i for i, r in enumerate(segs) if r[1] == doc]
        want = _subset(ende_sample, keep, kind)
        for r in (r for r in got if r["bucket"] == doc):
            w = want[(r["system"], r["metric"])]
            assert r["n_units"] == len(keep)
            assert 100 * r["score"] == pytest.approx(w.score, rel=1e-12, abs=1e-12)
            if len(keep) < 10:  # too few segments for a test (issue 25)
                assert r["p_value"] is r["mean"] is r["ci"] is None and r["note"]
                continue
            assert r["p_value"] == w.p_value
            if kind == "bs":
                assert 100 * r["mean"] == pytest.approx(w.mean, rel=1e-6, abs=1e-9)
                assert 100 * r["ci"] == pytest.approx(w.ci, rel=1e-6, abs=1e-9)


def test_bucket_by_predicate(db: Path, ende_sample: Path) -> None:
    """--by where:SQL: the segments the predicate selects and the others, each tested as
    sacrebleu on its lines."""
    got = _records(db, "-b", "Facebook-AI", "-s", "HuaweiTSC,ICL", "-r", "ref-A", "-m",
                   "BLEU,chrF", "--by", "where:seg_in_doc <= 3")
    segs = _rows(ende_sample)
    inside = [i for i, r in enumerate(segs) if int(r[2]) <= 3]
    outside = [i for i in range(len(segs)) if i not in inside]
    assert {r["bucket"] for r in got} == {"where seg_in_doc <= 3", "not (seg_in_doc <= 3)"}
    for bucket, keep in (("where seg_in_doc <= 3", inside), ("not (seg_in_doc <= 3)", outside)):
        want = _subset(ende_sample, keep, "bs")
        for r in (r for r in got if r["bucket"] == bucket):
            assert r["n_units"] == len(keep)
            assert r["p_value"] == want[(r["system"], r["metric"])].p_value
            assert 100 * r["score"] == pytest.approx(want[(r["system"], r["metric"])].score)


def test_buckets_all_pairs_have_clusters(db: Path) -> None:
    """Without -b, every bucket ranks its systems with clusters from its own Holm-adjusted
    pairs; the table shows the bucket and its size."""
    systems = "Facebook-AI,HuaweiTSC,ICL"
    got = _records(db, "-s", systems, "-r", "ref-A", "-m", "BLEU", "--by", "length")
    pairs = _records(db, "-s", systems, "-r", "ref-A", "-m", "BLEU", "--by", "length",
                     "--pairs")
    for bucket in {r["bucket"] for r in got}:
        mine = [r for r in got if r["bucket"] == bucket]
        assert [r["rank"] for r in mine] == [1, 2, 3]
        ps = [p for p in pairs if p["bucket"] == bucket]
        if mine[0]["n_units"] < 10:  # too few segments: no test, no cluster (issue 25)
            assert not ps and {r["cluster"] for r in mine} == {None}
            continue
        assert [p["p_holm"] for p in ps] == pytest.approx(holm([p["p_value"] for p in ps]))
        q = {frozenset((p["system_a"], p["system_b"])): p["p_holm"] for p in ps}
        scores = {r["system"]: r["score"] for r in mine}
        assert [r["cluster"] for r in mine] == clusters(
            [r["system"] for r in mine],
            lambda low, up: q[frozenset((low, up))] < 0.05 and scores[low] != scores[up])  # noqa: B023
    table = ulcdb(db, "compare", "-s", systems, "-r", "ref-A", "-m", "BLEU", "--by", "length")
    assert table.exit_code == 0 and "bucket" in table.stdout and "[20,30)" in table.stdout


def test_documents_as_units(db: Path) -> None:
    seg = _records(db, "-b", "Facebook-AI", "-s", "ICL", "-r", "ref-A", "-m", "BLEU,MTR-exact")
    doc = _records(db, "-b", "Facebook-AI", "-s", "ICL", "-r", "ref-A", "-m", "BLEU,MTR-exact",
                   "--unit", "doc")
    assert {r["n_units"] for r in doc} == {7}
    for a, b in zip(seg, doc, strict=True):
        assert a["score"] == pytest.approx(b["score"], rel=1e-12)  # same corpus, other draws
        assert a["mean"] != b["mean"]


def test_mean_of_segments_metric_by_hand(db: Path) -> None:
    """METEOR (exact) is resampled as the mean of its segment scores: check it with numpy."""
    from ulcdb.store.database import Store

    got = _records(db, "-b", "Facebook-AI", "-s", "ICL", "-r", "ref-A", "-m", "MTR-exact")
    with Store(db, read_only=True) as store:
        values = {t: np.array([v for (v,) in store.query(
            "select value from scores where metric = 'MTR-exact' and level = 'seg' and "
            "refset = 'ref-A' and translator = ? order by seg_id", [t])])
            for t in ("Facebook-AI", "ICL")}
    idxs = np.random.default_rng(12345).choice(56, size=(1000, 56), replace=True)
    bl = np.array([values["Facebook-AI"][i].astype("float32").sum() / 56 for i in idxs])
    sy = np.array([values["ICL"][i].astype("float32").sum() / 56 for i in idxs])
    diffs = np.abs(sy - bl)
    real = abs(values["ICL"].mean() - values["Facebook-AI"].mean())
    p = (np.sum(diffs - diffs.mean() > real) + 1) / 1001
    icl = next(r for r in got if r["system"] == "ICL")
    assert icl["score"] == pytest.approx(values["ICL"].mean(), rel=1e-12)
    assert icl["p_value"] == pytest.approx(p)


@pytest.mark.parametrize(("args", "message"), [
    (["-b", "Facebok-AI"], "Error: no system named 'Facebok-AI' (did you mean Facebook-AI?)"),
    (["--where", "no_such_column > 1"], "Error: --where 'no_such_column > 1': "),
    (["--by", "colour"], "Error: --by 'colour': use one of length, doc, domain"),
    (["--by", "where:nope > 1"], "Error: --where 'nope > 1': "),
    (["--where", "seg_id < 0"], "Error: --where 'seg_id < 0' selects no segment of 'ende'"),
])
def test_errors_are_one_line(db: Path, args: list[str], message: str) -> None:
    result = ulcdb(db, "compare", "-s", "Facebook-AI,ICL", "-r", "ref-A", "-m", "BLEU", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_python_api_compare(db: Path) -> None:
    import ulcdb

    with ulcdb.open(db) as database:
        table = database.compare("BLEU", baseline="Facebook-AI", systems="ICL", refs="ref-A")
    cli = _records(db, "-b", "Facebook-AI", "-s", "ICL", "-r", "ref-A", "-m", "BLEU")
    rows = table.to_pylist()
    assert [(r["system"], r["p_value"], r["score"]) for r in rows] == \
        [(r["system"], r["p_value"], r["score"]) for r in cli]


@pytest.mark.parametrize(("args", "message"), [
    (("-b", "Online-W", "--where", "nosuchcol > 1"), 'column "nosuchcol" not found'),
    (("-b", "Online-W", "--by", "bogus"), "--by 'bogus': use one of length"),
    (("-s", "Online-W"), "compare needs at least two systems"),
])
def test_bad_slices_fail_before_anything_is_scored(ende_sample: Path, tmp_path: Path,
                                                   args: tuple[str, ...], message: str) -> None:
    db = ingest_ende(tmp_path / "bad.duckdb", ende_sample)
    result = ulcdb(db, "compare", "-m", "BLEU", "-r", "ref-A", *args)
    assert result.exit_code == 1
    (line,) = [x for x in result.output.splitlines() if x.strip()]
    assert line.startswith("Error: ") and message in line
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from stored_scores") == 0
