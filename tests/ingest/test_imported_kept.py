"""Imported scores are never overwritten (issue 11 section 3).

Asiya's own IQ-XML files for the en-de sample are imported; ulcdb then computes the rest of
the BLEU, NIST and error-rate families for QUEEN.  The imported BLEU, NIST and -PER must stay
as Asiya wrote them, and QUEEN over them must equal the QUEEN Asiya printed from those files
(golden ``asiya_meta.tsv``), ties included.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.store.database import Store

FIVE = "BLEU,NIST,-PER,GTM-2,Ol"
REFS = "ref-A+ref-C+ref-D"


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def asiya_db(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    golden = shared / "golden" / "ende_sample" / "iqxml" / "scores"
    sample = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not golden.is_dir() or not sample.is_dir():
        pytest.skip("golden en-de sample not in shared data")
    db = tmp_path_factory.mktemp("asiya") / "asiya.duckdb"
    args = ["ingest", "testbed", "--name", "ende", "--source", sample / "source.en.txt",
            "--docs", sample / "docs.tsv"]
    args += [a for r in "ACD" for a in ("--ref", f"ref-{r}={sample / 'refs' / f'ref-{r}.de.txt'}")]
    args += [a for p in sorted((sample / "systems").glob("*.de.txt"))
             for a in ("--sys", f"{p.name.split('.')[0]}={p}")]
    ok(ulcdb(db, *args))
    ok(ulcdb(db, "ingest", "scores", golden))
    AS_IMPORTED.update(_imported(db))
    return db


AS_IMPORTED: dict[tuple, float] = {}  # the five metrics' scores right after the import


def _imported(db: Path) -> dict[tuple, float]:
    with Store(db, read_only=True) as store:
        return {tuple(r[:-1]): r[-1] for r in store.query(
            "select metric, translator, refset, level, doc_id, seg_id, value from scores "
            "where metric in ('BLEU', 'NIST', '-PER', 'GTM-2', 'Ol')")}


def _golden_queen(shared: Path) -> dict[tuple[str, str], float]:
    path = shared / "golden" / "ende_sample" / "asiya_meta.tsv"
    with path.open(encoding="utf-8") as fh:
        return {(r["system"], r["level"], r["seg_id"]): float(r["value"])
                for r in csv.DictReader(fh, delimiter="\t")
                if r["metric"] == "QUEEN" and "{" + FIVE + "}" in r["options"]
                and r["level"] in ("seg", "sys")}


def test_queen_keeps_and_uses_imported_asiya_scores(asiya_db: Path, shared: Path) -> None:
    before = AS_IMPORTED
    out = ulcdb(asiya_db, "queen", "-m", FIVE, "-r", "ref-A,ref-C,ref-D", "-G", "all",
                "-f", "json", "-j", "1")
    assert out.exit_code == 0, out.output
    assert _imported(asiya_db) == before  # nothing imported was replaced
    assert "imported scores used as they are: BLEU" in out.stderr
    rows = json.loads(out.stdout)
    got = {(r["translator"], r["level"], r["unit"] if r["level"] == "seg" else ""): r["QUEEN"]
           for r in rows if r["refset"] == REFS and r["level"] in ("seg", "sys")}
    expected = _golden_queen(shared)
    assert len(expected) == 20 * 57
    assert {k: round(got[k], 8) for k in expected} == {k: round(v, 8)
                                                       for k, v in expected.items()}
    with Store(asiya_db, read_only=True) as store:  # the rest of the families was computed
        assert store.scalar("select count(*) from scores where metric = 'BLEU-4' and "
                            "level = 'sys'") > 0
        assert store.scalar("select count(*) from score_batch b where not exists (select 1 "
                            "from score_rows s where s.batch_id = b.batch_id)") == 0


def test_remake_leaves_imported_scores_alone(asiya_db: Path) -> None:
    before = AS_IMPORTED
    ok(ulcdb(asiya_db, "score", "-m", "BLEU,NIST", "-s", "UEdin", "-r", "ref-A", "--remake",
             "-j", "1"))
    assert _imported(asiya_db) == before


def test_reimport_identical_is_a_no_op_and_different_is_refused(asiya_db: Path,
                                                                tmp_path: Path) -> None:
    with Store(asiya_db, read_only=True) as store:
        rows = store.query("select value from scores where metric = 'Ol' and "
                           "translator = 'UEdin' and refset = 'ref-A' and level = 'seg' "
                           "order by seg_id")
    lines = tmp_path / "Ol.txt"
    lines.write_text("".join(f"{v!r}\n" for (v,) in rows))
    args = ("ingest", "scores", lines, "--format", "lines", "-m", "Ol", "--target", "UEdin",
            "--ref", "ref-A")
    before = _imported(asiya_db)
    out = ok(ulcdb(asiya_db, *args))
    assert "56 already there" in out
    assert _imported(asiya_db) == before
    lines.write_text(lines.read_text().replace(f"{rows[0][0]!r}\n", "0.123\n", 1))
    result = ulcdb(asiya_db, *args)
    assert result.exit_code == 1 and "--replace" in result.output
    assert _imported(asiya_db) == before


def test_score_after_importing_segment_scores_only(tmp_path: Path) -> None:
    """GTM-1 segment scores imported, then `score -m GTM-1`: no clash, imported rows kept,
    and no system or document score is computed beside them."""
    src = tmp_path / "src.txt"
    src.write_text("a b c\nd e f\n")
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e g\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b x\nd e f\n")
    db = tmp_path / "s.duckdb"
    ok(ulcdb(db, "ingest", "testbed", "--name", "tiny", "--source", src, "--ref",
             f"ref-A={ref}", "--sys", f"S1={hyp}"))
    scores = tmp_path / "gtm1.txt"
    scores.write_text("0.25\n0.75\n")
    ok(ulcdb(db, "ingest", "scores", scores, "--format", "lines", "-m", "GTM-1", "--target",
             "S1", "--ref", "ref-A"))
    out = ok(ulcdb(db, "score", "-m", "GTM-1", "-j", "1"))
    assert "imported scores used as they are: GTM-1" in out
    with Store(db, read_only=True) as store:
        assert store.query("select level, value from scores where metric = 'GTM-1' and "
                           "translator = 'S1' and refset = 'ref-A' order by level, seg_id") \
            == [("seg", 0.25), ("seg", 0.75)]
        assert store.scalar("select count(*) from scores where metric = 'GTM-2' and "
                            "translator = 'S1' and refset = 'ref-A' and level = 'sys'") == 1
