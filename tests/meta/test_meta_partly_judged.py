"""`ulcdb meta` at doc/sys level with human scores derived from segment judgments that cover
part of the test bed says so: WMT21 en-de's MQM judged 527 of its 1002 segments, so each
system's MQM is the mean over those while its BLEU is over all 1002, and the header said
only "MQM (derived)".  On the sample (12 segments), with judgments written here; the
suggested --where gives the correlation on the judged segments alone (checked with scipy
against sacrebleu's BLEU on those lines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sacrebleu
import scipy.stats

from tests.cli_helpers import SAMPLE, copy_store, json_of, sample_store, ulcdb

SYSTEMS = ("sysA", "sysB", "sysC", "sysD")
PLAIN = SAMPLE / "plain"
WHERE = "seg_id in (select seg_id from assessments where criterion = 'half')"


def _human(segments: dict[str, range]) -> dict[str, dict[int, float]]:
    """A made-up judgment per system and segment: 10 * system index + segment."""
    return {s: {seg: 10.0 * i + seg for seg in segments[s]} for i, s in enumerate(SYSTEMS)}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = sample_store(tmp_path_factory.mktemp("partly_judged") / "s.duckdb")
    result = ulcdb(db, "score", "-m", "BLEU", "-G", "sys", "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.output
    return db


def _ingest(db: Path, tmp_path: Path, human: dict[str, dict[int, float]]) -> None:
    path = tmp_path / "half.tsv"
    rows = ["system\tseg_id\tscore"] + [f"{s}\t{seg}\t{v}" for s, by in human.items()
                                          for seg, v in by.items()]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = ulcdb(db, "ingest", "assessments", path, "-c", "half")
    assert result.exit_code == 0, result.output


def _meta(db: Path, *extra: str) -> dict[str, Any]:
    return dict(json_of(db, "meta", "-c", "half", "-m", "BLEU", "--coef", "pearson", "-B", "0",
                        "-f", "json", *extra))


def _bleu(system: str, segments: range) -> float:
    lines = {name: (PLAIN / path).read_text(encoding="utf-8").splitlines()
             for name, path in [(system, f"systems/{system}.en.txt"),
                                *[(r, f"refs/{r}.en.txt") for r in ("ref-A", "ref-B", "ref-C")]]}
    pick = [i - 1 for i in segments]
    refs = [[lines[r][i] for i in pick] for r in ("ref-A", "ref-B", "ref-C")]
    return float(sacrebleu.corpus_bleu([lines[system][i] for i in pick], refs).score) / 100


def test_the_same_judged_segments_for_every_system(store: Path, tmp_path: Path) -> None:
    db = copy_store(store, tmp_path)
    judged = range(1, 7)
    human = _human({s: judged for s in SYSTEMS})
    _ingest(db, tmp_path, human)
    assert (f'sys-level half: the mean of each target\'s judged segments (6 of the 12 '
            f'segments), metric scores over all 12; --where "{WHERE}" puts both on the judged '
            f'segments') in _meta(db)["run"]["summary"]
    sliced = _meta(db, "--where", WHERE)
    assert not any("judged segments" in line for line in sliced["run"]["summary"])
    (row,) = sliced["results"]
    means = [sum(human[s].values()) / len(judged) for s in SYSTEMS]
    assert row["pearson"] == pytest.approx(scipy.stats.pearsonr(
        means, [_bleu(s, judged) for s in SYSTEMS])[0], abs=1e-9)


def test_judged_segments_that_differ_get_no_where(store: Path, tmp_path: Path) -> None:
    db = copy_store(store, tmp_path)
    _ingest(db, tmp_path, _human({s: range(1 + i, 7 + 2 * i) for i, s in enumerate(SYSTEMS)}))
    summary = _meta(db)["run"]["summary"]
    assert ("sys-level half: the mean of each target's judged segments (6 to 9 of the 12 "
            "segments), metric scores over all 12") in summary


def test_every_segment_judged_no_note(store: Path, tmp_path: Path) -> None:
    db = copy_store(store, tmp_path)
    _ingest(db, tmp_path, _human({s: range(1, 13) for s in SYSTEMS}))
    assert not any("judged segments" in line for line in _meta(db)["run"]["summary"])
