"""`ulcdb score` end to end on the sample: stored scores equal sacrebleu's, ULC follows the
Asiya normalisation, only missing scores are computed, .scr files are written."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import sacrebleu
from cli_helpers import sample_store, ulcdb

from ulcdb.store.database import Store

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample"



def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = sample_store(tmp_path_factory.mktemp("score") / "s.duckdb")
    result = ulcdb(path, "score", "-m", "BLEU,BLEU-4,chrF,1-TER,GTM-1", "-G", "all",
                   "--jobs", "1", "-f", "json")
    assert result.exit_code == 0, result.output
    return path


def test_sys_scores_equal_sacrebleu(db: Path) -> None:
    refs = [lines(SAMPLE / "plain" / "refs" / f"ref-{r}.en.txt") for r in "ABC"]
    with Store(db, read_only=True) as store:
        for system in ("sysA", "sysD"):
            hyps = lines(SAMPLE / "plain" / "systems" / f"{system}.en.txt")
            got = dict(store.query(
                "select metric, value from scores where level = 'sys' and translator = ? "
                "and refset = 'ref-A+ref-B+ref-C'", [system]))
            assert got["BLEU"] == pytest.approx(
                sacrebleu.corpus_bleu(hyps, refs).score / 100, abs=1e-12)
            assert got["chrF"] == pytest.approx(
                sacrebleu.corpus_chrf(hyps, refs).score / 100, abs=1e-12)
            assert got["1-TER"] == pytest.approx(
                1 - sacrebleu.corpus_ter(hyps, refs).score / 100, abs=1e-12)
            seg = store.query(
                "select seg_id, value from scores where level = 'seg' and translator = ? "
                "and refset = 'ref-A' and metric = 'BLEU' order by seg_id", [system])
            for seg_id, value in seg:
                expected = sacrebleu.sentence_bleu(hyps[seg_id - 1], [refs[0][seg_id - 1]])
                assert value == pytest.approx(expected.score / 100, abs=1e-12)


def test_pairs_for_qarla_are_stored(db: Path) -> None:
    with Store(db, read_only=True) as store:
        refsets = {r for (r,) in store.query(
            "select distinct refset from scores where translator = 'sysA'")}
        assert refsets == {"ref-A", "ref-B", "ref-C", "ref-A+ref-B+ref-C", "ref-A+ref-B",
                           "ref-A+ref-C", "ref-B+ref-C"}
        ref_vs_ref = store.query(
            "select distinct translator, refset from scores where role = 'reference' and "
            "refset_kind = 'reference' order by all")
        assert ("ref-A", "ref-B") in ref_vs_ref and ("ref-A", "ref-B+ref-C") in ref_vs_ref
        assert store.scalar("select count(*) from score_batch where signature like "
                            "'%nrefs:3%'") >= 1


def test_ulc_matches_asiya_normalisation(db: Path) -> None:
    """ULC recomputed by hand from the stored system scores (bounds over all systems)."""
    result = ulcdb(db, "score", "-m", "BLEU,1-TER", "-f", "json")
    rows = json.loads(result.output[result.output.index("["):])
    with Store(db, read_only=True) as store:
        vals = {(m, t): v for m, t, v in store.query(
            "select metric, translator, value from scores where level = 'sys' and "
            "role = 'system' and refset = 'ref-A+ref-B+ref-C' and metric in ('BLEU', '1-TER')")}
    for row in rows:
        expected = []
        for m in ("BLEU", "1-TER"):
            all_values = [v for (mm, _), v in vals.items() if mm == m]
            hi, lo = max(0.0, *all_values), min(0.0, *all_values)
            x = vals[(m, row["translator"])]
            expected.append(x / hi if lo == 0 else (x - lo) / (hi - lo))
        assert row["ULC"] == pytest.approx(sum(expected) / 2, abs=1e-12)


def test_only_missing_scores_are_computed(db: Path) -> None:
    result = ulcdb(db, "score", "-m", "BLEU,chrF", "--jobs", "1")
    assert "computed nothing new" in result.output
    result = ulcdb(db, "score", "-m", "chrF", "--remake", "--jobs", "1")
    assert "computed chrF" in result.output


def test_scr_files(db: Path, tmp_path: Path) -> None:
    result = ulcdb(db, "score", "-m", "BLEU,chrF", "-G", "all", "-f", "scr", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(f"sys{s}-{lv}.scr" for s in "ABCD" for lv in ("seg", "doc", "sys"))
    seg = list(csv.reader((tmp_path / "sysA-seg.scr").open(), delimiter="\t"))
    assert len(seg) == 12 and seg[0][:5] == ["ULC", "sample", "sysA", "madrid-metro", "1"]
    sys_rows = list(csv.reader((tmp_path / "sysA-sys.scr").open(), delimiter="\t"))
    assert len(sys_rows) == 1 and len(sys_rows[0]) == 4


def test_unknown_metric_is_one_clean_error(db: Path) -> None:
    result = ulcdb(db, "score", "-m", "NOPE")
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: no metric or metric set named 'NOPE' (see `ulcdb list metrics` and "
        "`ulcdb list sets`)")


@pytest.mark.parametrize("command", [("score", "-m", "ULC"), ("meta", "-m", "BLEU,ulc")])
def test_ulc_by_name_says_what_ulc_is(db: Path, command: tuple[str, ...]) -> None:
    """Every table has a ULC column, so users ask for it: `meta -m ULC` said "no metric or
    metric set named 'ULC' (did you mean ULC_h?)", a set of linguistic metrics."""
    result = ulcdb(db, *command)
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: ULC is no metric of its own: it is computed over the metrics -m chooses "
        "(`ulcdb score -m BLEU,chrF` prints the ULC of BLEU and chrF); to meta-evaluate or "
        "compare one, store it as a metric with `ulcdb ingest scores` from the `ulc` SQL macro "
        "(docs: how-to/meta-evaluate.md, \"ULC as a metric\")")


