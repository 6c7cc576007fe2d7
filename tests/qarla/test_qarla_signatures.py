"""QARLA tables print the signatures of the scores they were computed from (issue 25
section 3): KING of each metric and of the ULC compares qualities against R - {h}, the
leave-one-out reference sets (BLEU|nrefs:2 with three references), not the single references
it used to print (BLEU|nrefs:1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.qarla.measures import Scope, used_refsets


@pytest.fixture(scope="module")
def db(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    sample = shared / "testbeds" / "wmt21_newstest2021_ende" / "sample"
    if not sample.is_dir():
        pytest.skip("en-de sample not in shared data")
    path = tmp_path_factory.mktemp("king") / "king.duckdb"
    args = ["ingest", "testbed", "--name", "ende", "--source", sample / "source.en.txt",
            "--tgt-lang", "de"]
    args += [a for r in "ACD" for a in ("--ref", f"ref-{r}={sample / 'refs' / f'ref-{r}.de.txt'}")]
    args += [a for s in ("UEdin", "Online-W")
             for a in ("--sys", f"{s}={sample / 'systems' / f'{s}.de.txt'}")]
    done = ulcdb(path, *args)
    assert done.exit_code == 0, done.output
    return path


def test_king_prints_the_leave_one_out_signatures(db: Path) -> None:
    result = ulcdb(db, "king", "-m", "BLEU,chrF", "-G", "sys", "-j", "1")
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.stdout.splitlines() if ln.startswith(("BLEU", "chrF"))]
    assert len(lines) == 2, result.stdout
    assert lines[0].startswith("BLEU: BLEU|nrefs:2|case:mixed|") and "nrefs:1" not in result.stdout
    assert lines[1].startswith("chrF: chrF") and "|nrefs:2|" in lines[1]
    queen = ulcdb(db, "queen", "-m", "BLEU,chrF", "-j", "1")  # QUEEN reads single references
    assert queen.exit_code == 0, queen.output
    assert "BLEU: BLEU|nrefs:1|" in queen.stdout and "nrefs:2" not in queen.stdout


def test_the_reference_sets_each_measure_reads() -> None:
    scope = Scope("t", "case:mixed", ("BLEU",), ("S1",), ("r-B", "r-A", "r-C", "r-D"))
    leave_one_out = ["r-A+r-C+r-D", "r-B+r-C+r-D", "r-A+r-B+r-D", "r-A+r-B+r-C"]
    assert used_refsets(scope) == ["r-B", "r-A", "r-C", "r-D"]
    assert used_refsets(scope, ["single", "ulc"]) == leave_one_out
    assert used_refsets(scope, ["queen"]) == ["r-B", "r-A", "r-C", "r-D"]
    assert used_refsets(scope, ["single", "queen"]) == ["r-B", "r-A", "r-C", "r-D",
                                                        *leave_one_out]
