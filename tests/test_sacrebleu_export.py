"""`ulcdb export sacrebleu` writes sacrebleu's own JSON (issue 11 section 5): the same text
sacrebleu prints for the same files (`sacrebleu REFS -i SYS -m bleu chrf ter -f json`),
recomputed here with sacrebleu's API from the texts, not from anything ulcdb stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from tests.cli_helpers import ulcdb
from ulcdb.store import Store

PLAIN = Path(__file__).resolve().parents[1] / "sample" / "plain"
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


def test_round_trip_on_sacrebleus_scale(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "json"
    ok(ulcdb(db, "export", "sacrebleu", out, "-w", "6"))
    fresh = tmp_path / "fresh.duckdb"
    ok(ulcdb(fresh, "ingest", "testbed", "--name", "sample", "--source",
             PLAIN / "source.es.txt", "--docs", PLAIN / "docs.tsv",
             *TRANSLATORS))
    refused = ulcdb(fresh, "ingest", "scores", out, "--format", "sacrebleu")
    assert refused.exit_code == 1  # 0-100 BLEU is not ulcdb's 0-1 BLEU
    ok(ulcdb(fresh, "ingest", "scores", out, "--format", "sacrebleu", "--rename",
             "BLEU=sacreBLEU"))
    with Store(fresh, read_only=True) as store:
        got = dict(((t, r), v) for t, r, v in store.query(
            "select translator, refset, value from scores where metric = 'sacreBLEU'"))
    with Store(db, read_only=True) as store:
        ours = dict(((t, r), v) for t, r, v in store.query(
            "select translator, refset, value from scores where metric = 'BLEU' and level = "
            "'sys' and variant = 'case:mixed'"))
    assert got.keys() == ours.keys()
    assert all(got[k] == round(100 * ours[k], 6) for k in got)
    assert json.loads((out / "sysA" / "ref-A.json").read_text())[0]["name"] == "BLEU"


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