def test_lex_suite_all_levels(tmp_path: Path) -> None:
    """`score -m LEX -G all`: every lexical metric, every system, three levels, in range."""
    from ulcdb.metrics.registry import BUILTIN_SETS, metric_index

    db = tmp_path / "lex.duckdb"
    assert ulcdb(db, "ingest", "testbed", SAMPLE / "ULC.config").exit_code == 0
    result = ulcdb(db, "score", "-m", "LEX", "-G", "all", "-f", "csv", "--jobs", "2")
    assert result.exit_code == 0, result.output
    header = result.stdout.splitlines()[0].split(",")
    lex = [m for m in BUILTIN_SETS["LEX"] if m in metric_index()]
    assert header[5:] == [*lex, "ULC"]
    assert lex == list(BUILTIN_SETS["LEX"]) and len(lex) == 37  # the manual's 34, chrF(++), Ol
    body = [ln.split(",") for ln in result.stdout.splitlines()[1:]]
    counts = {lv: sum(1 for r in body if r[0] == lv) for lv in ("seg", "doc", "sys")}
    assert counts == {"seg": 4 * 12, "doc": 4 * 3, "sys": 4}
    assert len(body) == 4 * (12 + 3 + 1)  # one CSV: the header once, whatever the levels
    as_json = ulcdb(db, "score", "-m", "BLEU,Ol", "-G", "all", "-f", "json")
    records = json.loads(as_json.stdout)
    assert [r["level"] for r in records] == ["seg"] * 48 + ["doc"] * 12 + ["sys"] * 4
    assert all(cell != "" for r in body for cell in r[5:])
    with Store(db, read_only=True) as store:
        bad = store.query(
            "select s.metric, s.value from scores s join metric m on m.name = s.metric "
            "where s.value < m.range_min - 1e-12 or s.value > m.range_max + 1e-12")
        assert bad == []


def test_identical_outputs_are_scored_once(tmp_path: Path, monkeypatch) -> None:
    """A system submitted twice under two names: scored once, stored for both."""
    import ulcdb.scoring.scorer as scoring

    p = SAMPLE / "plain"
    db = tmp_path / "dup.duckdb"
    args = ["ingest", "testbed", "--name", "dup", "--source", p / "source.es.txt", "--docs",
            p / "docs.tsv", "--ref", f"ref-A={p / 'refs' / 'ref-A.en.txt'}",
            "--sys", f"sysA={p / 'systems' / 'sysA.en.txt'}",
            "--sys", f"twin={p / 'systems' / 'sysA.en.txt'}"]
    assert ulcdb(db, *args).exit_code == 0
    calls = []
    original = scoring._family_task
    monkeypatch.setattr(scoring, "_family_task", lambda task: calls.append(task) or original(task))
    with Store(db) as store:
        pairs = [scoring.Pair("sysA", ("ref-A",)), scoring.Pair("twin", ("ref-A",))]
        scoring.Scorer(store, "dup", jobs=1).run(["chrF"], pairs)
        values = dict(store.query("select translator, value from scores where metric = 'chrF' "
                                  "and level = 'sys'"))
    assert len(calls) == 1
    assert set(values) == {"sysA", "twin"} and values["sysA"] == values["twin"]


def test_scr_refuses_a_system_name_that_leaves_the_folder(db: Path, tmp_path: Path) -> None:
    """`score -f scr` names files after systems: `../escaped` must not write outside --out
    (the one .scr writer checks every name it puts in a path, as `export nist` does)."""
    copy = tmp_path / "escaped.duckdb"
    copy.write_bytes(db.read_bytes())
    with Store(copy) as store:
        store.con.execute("update translator set name = '../escaped' where name = 'sysA'")
    out = tmp_path / "out"
    result = ulcdb(copy, "score", "-m", "BLEU", "-s", "../escaped", "-f", "scr", "--out", out)
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (  # after the note on ULC's -s scope
        f"Error: {out}: system '../escaped' cannot be used as a file name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["escaped.duckdb"]
