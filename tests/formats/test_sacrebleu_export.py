"""`ulcdb export sacrebleu` writes sacrebleu's own JSON (issue 11 section 5): the same text
sacrebleu prints for the same files (`sacrebleu REFS -i SYS -m bleu chrf ter -f json`),
recomputed here with sacrebleu's API from the texts, not from anything ulcdb stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
TRANSLATORS = [a for r in "AB" for a in ("--ref", f"ref-{r}={PLAIN / 'refs' / f'ref-{r}.en.txt'}")]
TRANSLATORS += [a for s in "AB"
                for a in ("--sys", f"sys{s}={PLAIN / 'systems' / f'sys{s}.en.txt'}")]


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def sacrebleu_prints(hyps: list[str], refs: list[list[str]], lowercase: bool,
                     width: int = 1) -> str:
    """What sacrebleu's CLI prints with -f json (its code: one Score.format per metric,
    joined as print_single_results joins them)."""
    out = []
    for metric in (BLEU(lowercase=lowercase), CHRF(lowercase=lowercase),
                   CHRF(word_order=2, lowercase=lowercase), TER()):
        score = metric.corpus_score(hyps, refs)
        out.append(score.format(width, False, metric.get_signature().format(), True))
    return "[\n" + ",\n".join(out) + "\n]\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sb") / "s.duckdb"
    ok(ulcdb(path, "ingest", "testbed", "--name", "sample", "--source",
             PLAIN / "source.es.txt", "--docs", PLAIN / "docs.tsv",
             *TRANSLATORS))
    ok(ulcdb(path, "score", "-m", "BLEU,chrF,chrF++,-TER", "-j", "1"))
    ok(ulcdb(path, "score", "-m", "BLEU,chrF,chrF++,-TER", "-j", "1", "--case", "lc"))
    return path


@pytest.mark.parametrize("system, refset", [("sysA", "ref-A"), ("sysB", "ref-A+ref-B")])
@pytest.mark.parametrize("variant", ["case:mixed", "case:lc"])
def test_the_file_is_what_sacrebleu_prints(db: Path, tmp_path: Path, system: str, refset: str,
                                           variant: str) -> None:
    out = tmp_path / "json"
    ok(ulcdb(db, "export", "sacrebleu", out, "--target", system, "--refset", refset,
             "--variant", variant, "-w", "4"))
    refs = [lines(PLAIN / "refs" / f"{r}.en.txt") for r in refset.split("+")]
    expected = sacrebleu_prints(lines(PLAIN / "systems" / f"{system}.en.txt"), refs,
                                variant == "case:lc", width=4)
    assert (out / system / f"{refset}.json").read_text(encoding="utf-8") == expected


def test_other_metrics_are_refused(db: Path, tmp_path: Path) -> None:
    result = ulcdb(db, "export", "sacrebleu", tmp_path / "x", "-m", "BLEU-1")
    assert result.exit_code == 1 and "sacrebleu computes none of BLEU-1" in result.output
    assert not (tmp_path / "x").exists()


def _fresh(tmp_path: Path) -> Path:
    fresh = tmp_path / "fresh.duckdb"
    ok(ulcdb(fresh, "ingest", "testbed", "--name", "sample", "--source",
             PLAIN / "source.es.txt", "--docs", PLAIN / "docs.tsv", *TRANSLATORS))
    return fresh


def _sys_scores(db: Path, metrics: tuple[str, ...], variant: str = "case:mixed"
                ) -> dict[tuple[str, str, str], float]:
    with Store(db, read_only=True) as store:
        return {(m, t, r): v for m, t, r, v in store.query(
            "select metric, translator, refset, value from scores where level = 'sys' and "
            "variant = ? and list_contains(?, metric)", [variant, list(metrics)])}


OWN = ("BLEU", "chrF", "chrF++", "-TER")


@pytest.mark.parametrize("width, tolerance", [(None, 0.0005 + 1e-12), ("8", 5e-11 + 1e-15)])
def test_round_trip_with_no_flags(db: Path, tmp_path: Path, width: str | None,
                                  tolerance: float) -> None:
    """Issue 25: `export sacrebleu` then `ingest scores` needs no flags: sacrebleu's BLEU,
    chrF2, chrF2++ and TER come back as ulcdb's BLEU, chrF, chrF++ and -TER on the 0-1 scale,
    to the digits the file carries (1 decimal of 0-100 by default, all with --width)."""
    out = tmp_path / "json"
    ok(ulcdb(db, "export", "sacrebleu", out, *(("--width", width) if width else ())))
    fresh = _fresh(tmp_path)
    said = " ".join(ok(ulcdb(fresh, "ingest", "scores", out)).split())
    assert "sacrebleu's scores stored as -TER, BLEU, chrF, chrF++ on ulcdb's 0-1 scale" in said
    got, ours = _sys_scores(fresh, OWN), _sys_scores(db, OWN)
    assert got.keys() == ours.keys() and len(got) == 4 * (2 * 3 + 2)  # systems x refsets, refs
    assert ('-TER', 'sysA', 'ref-A') in got and got[('-TER', 'sysA', 'ref-A')] < 0
    assert all(abs(got[k] - ours[k]) <= tolerance for k in got)
    assert max(abs(got[k] - ours[k]) for k in got) > tolerance / 100  # really rounded
    if width is None:  # 55.8 is stored as 0.558, not 0.5579999999999999
        assert all(round(v, 3) == v for v in got.values())
    with Store(fresh, read_only=True) as store:
        origins = store.query("select distinct b.origin, b.signature from scores s join "
                              "score_batch b using (batch_id) where s.translator = 'sysA' "
                              "and s.refset = 'ref-A'")
    assert [(Path(o).relative_to(out), sig.split(" ; ")[0]) for o, sig in origins] == [
        (Path("sysA/ref-A.json"), "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|"
         "version:2.6.0")]


def test_a_lowercased_export_needs_its_variant(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "lc"
    ok(ulcdb(db, "export", "sacrebleu", out, "--variant", "case:lc", "-w", "8"))
    fresh = _fresh(tmp_path)
    refused = ulcdb(fresh, "ingest", "scores", out)
    assert refused.exit_code == 1
    assert "BLEU was computed with case:lc: give --variant case:lc" in refused.output
    ok(ulcdb(fresh, "ingest", "scores", out, "--variant", "case:lc"))
    got, ours = _sys_scores(fresh, OWN, "case:lc"), _sys_scores(db, OWN, "case:lc")
    assert got.keys() == ours.keys() and all(abs(got[k] - ours[k]) <= 5e-11 for k in got)


def test_renamed_scores_keep_sacrebleus_scale(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "json"
    ok(ulcdb(db, "export", "sacrebleu", out, "-w", "6"))
    fresh = _fresh(tmp_path)
    ok(ulcdb(fresh, "ingest", "scores", out, "--format", "sacrebleu", "--rename",
             "BLEU=sacreBLEU"))
    with Store(fresh, read_only=True) as store:
        got = dict(((t, r), v) for t, r, v in store.query(
            "select translator, refset, value from scores where metric = 'sacreBLEU'"))
    ours = {(t, r): v for (m, t, r), v in _sys_scores(db, ("BLEU",)).items()}
    assert got.keys() == ours.keys()
    assert all(got[k] == round(100 * ours[k], 6) for k in got)
    assert json.loads((out / "sysA" / "ref-A.json").read_text())[0]["name"] == "BLEU"
    assert set(_sys_scores(fresh, OWN)) == {(m, t, r) for m in ("chrF", "chrF++", "-TER")
                                            for t, r in ours}


def test_score_tables_say_refset_variant_and_signatures(db: Path) -> None:
    table = ok(ulcdb(db, "score", "-m", "BLEU,chrF", "-r", "ref-A", "--case", "lc", "-j", "1"))
    assert "against ref-A, variant case:lc" in " ".join(table.split())
    with Store(db, read_only=True) as store:
        (bleu,) = store.query("select distinct b.signature from scores s join score_batch b "
                              "using (batch_id) where s.metric = 'BLEU' and s.refset = 'ref-A' "
                              "and s.variant = 'case:lc'")[0]
    assert bleu.startswith("BLEU|nrefs:1|case:lc|") and f"BLEU: {bleu}" in table
    rows = ok(ulcdb(db, "score", "-m", "BLEU", "-r", "ref-A", "-f", "json", "-j", "1"))
    records = json.loads(rows[rows.index("["):])
    assert {(r["level"], r["refset"], r["variant"]) for r in records} == \
        {("sys", "ref-A", "case:mixed")}
