"""`ulcdb score -T` picks the segment rows shown; the document and system scores beside them
stay those of every segment.  IQMT's -T (and `ulcdb king -T`) evaluates on the segments
given, so a system table under -T read as the score of those segments; and `-s` sets the
systems ULC is normalised over.  The command now says which question it answers (issue 25).
Numbers from sacrebleu on the sample's plain files, and by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from cli_helpers import sample_store, ulcdb

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample"
NOTE = ("-T 1-3 selects the segment rows shown: {} scores are over every segment of the test "
        "bed (`ulcdb compare --where` and `ulcdb meta --where` recompute them on a subset of "
        "segments)")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = sample_store(tmp_path_factory.mktemp("score_t") / "s.duckdb")
    return path


def test_system_scores_under_t_are_said_to_be_over_every_segment(db: Path) -> None:
    result = ulcdb(db, "score", "-m", "BLEU", "-T", "1-3", "-j", "1", "-f", "csv")
    assert result.exit_code == 0, result.output
    assert NOTE.format("sys") in result.stderr.splitlines()
    rows = [line.split(",") for line in result.stdout.splitlines()[1:]]
    bleu = {r[3]: float(r[5]) for r in rows}
    refs = [_lines(SAMPLE / "plain" / "refs" / f"ref-{r}.en.txt") for r in "ABC"]
    hyps = _lines(SAMPLE / "plain" / "systems" / "sysA.en.txt")
    assert len(hyps) == 12
    assert bleu["sysA"] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score / 100,
                                         abs=1e-12)
    first3 = sacrebleu.corpus_bleu(hyps[:3], [r[:3] for r in refs]).score / 100
    assert abs(bleu["sysA"] - first3) > 0.1


def test_doc_and_sys_named_with_all_and_nothing_at_seg_level(db: Path) -> None:
    every = ulcdb(db, "score", "-m", "BLEU", "-T", "1-3", "-G", "all", "-j", "1", "-f", "csv")
    assert every.exit_code == 0, every.output
    assert NOTE.format("doc and sys") in every.stderr.splitlines()
    seg = ulcdb(db, "score", "-m", "BLEU", "-T", "1-3", "-G", "seg", "-j", "1", "-f", "csv")
    assert seg.exit_code == 0, seg.output
    assert "-T 1-3" not in seg.stderr
    assert {line.split(",")[4] for line in seg.stdout.splitlines()[1:]} == {"1", "2", "3"}


def test_ulc_over_the_systems_chosen_is_said(db: Path) -> None:
    """Asiya's ULC divides each metric by its best value among the systems in scope: with
    -s naming two of four, sysB is 1 (over all four it is not); hand computation from the
    BLEU and NIST columns."""
    two = ulcdb(db, "score", "-m", "BLEU,NIST", "-s", "sysB,sysC", "-j", "1", "-f", "csv")
    every = ulcdb(db, "score", "-m", "BLEU,NIST", "-j", "1", "-f", "csv")
    assert two.exit_code == 0 and every.exit_code == 0, two.output
    assert ("ULC normalised over the 2 systems chosen with -s (of 4): another choice of "
            "systems gives other ULC values") in two.stderr.splitlines()
    assert "ULC normalised" not in every.stderr

    def table(result) -> dict[str, tuple[float, ...]]:  # noqa: ANN001
        return {r.split(",")[3]: tuple(map(float, r.split(",")[5:]))
                for r in result.stdout.splitlines()[1:]}

    chosen, whole = table(two), table(every)
    for system, (bleu, nist, ulc) in chosen.items():
        top = (max(v[0] for v in chosen.values()), max(v[1] for v in chosen.values()))
        assert ulc == pytest.approx((bleu / top[0] + nist / top[1]) / 2, abs=1e-12)
        best = (max(v[0] for v in whole.values()), max(v[1] for v in whole.values()))
        assert whole[system][2] == pytest.approx((bleu / best[0] + nist / best[1]) / 2,
                                                 abs=1e-12)
    assert chosen["sysB"][2] == pytest.approx(1.0) and whole["sysB"][2] < 0.7
